// Packs every publishable package and installs the tarballs into fresh npm projects, once per run:
// the npm installs are the slow part, and every install test file drives the same projects.
// Needs the built packages (`pnpm build`) and the npm registry (for the third-party dependencies).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type PackedPackage, packPublishable } from './pack-publishable.js';

/** Where the setup put the tarballs and the projects installed from them. */
export interface Installation {
  /** The scratch folder everything lives in, removed after the run. */
  scratch: string;
  /** The project with every tarball, the agent SDKs and the Redis client. */
  project: string;
  /** The strict TypeScript project: every tarball and the AI SDK only. */
  consumer: string;
  /** A host serving its own tools over MCP: the adapters and what they need, nothing else. */
  adaptersOnly: string;
  packed: PackedPackage[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    installation: Installation;
  }
}

/** The SDK versions the adapters are built for, installed beside the tarballs as a user would. */
const AGENT_SDKS = ['ai@^6.0.0', '@mariozechner/pi-agent-core@^0.73.0', '@mariozechner/pi-ai@^0.73.0'];
/** The Redis client, an optional peer that the web README's Redis section installs for redis mode. */
const REDIS_CLIENT = '@redis/client@^6.3.1';
/** What the strict TypeScript consumer installs besides the tarballs: the AI SDK only. */
// `@types/json-schema` is what `ai`'s own declarations need under `skipLibCheck: false`.
const TYPESCRIPT_CONSUMER_PACKAGES = [
  'ai@^6.0.0',
  'typescript@~5.9.3',
  '@types/node@^20.19.8',
  '@types/json-schema@^7.0.15',
];

/** `npm install` of `specs` in `directory`, as a user runs it (install scripts of third-party SDKs skipped). */
function npmInstall(directory: string, specs: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      'npm',
      ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...specs],
      { cwd: directory, maxBuffer: 16 * 1024 * 1024 },
      (error, _stdout, stderr) =>
        error ? reject(new Error(`npm install failed in ${directory}:\n${stderr}`)) : resolve(),
    );
  });
}

function freshProject(scratch: string, name: string): string {
  const directory = join(scratch, name);
  mkdirSync(directory);
  writeFileSync(
    join(directory, 'package.json'),
    `${JSON.stringify({ name, private: true, type: 'module' }, null, 2)}\n`,
  );
  return directory;
}

export default async function setup(testProject: TestProject) {
  const scratch = mkdtempSync(join(tmpdir(), 'mono-agent-install-'));
  try {
    mkdirSync(join(scratch, 'home'));
    const tarballs = join(scratch, 'tarballs');
    mkdirSync(tarballs);
    const packed = packPublishable(tarballs);
    const project = freshProject(scratch, 'install-check-project');
    const consumer = freshProject(scratch, 'strict-typescript-consumer');
    const adaptersOnly = freshProject(scratch, 'tool-adapters-only');
    const specs = packed.map((entry) => entry.tarball);
    const tarballOf = (name: string) => packed.find((entry) => entry.name === name)!.tarball;
    await Promise.all([
      npmInstall(project, [...specs, ...AGENT_SDKS, REDIS_CLIENT]),
      npmInstall(consumer, [...specs, ...TYPESCRIPT_CONSUMER_PACKAGES]),
      // A host serving its own tools over MCP: the adapters, the one sibling they depend on, the SDK.
      npmInstall(adaptersOnly, [
        tarballOf('@mono-agent/tool-adapters'),
        tarballOf('@mono-agent/budget-policy'),
        '@modelcontextprotocol/sdk@^1.32.0',
      ]),
    ]);
    testProject.provide('installation', { scratch, project, consumer, adaptersOnly, packed });
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
  return () => rmSync(scratch, { recursive: true, force: true });
}
