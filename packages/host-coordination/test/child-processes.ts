// Runs test/host-child.ts in real child processes. The child is bundled once with esbuild so each
// process starts in tens of milliseconds instead of paying a TypeScript loader on every spawn.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Bundles the child script; returns the path of the runnable `.mjs`. */
export async function bundleChild(): Promise<string> {
  const outfile = join(mkdtempSync(join(tmpdir(), 'host-child-')), 'host-child.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./host-child.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@mono-agent/source'],
    outfile,
    // The Redis client is CommonJS; bundled into ESM it needs a `require`.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'error',
  });
  return outfile;
}

/** A running child with its parsed output lines. */
export interface RunningChild {
  process: ChildProcess;
  /** Resolves with the first line that satisfies `predicate`. */
  waitForLine(predicate: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Resolves with every line and the exit code once the child exits. */
  exited: Promise<{
    lines: Record<string, unknown>[];
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
  }>;
}

/** Starts one child with `command`. */
export function startChild(childPath: string, command: Record<string, unknown>): RunningChild {
  const child = spawn(process.execPath, [childPath, JSON.stringify(command)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  const watchers = new Set<{
    predicate: (line: Record<string, unknown>) => boolean;
    resolve: (line: Record<string, unknown>) => void;
  }>();
  let buffer = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdout?.on('data', (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      const line = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>;
      buffer = buffer.slice(newline + 1);
      lines.push(line);
      for (const watcher of watchers) {
        if (watcher.predicate(line)) {
          watchers.delete(watcher);
          watcher.resolve(line);
        }
      }
      newline = buffer.indexOf('\n');
    }
  });
  const exited = new Promise<{
    lines: Record<string, unknown>[];
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
  }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ lines, code, signal, stderr }));
  });
  return {
    process: child,
    exited,
    waitForLine(predicate) {
      const seen = lines.find(predicate);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        watchers.add({ predicate, resolve });
        void exited.then(({ code, stderr: errors }) =>
          reject(
            new Error(`child exited (${code}) before the expected line: ${JSON.stringify(lines)} ${errors}`),
          ),
        );
      });
    },
  };
}
