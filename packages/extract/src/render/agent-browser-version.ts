import { execFile } from 'node:child_process';

/** The oldest agent-browser release whose flags the renderer relies on (`--namespace`, `read`, allowlist hardening, the 1 h idle default). */
export const MIN_AGENT_BROWSER_VERSION = '0.33.1';

/** The agent-browser release the project installs and tests with (an exact pin: on Node 20 a plain install picks 0.27.0). */
export const TESTED_AGENT_BROWSER_VERSION = '0.41.2';

/** The configuration setting that names the agent-browser executable. */
export const BROWSER_COMMAND_SETTING = 'tools.web.fetch.browserCommand';

/** The environment variable that names the agent-browser executable. */
export const BROWSER_COMMAND_ENV = 'MONO_AGENT_WEB_BROWSER_COMMAND';

/**
 * What an operator does about a missing, foreign or old browser command: which program and version
 * to install, and the setting and environment variable that point at it.
 */
export function browserCommandRemedy(): string {
  return `install agent-browser ${MIN_AGENT_BROWSER_VERSION} or newer (an exact version, e.g. npm install -g agent-browser@${TESTED_AGENT_BROWSER_VERSION}) and point ${BROWSER_COMMAND_SETTING} (or ${BROWSER_COMMAND_ENV}) at it`;
}

/** How long `browserCommand --version` may take. */
export const VERSION_PROBE_TIMEOUT_MS = 10_000;

/** Why a browser command was refused: it cannot be run, it is another program, or it is too old. */
export type AgentBrowserRefusal = 'browser_missing' | 'not_agent_browser' | 'browser_version';

/** What `--version` said about the program. */
export type AgentBrowserVersionCheck =
  | { ok: true; version: string }
  | { ok: false; version: string | undefined; reason: string; refusal: AgentBrowserRefusal };

/**
 * Reads an agent-browser version from `--version` output. Only a line of the form
 * `agent-browser X.Y.Z` counts, so another program that prints a version is not mistaken for it.
 */
export function parseAgentBrowserVersion(output: string): string | undefined {
  return /^\s*agent-browser\s+v?(\d+\.\d+\.\d+)\b/im.exec(output)?.[1];
}

/** Compares two `X.Y.Z` versions numerically. */
export function compareVersions(left: string, right: string): number {
  const a = left.split('.').map(Number);
  const b = right.split('.').map(Number);
  for (let index = 0; index < 3; index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Judges `--version` output against {@link MIN_AGENT_BROWSER_VERSION}. */
export function judgeAgentBrowserVersion(command: string, output: string): AgentBrowserVersionCheck {
  const version = parseAgentBrowserVersion(output);
  if (version === undefined) {
    return {
      ok: false,
      version: undefined,
      refusal: 'not_agent_browser',
      reason: `the browser command ${command} is not agent-browser (its --version does not report agent-browser); ${browserCommandRemedy()}`,
    };
  }
  if (compareVersions(version, MIN_AGENT_BROWSER_VERSION) < 0) {
    return {
      ok: false,
      version,
      refusal: 'browser_version',
      reason: `agent-browser ${version} (the browser command ${command}) is older than ${MIN_AGENT_BROWSER_VERSION}; ${browserCommandRemedy()}`,
    };
  }
  return { ok: true, version };
}

/**
 * Runs `command --version` directly (no shell, no update check) and judges the answer. A program that
 * cannot be run, or that is not agent-browser, is reported as not ok, with the reason.
 */
export function checkAgentBrowserVersion(
  command: string,
  environment: Readonly<Record<string, string>> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    AGENT_BROWSER_NO_VERSION_CHECK: '1',
  },
): Promise<AgentBrowserVersionCheck> {
  return new Promise((resolve) => {
    execFile(
      command,
      ['--version'],
      {
        env: { ...environment },
        shell: false,
        timeout: VERSION_PROBE_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        encoding: 'utf8',
      },
      (error, stdout) => {
        const failure = error as (NodeJS.ErrnoException & { killed?: boolean }) | null;
        // A string code is the system refusing to start the program (not found, not executable);
        // a program that ran and printed no agent-browser version is judged below as another program.
        if (typeof failure?.code === 'string') {
          resolve({
            ok: false,
            version: undefined,
            refusal: 'browser_missing',
            reason: `${failure.code === 'ENOENT' ? `the browser command ${command} was not found` : `the browser command ${command} could not be run (${failure.code})`}; ${browserCommandRemedy()}`,
          });
          return;
        }
        if (failure?.killed === true && stdout.trim() === '') {
          resolve({
            ok: false,
            version: undefined,
            refusal: 'not_agent_browser',
            reason: `the browser command ${command} did not answer --version within ${VERSION_PROBE_TIMEOUT_MS / 1000} s, so it is not a working agent-browser; ${browserCommandRemedy()}`,
          });
          return;
        }
        resolve(judgeAgentBrowserVersion(command, stdout));
      },
    );
  });
}
