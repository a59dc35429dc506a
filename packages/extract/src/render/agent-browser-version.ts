import { execFile } from 'node:child_process';

/** The oldest agent-browser release whose flags the renderer relies on (`--namespace`, `read`, allowlist hardening, the 1 h idle default). */
export const MIN_AGENT_BROWSER_VERSION = '0.33.1';

/** How long `browserCommand --version` may take. */
export const VERSION_PROBE_TIMEOUT_MS = 10_000;

/** What `--version` said about the program. */
export type AgentBrowserVersionCheck =
  | { ok: true; version: string }
  | { ok: false; version: string | undefined; reason: string };

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
      reason: `${command} --version does not report agent-browser; install agent-browser ${MIN_AGENT_BROWSER_VERSION} or newer (an exact version, e.g. npm install -g agent-browser@0.41.2)`,
    };
  }
  if (compareVersions(version, MIN_AGENT_BROWSER_VERSION) < 0) {
    return {
      ok: false,
      version,
      reason: `agent-browser ${version} is older than ${MIN_AGENT_BROWSER_VERSION}; install an exact newer version (on Node 20 a plain install picks 0.27.0)`,
    };
  }
  return { ok: true, version };
}

/**
 * Runs `command --version` directly (no shell, no update check) and judges the answer. A program that
 * cannot be run is reported as not ok, with the reason.
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
        if (error !== null && stdout.trim() === '') {
          const code = (error as NodeJS.ErrnoException).code;
          resolve({
            ok: false,
            version: undefined,
            reason: `${command} --version did not run (${typeof code === 'string' ? code : 'failed'}); install agent-browser ${MIN_AGENT_BROWSER_VERSION} or newer or set tools.web.fetch.browserCommand`,
          });
          return;
        }
        resolve(judgeAgentBrowserVersion(command, stdout));
      },
    );
  });
}
