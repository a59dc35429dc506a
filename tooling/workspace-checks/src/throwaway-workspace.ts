import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A workspace written to a temporary folder for a test, and how to remove it. */
export interface ThrowawayWorkspace {
  /** Its root folder. */
  root: string;
  /** Deletes it. */
  remove(): void;
}

/**
 * Writes `files` (repository path → content) under a new temporary root. A `package.json` given as an
 * object is written as JSON, so tests can state manifests briefly.
 */
export function writeWorkspace(files: Record<string, string | object>): ThrowawayWorkspace {
  const root = mkdtempSync(join(tmpdir(), 'workspace-checks-'));
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, typeof content === 'string' ? content : JSON.stringify(content));
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** A package manifest whose `exports` send `.` to its source, as the workspace's packages do. */
export function sourceManifest(name: string): object {
  return {
    name,
    type: 'module',
    exports: { '.': { '@mono-agent/source': './src/index.ts', default: './dist/index.js' } },
  };
}
