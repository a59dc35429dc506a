import { type ChildProcess, spawn } from 'node:child_process';
import { WebToolError } from '@mono-agent/budget-policy';
import { createChildEnvironment } from './child-environment.js';
import {
  createJsonRpcConnection,
  type JsonRpcConnection,
  type ServerRequest,
  type ServerRequestReply,
} from './json-rpc-connection.js';
import { createLineDecoder } from './line-decoder.js';

/**
 * How long shutdown waits for an exit after closing stdin. With a thread loaded, `codex app-server`
 * takes 3.5–5 s to leave on end of input, so this covers it with margin.
 */
export const SHUTDOWN_STDIN_GRACE_MS = 6_000;

/** How long shutdown waits after SIGTERM before SIGKILL. */
export const SHUTDOWN_TERM_GRACE_MS = 2_000;

/** How long shutdown waits for the exit that follows SIGKILL before giving up on the process. */
export const SHUTDOWN_KILL_GRACE_MS = 1_000;

/** The most stderr kept (the newest bytes), for diagnosing a failed start. */
export const MAX_STDERR_BYTES = 8 * 1024;

/** How a process ended. */
export interface ProcessExit {
  /** The exit code, or null when a signal ended it. */
  code: number | null;
  /** The signal that ended it, or null. */
  signal: NodeJS.Signals | null;
}

/** The grace periods of the shutdown sequence (milliseconds). */
export interface ShutdownGrace {
  /** Wait after closing stdin. */
  stdinMs: number;
  /** Wait after SIGTERM. */
  termMs: number;
  /** Wait after SIGKILL. */
  killMs: number;
}

/** Options of {@link startAppServerProcess}. */
export interface AppServerProcessOptions {
  /** The executable; spawned directly, never through a shell. */
  command: string;
  /** Its arguments. */
  args: readonly string[];
  /** The parent environment; credential-looking variables are removed before the spawn. */
  env: NodeJS.ProcessEnv;
  /** Answers server requests. */
  answer(request: ServerRequest): ServerRequestReply;
  /** Default per-request timeout. */
  requestTimeoutMs?: number;
  /** Overrides of the shutdown grace periods. */
  shutdownGrace?: Partial<ShutdownGrace>;
  /** Observes every line written to the child (tests use it to audit outgoing messages). */
  onWrite?: (line: string) => void;
}

/** A running `codex app-server` with its JSON-RPC connection. */
export interface AppServerProcess {
  /** The connection over the child's stdio. */
  readonly connection: JsonRpcConnection;
  /** The child's process id. */
  readonly pid: number | undefined;
  /** Resolves when the child has exited. */
  readonly exited: Promise<ProcessExit>;
  /** The newest stderr text, at most {@link MAX_STDERR_BYTES}. */
  stderrTail(): string;
  /**
   * Ends the child in the order that frees it: close stdin, wait, SIGTERM, wait, SIGKILL. Resolves
   * with the steps taken once the child is gone or the bound has passed.
   */
  shutdown(): Promise<ShutdownReport>;
}

/** What a shutdown did. */
export interface ShutdownReport {
  /** The last step that was needed. */
  step: 'already-exited' | 'stdin' | 'sigterm' | 'sigkill' | 'abandoned';
  /** The exit, when one was seen. */
  exit: ProcessExit | undefined;
}

const waitFor = <T>(promise: Promise<T>, ms: number): Promise<T | undefined> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    void promise.then((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });

// The child leads its own process group, so a signal also reaches the native binary that the npm
// shim of `@openai/codex` starts as its child on Node 20.
const signalGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // Already gone.
    }
  }
};

/** Spawns `codex app-server` and connects to it; rejects when the spawn itself fails. */
export async function startAppServerProcess(options: AppServerProcessOptions): Promise<AppServerProcess> {
  const grace: ShutdownGrace = {
    stdinMs: options.shutdownGrace?.stdinMs ?? SHUTDOWN_STDIN_GRACE_MS,
    termMs: options.shutdownGrace?.termMs ?? SHUTDOWN_TERM_GRACE_MS,
    killMs: options.shutdownGrace?.killMs ?? SHUTDOWN_KILL_GRACE_MS,
  };
  const child = spawn(options.command, [...options.args], {
    env: createChildEnvironment(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
    shell: false,
    detached: process.platform !== 'win32',
    windowsHide: true,
  });

  let exit: ProcessExit | undefined;
  const exited = new Promise<ProcessExit>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    });
  });

  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new WebToolError({
          code:
            error.code === 'ENOENT' || error.code === 'EACCES'
              ? 'configuration_error'
              : 'backend_unavailable',
          message: `could not start ${options.command}: ${error.code ?? error.message}`,
          cause: error,
          details: { command: options.command, errno: error.code },
        }),
      );
    });
  });
  // Later errors (e.g. EPIPE after the child died) surface through `exited` and the connection.
  child.on('error', () => {});
  child.stdin?.on('error', () => {});

  let stderr = Buffer.alloc(0);
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = Buffer.concat([stderr, chunk]);
    if (stderr.length > MAX_STDERR_BYTES) stderr = stderr.subarray(stderr.length - MAX_STDERR_BYTES);
  });

  const connection = createJsonRpcConnection({
    answer: options.answer,
    requestTimeoutMs: options.requestTimeoutMs,
    write(line) {
      options.onWrite?.(line);
      if (child.stdin?.writable) child.stdin.write(`${line}\n`);
    },
  });
  const decoder = createLineDecoder({
    line: (text) => connection.receive(text),
    oversized: () => {},
  });
  child.stdout?.on('data', (chunk: Buffer) => decoder.push(chunk));
  child.stdout?.on('end', () => decoder.end());

  // 'close' follows 'exit' once stdout is drained, so the last answers still reach their requests.
  child.once('close', (code: number | null, signal: NodeJS.Signals | null) =>
    connection.close(
      new WebToolError({
        code: 'backend_unavailable',
        message: `codex app-server exited (code ${code}, signal ${signal})`,
        details: { exitCode: code, signal },
      }),
    ),
  );

  let shutdownPromise: Promise<ShutdownReport> | undefined;
  const shutdown = async (): Promise<ShutdownReport> => {
    if (exit !== undefined) return { step: 'already-exited', exit };
    child.stdin?.end();
    let result = await waitFor(exited, grace.stdinMs);
    if (result !== undefined) return { step: 'stdin', exit: result };
    signalGroup(child, 'SIGTERM');
    result = await waitFor(exited, grace.termMs);
    if (result !== undefined) return { step: 'sigterm', exit: result };
    signalGroup(child, 'SIGKILL');
    result = await waitFor(exited, grace.killMs);
    return { step: result === undefined ? 'abandoned' : 'sigkill', exit: result };
  };

  return {
    connection,
    pid: child.pid,
    exited,
    stderrTail: () => stderr.toString('utf8'),
    shutdown() {
      shutdownPromise ??= shutdown().finally(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      });
      return shutdownPromise;
    },
  };
}
