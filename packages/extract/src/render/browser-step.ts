import { execFile } from 'node:child_process';
import { WebToolError } from '@mono-agent/budget-policy';
import { browserCommandRemedy } from './agent-browser-version.js';

/** The most output one agent-browser step may print (the rendered HTML, JSON-escaped). */
export const MAX_STEP_OUTPUT_BYTES = 32 * 1024 * 1024;

/** How one render invokes agent-browser: the executable, the flags every step repeats, the environment. */
export interface BrowserInvocation {
  /** The executable, run directly (never through a shell). */
  command: string;
  /** Global flags, identical on every step (they locate the daemon and feed its launch hash). */
  globalArguments: readonly string[];
  /** The whole environment of the child (an allow-list, not the parent's environment). */
  environment: Readonly<Record<string, string>>;
}

/** Options of one step. */
export interface StepOptions {
  /** Milliseconds the step may take before it is killed. */
  timeoutMs: number;
  /** Kills the step when it fires. */
  signal: AbortSignal;
}

/** A step the browser ran but reported as failed (`success: false`), with its short error text. */
export class BrowserStepFailure extends Error {
  override readonly name = 'BrowserStepFailure';
}

/** A step that was killed because its time ran out or the signal fired. */
export class BrowserStepInterrupted extends Error {
  override readonly name = 'BrowserStepInterrupted';
}

/**
 * Runs one agent-browser command (`open <url>`, `get url`, …) with `--json` and returns its `data`.
 * The child gets exactly the invocation's environment, no shell, a bounded output buffer and
 * SIGKILL at its timeout or on the signal.
 */
export function runBrowserStep(
  invocation: BrowserInvocation,
  stepArguments: readonly string[],
  options: StepOptions,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      reject(new BrowserStepInterrupted('the step was not started: the render was interrupted'));
      return;
    }
    execFile(
      invocation.command,
      [...invocation.globalArguments, ...stepArguments],
      {
        env: { ...invocation.environment },
        shell: false,
        timeout: Math.max(1, Math.floor(options.timeoutMs)),
        killSignal: 'SIGKILL',
        maxBuffer: MAX_STEP_OUTPUT_BYTES,
        signal: options.signal,
        encoding: 'utf8',
        windowsHide: true,
      },
      (error, stdout) => {
        const refusal = processFailure(error, invocation, stepArguments);
        if (refusal !== undefined) {
          reject(refusal);
          return;
        }
        const reply = parseReply(stdout);
        if (reply === undefined) {
          reject(new BrowserStepFailure(`agent-browser ${stepArguments[0] ?? ''} printed no JSON reply`));
          return;
        }
        if (reply.success !== true) {
          const text = typeof reply.error === 'string' ? reply.error : 'the step failed';
          reject(new BrowserStepFailure(text.replace(/\s+/g, ' ').slice(0, 300)));
          return;
        }
        resolve(
          typeof reply.data === 'object' && reply.data !== null
            ? (reply.data as Record<string, unknown>)
            : {},
        );
      },
    );
  });
}

/**
 * The error a step's process failure ends it with: interrupted, the command missing, or too much
 * output. Any other failure (a non-zero exit) is left to the reply, which says what went wrong.
 */
function processFailure(
  error: Error | null,
  invocation: BrowserInvocation,
  stepArguments: readonly string[],
): Error | undefined {
  const failure = error as (NodeJS.ErrnoException & { killed?: boolean; signal?: string }) | null;
  if (failure !== null && (failure.name === 'AbortError' || failure.killed === true))
    return new BrowserStepInterrupted(`agent-browser ${stepArguments[0] ?? ''} was stopped`);
  if (failure?.code === 'ENOENT' || failure?.code === 'EACCES')
    return new WebToolError({
      code: 'configuration_error',
      message: `the browser command ${invocation.command} cannot be run (${failure.code}); ${browserCommandRemedy()}`,
      details: { reason: 'browser_missing' },
    });
  if (failure?.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
    return new WebToolError({
      code: 'too_large',
      message: `the rendered page is larger than ${MAX_STEP_OUTPUT_BYTES} bytes of output`,
      details: { limit: MAX_STEP_OUTPUT_BYTES },
    });
  return undefined;
}

function parseReply(stdout: string): { success?: unknown; data?: unknown; error?: unknown } | undefined {
  const text = stdout.trim();
  if (text === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    // Some versions print a line of progress before the reply; the reply is the last line.
    const last = text.slice(text.lastIndexOf('\n') + 1);
    try {
      const value: unknown = JSON.parse(last);
      return typeof value === 'object' && value !== null ? value : undefined;
    } catch {
      return undefined;
    }
  }
}
