import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * How a README code block is run, named in the `<!-- readme-test: KIND -->` comment right above it:
 * - `install`: `npm install` lines, carried out against the packed tarballs by the install test;
 * - `module`: a TypeScript module, run in the installed project (its exports are then called by the
 *   install test with a scripted model);
 * - `mcp-config`: an MCP client configuration (JSON or TOML), whose command is started and driven
 *   with the MCP SDK client;
 * - `usage`: CLI usage lines, each of whose commands must be in `mono-agent-web --help`;
 * - `config`: an agent configuration file, checked with `mono-agent-web validate --no-liveness`;
 * - `command`: the repository's own setup and maintenance commands, which `.ci/run` runs itself or
 *   through `pnpm setup:system` and the test suite.
 */
export const BLOCK_KINDS = ['install', 'module', 'mcp-config', 'usage', 'config', 'command'] as const;

/** One kind of {@link BLOCK_KINDS}. */
export type BlockKind = (typeof BLOCK_KINDS)[number];

/** One fenced code block of a README. */
export interface ReadmeBlock {
  /** The Markdown file, relative to the repository root. */
  file: string;
  /** The 1-based line of the opening fence. */
  line: number;
  /** The fence's info string (`ts`, `sh`, `json`, …), empty when none. */
  language: string;
  /** The kind from the marker comment, or undefined when the block has none. */
  kind: BlockKind | undefined;
  /** The block's text, without the fences. */
  code: string;
}

const MARKER = /^<!--\s*readme-test:\s*([a-z-]+)\s*-->$/;
const ROOT_COMMAND_MARKER = /^<!--\s*command:\s*[a-z]+\s*-->$/;

/** The Markdown files whose blocks are run: the root README and each published package's docs. */
export function readmeFiles(): string[] {
  const files = [join(repositoryRoot, 'README.md')];
  const packages = join(repositoryRoot, 'packages');
  for (const entry of readdirSync(packages, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    for (const name of ['README.md', 'CONFIG.md']) {
      const file = join(packages, entry.name, name);
      if (existsSync(file)) files.push(file);
    }
  }
  return files;
}

/** Every fenced block of one Markdown file, with the kind its marker names. */
export function readmeBlocks(file: string): ReadmeBlock[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const fence = /^```(\S*)\s*$/.exec(lines[index]!);
    if (fence === null) continue;
    const start = index;
    let end = index + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    const previous = lines[start - 1]?.trim() ?? '';
    const marker = MARKER.exec(previous)?.[1];
    const kind = ROOT_COMMAND_MARKER.test(previous)
      ? 'command'
      : (BLOCK_KINDS as readonly string[]).includes(marker ?? '')
        ? (marker as BlockKind)
        : undefined;
    blocks.push({
      file: relative(repositoryRoot, file),
      line: start + 1,
      language: fence[1] ?? '',
      kind,
      code: lines.slice(start + 1, end).join('\n'),
    });
    index = end;
  }
  return blocks;
}

/** Every block of every file of {@link readmeFiles}. */
export function allReadmeBlocks(): ReadmeBlock[] {
  return readmeFiles().flatMap((file) => readmeBlocks(file));
}

/** The packages an `install` block names, in order (`npm install a b` lines; comments dropped). */
export function installedPackages(block: ReadmeBlock): string[] {
  return block.code
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '')
    .flatMap((line) => {
      const words = line.split(/\s+/);
      if (words[0] !== 'npm' || words[1] !== 'install') {
        throw new Error(
          `${block.file}:${block.line}: an install block holds only npm install lines: ${line}`,
        );
      }
      return words.slice(2).filter((word) => !word.startsWith('-'));
    });
}

/** An MCP client configuration reduced to what starts the server. */
export interface McpLaunch {
  /** The executable. */
  command: string;
  /** Its arguments. */
  args: string[];
  /** Extra environment variables. */
  env: Record<string, string>;
}

/**
 * The launch of the server called `web` in an `mcp-config` block: the `mcpServers` shape (Claude,
 * Cursor, Windsurf), the `servers` shape (VS Code, with `type: stdio`) or Codex's TOML table.
 */
export function mcpLaunch(block: ReadmeBlock): McpLaunch {
  if (block.language === 'toml') {
    const value = (key: string) => {
      const match = new RegExp(`^${key}\\s*=\\s*(.+)$`, 'm').exec(block.code);
      if (match === null) throw new Error(`${block.file}:${block.line}: no ${key} in the TOML table`);
      // The values used here are TOML's inline forms that are also JSON, apart from `=` in tables.
      return JSON.parse(match[1]!.replace(/"\s*=\s*/g, '": ')) as unknown;
    };
    if (!/^\[mcp_servers\.web\]$/m.test(block.code))
      throw new Error(`${block.file}:${block.line}: no [mcp_servers.web]`);
    return {
      command: value('command') as string,
      args: value('args') as string[],
      env: value('env') as Record<string, string>,
    };
  }
  const parsed = JSON.parse(block.code) as {
    mcpServers?: Record<string, McpLaunch & { type?: string }>;
    servers?: Record<string, McpLaunch & { type?: string }>;
  };
  const server = parsed.mcpServers?.web ?? parsed.servers?.web;
  if (server === undefined) throw new Error(`${block.file}:${block.line}: no server called web`);
  if (parsed.servers !== undefined && server.type !== 'stdio') {
    throw new Error(`${block.file}:${block.line}: a VS Code server entry needs type stdio`);
  }
  return { command: server.command, args: server.args, env: server.env ?? {} };
}
