import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const manifestUrl = new URL('../../../package.json', import.meta.url);

/** The built `mono-agent-web` bin, exactly as npm installs it (the path the manifest's `bin` names). */
export const BUILT_CLI = fileURLToPath(
  new URL(
    (JSON.parse(readFileSync(manifestUrl, 'utf8')) as { bin: Record<string, string> }).bin['mono-agent-web']!,
    manifestUrl,
  ),
);

/** How one CLI process ended. */
export interface CliRun {
  /** The exit code. */
  code: number;
  /** Everything printed on standard output. */
  stdout: string;
  /** Everything printed on standard error. */
  stderr: string;
}

/** Options of {@link runBuiltCli}. */
export interface RunOptions {
  /** Environment variables on top of PATH and HOME (the only ones inherited). */
  env?: Record<string, string>;
  /** The HOME of the process (host state lives under it). */
  home: string;
  /** Kills the process after this many milliseconds (default 60 s). */
  timeoutMs?: number;
}

/** Runs the built bin with `node`, as a user's shell would, and collects its output. */
export function runBuiltCli(args: readonly string[], options: RunOptions): Promise<CliRun> {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run pnpm build first`);
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BUILT_CLI, ...args],
      {
        env: { PATH: process.env.PATH ?? '', HOME: options.home, ...options.env },
        timeout: options.timeoutMs ?? 60_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}

/** Parses `--json` output, failing the test with the raw output when it is not JSON. */
export function jsonOf<Value = Record<string, unknown>>(run: CliRun): Value {
  try {
    return JSON.parse(run.stdout) as Value;
  } catch {
    throw new Error(`not JSON (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
}
