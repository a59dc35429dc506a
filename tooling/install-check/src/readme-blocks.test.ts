import { describe, expect, it } from 'vitest';
import { allReadmeBlocks, BLOCK_KINDS, installedPackages, mcpLaunch } from './readme-blocks.js';

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
});
