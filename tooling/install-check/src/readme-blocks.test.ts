import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  allReadmeBlocks,
  BLOCK_KINDS,
  installedPackages,
  mcpLaunch,
  repositoryRoot,
} from './readme-blocks.js';

const blocks = allReadmeBlocks();

describe('README code blocks', () => {
  it('are found in the root README and the package docs', () => {
    expect(blocks.length).toBeGreaterThan(15);
    expect(new Set(blocks.map((block) => block.file))).toContain('packages/mono-agent-web/README.md');
  });

  it('each say how they are run, so none is left out of the install test', () => {
    const unmarked = blocks
      .filter((block) => block.kind === undefined)
      .map((block) => `${block.file}:${block.line}`);
    expect(unmarked).toEqual([]);
    for (const block of blocks) expect(BLOCK_KINDS).toContain(block.kind);
  });

  it('are TypeScript when they are modules and shell when they install', () => {
    for (const block of blocks) {
      if (block.kind === 'module') expect(block.language, `${block.file}:${block.line}`).toBe('ts');
      if (block.kind === 'install') expect(block.language, `${block.file}:${block.line}`).toBe('sh');
    }
  });

  it('install nothing but npm packages by name', () => {
    for (const block of blocks.filter((entry) => entry.kind === 'install')) {
      const names = installedPackages(block);
      expect(names.length, `${block.file}:${block.line}`).toBeGreaterThan(0);
      for (const name of names) expect(name).toMatch(/^(@[a-z0-9-]+\/)?[a-z0-9.-]+(@[\w.^~-]+)?$/);
    }
  });

  it('configure MCP clients to start the published bin with npx', () => {
    const configs = blocks.filter((block) => block.kind === 'mcp-config');
    expect(configs.length).toBeGreaterThanOrEqual(3);
    for (const block of configs) {
      expect(mcpLaunch(block)).toMatchObject({ command: 'npx', args: ['-y', '@mono-agent/web', 'mcp'] });
    }
  });

  it('give the common MCP clients configurations that are valid JSON (or TOML for Codex), each naming its file', () => {
    const readme = readFileSync(join(repositoryRoot, 'packages/mono-agent-web/README.md'), 'utf8').replace(
      /\s+/g,
      ' ',
    );
    const configs = blocks.filter(
      (block) => block.kind === 'mcp-config' && block.file === 'packages/mono-agent-web/README.md',
    );
    const json = configs.filter((block) => block.language === 'json');
    expect(json.length).toBeGreaterThanOrEqual(2);
    for (const block of json) {
      const where = `${block.file}:${block.line}`;
      const parsed = JSON.parse(block.code) as Record<string, Record<string, Record<string, unknown>>>;
      expect(Object.keys(parsed), where).toHaveLength(1);
      const [shape] = Object.keys(parsed);
      expect(['mcpServers', 'servers'], where).toContain(shape);
      for (const entry of Object.values(parsed[shape!]!)) {
        for (const key of Object.keys(entry))
          expect(['type', 'command', 'args', 'env'], where).toContain(key);
        for (const value of Object.values((entry.env ?? {}) as Record<string, unknown>))
          expect(typeof value, where).toBe('string');
      }
    }
    expect(configs.filter((block) => block.language === 'toml')).toHaveLength(1);
    for (const [client, file] of [
      ['Claude Desktop', 'claude_desktop_config.json'],
      ['Claude Code', '.mcp.json'],
      ['Cursor', '.cursor/mcp.json'],
      ['Windsurf', 'mcp_config.json'],
      ['Gemini CLI', '.gemini/settings.json'],
      ['VS Code', '.vscode/mcp.json'],
      ['Codex', '.codex/config.toml'],
    ]) {
      // The client is named with its file in parentheses: "Cursor (`~/.cursor/mcp.json` …)".
      const named = readme.indexOf(`${client} (\``);
      expect(named, client).toBeGreaterThanOrEqual(0);
      expect(readme.slice(named, named + 120), client).toContain(file);
    }
  });
});
