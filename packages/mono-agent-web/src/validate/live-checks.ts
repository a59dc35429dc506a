// The checks of `validate` that start a program or send a query: the renderer's version, and the
// liveness probes of an operator endpoint and of Codex.
import { execFile } from 'node:child_process';
import { WebToolError } from '@mono-agent/budget-policy';
import { createCoordinator } from '@mono-agent/host-coordination';
import type { WebConfig } from '../config/index.js';
import type { ValidateOptions, ValidationCheck } from './validation-report.js';

/** How long one liveness probe may take. */
export const LIVENESS_PROBE_TIMEOUT_MS = 10_000;

const defaultRunVersion = (command: string) =>
  new Promise<string>((resolve, reject) => {
    execFile(
      command,
      ['--version'],
      {
        timeout: LIVENESS_PROBE_TIMEOUT_MS,
        shell: false,
        // Only what the program needs to start; no update check against the internet.
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', AGENT_BROWSER_NO_VERSION_CHECK: '1' },
      },
      (error, stdout) => (error && stdout.trim() === '' ? reject(error) : resolve(stdout)),
    );
  });

// The renderer is a local program: whether it is installed and is agent-browser are local facts,
// checked with or without liveness (`--version` runs with no update check, so no network).
export async function browserCheck(
  config: WebConfig,
  options: ValidateOptions,
  find: (command: string) => string | undefined,
): Promise<ValidationCheck> {
  const command = config.fetch.browserCommand;
  // Loaded here, not imported: the CLI bundle is CommonJS and reaches the extraction package only by import().
  const { judgeAgentBrowserVersion, MIN_AGENT_BROWSER_VERSION } = await import('@mono-agent/extract');
  const install = `install agent-browser ${MIN_AGENT_BROWSER_VERSION} or newer (an exact version such as 0.41.2) or set tools.web.fetch.browserCommand`;
  const path = find(command);
  if (path === undefined) {
    return {
      name: 'fetch.browser',
      status: 'fail',
      detail: `rendering is ${config.fetch.render} but the browser command ${command} is not ${command.includes('/') ? 'an executable file' : 'on the PATH'}; ${install}`,
    };
  }
  let output: string | undefined;
  try {
    output = await (options.runVersion ?? defaultRunVersion)(command);
  } catch {
    output = undefined;
  }
  const verdict = output === undefined ? undefined : judgeAgentBrowserVersion(command, output);
  return {
    name: 'fetch.browser',
    status: verdict?.ok === true ? 'ok' : 'fail',
    detail:
      verdict === undefined
        ? `${command} --version did not run; ${install}`
        : verdict.ok
          ? `${command} reports agent-browser ${verdict.version}`
          : verdict.reason,
  };
}

export async function probe(config: WebConfig, target: 'searxng' | 'ollama'): Promise<ValidationCheck> {
  const { createWebRuntime } = await import('../runtime/web-runtime.js');
  // A strict chain of the one backend, with a private coordinator and cache, so the probe neither
  // falls back, nor is answered from an earlier search, nor leaves marks in the shared state.
  const runtime = await createWebRuntime({
    config: { ...config, search: { ...config.search, backend: target, maxRequestsPerRun: 2 } },
    coordinator: createCoordinator({ mode: 'process' }),
    processCache: false,
  });
  const run = runtime.startRun();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), LIVENESS_PROBE_TIMEOUT_MS);
  try {
    const result = await run.webSearch(
      { query: 'mono agent web validation', limit: 1 },
      { signal: controller.signal },
    );
    const outcome = result.data as { status?: string } | undefined;
    const answered = !result.isError && (outcome?.status === 'results' || outcome?.status === 'no_results');
    // The probe's own bound ran out: the search reports it as cancelled, but to the operator it is a
    // backend that did not answer in time.
    const code = !answered && controller.signal.aborted ? 'timeout' : (result.code ?? 'failed');
    return {
      name: `liveness.${target}`,
      status: answered ? 'ok' : 'fail',
      detail: answered
        ? `${target} answered a JSON query (${outcome?.status === 'results' ? 'with results' : 'with no results'})`
        : code === 'timeout'
          ? `${target} did not answer a JSON query within ${LIVENESS_PROBE_TIMEOUT_MS / 1000} s: timeout`
          : `${target} did not answer a JSON query: ${code}`,
    };
  } catch (error) {
    return {
      name: `liveness.${target}`,
      status: 'fail',
      detail: `${target} probe failed: ${WebToolError.isInstance(error) ? error.code : 'internal_error'}`,
    };
  } finally {
    clearTimeout(timer);
    await run.close();
  }
}

export async function codexReadiness(config: WebConfig, options: ValidateOptions): Promise<ValidationCheck> {
  const { createCodexAppServerClient } = await import('@mono-agent/codex-app-server-client');
  const client = createCodexAppServerClient({
    model: config.search.codex.model,
    ...(options.codexCommand === undefined ? {} : { command: options.codexCommand }),
  });
  try {
    const readiness = await client.readiness({ model: config.search.codex.model });
    return {
      name: 'liveness.codex',
      status: readiness.ready ? 'ok' : 'fail',
      detail: readiness.ready
        ? `codex app-server is signed in with ChatGPT, offers web search and lists ${config.search.codex.model}`
        : `codex is not ready: ${readiness.reason ?? 'a readiness check failed'} (account ${readiness.account}, web search ${readiness.webSearch}, model ${readiness.model})`,
    };
  } catch (error) {
    const missing =
      (error as NodeJS.ErrnoException)?.code === 'ENOENT' || /ENOENT/.test(String((error as Error)?.message));
    return {
      name: 'liveness.codex',
      status: 'fail',
      detail: missing
        ? 'the codex CLI is not installed or not on the PATH'
        : `codex readiness failed: ${WebToolError.isInstance(error) ? error.code : 'internal_error'}`,
    };
  } finally {
    await client.close();
  }
}
