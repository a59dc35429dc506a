import { execFile } from 'node:child_process';
import { WebToolError } from '@mono-agent/budget-policy';
import { createCoordinator } from '@mono-agent/host-coordination';
import { checkHost } from '@mono-agent/net';
import { operatorEndpointPolicy } from '@mono-agent/search-providers';
import type { WebConfig } from '../config/index.js';
import { resolveNetworkPolicy } from '../runtime/resolve-network-policy.js';

/** The oldest agent-browser release whose flags rendering relies on (defined by the renderer). */
/** The host Codex subscription search reaches; an allowlist must include it. */
export const CODEX_SEARCH_HOST = 'chatgpt.com';
/** How long one liveness probe may take. */
export const LIVENESS_PROBE_TIMEOUT_MS = 10_000;

/** One finding of `validate`. */
export interface ValidationCheck {
  /** A stable name, e.g. `network.searxng`. */
  name: string;
  /** `ok`, `warn` (works, but probably not as meant) or `fail`. */
  status: 'ok' | 'warn' | 'fail';
  /** What was found, in a sentence. */
  detail: string;
}

/** The "Web search & fetch" section of `validate`. */
export interface ValidationReport {
  /** Section title. */
  section: 'Web search & fetch';
  /** Whether external probes ran. */
  liveness: boolean;
  /** Every check, in order. */
  checks: ValidationCheck[];
  /** True when no check failed. */
  ok: boolean;
}

/** Options of {@link validateWebConfig}. */
export interface ValidateOptions {
  /** Run the bounded external probes (default true). */
  liveness?: boolean;
  /** The `codex` executable checked in strict codex mode (default `codex` on the PATH). */
  codexCommand?: string;
  /** Runs `browserCommand --version`; injectable for tests. */
  runVersion?: (command: string) => Promise<string>;
}

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

/**
 * Checks a loaded configuration: structurally (does the network policy let each configured backend
 * through, is the backend selection usable) and, with liveness, by sending one bounded JSON query to
 * the selected SearXNG or Ollama endpoint and checking the renderer's version when rendering is on.
 */
export async function validateWebConfig(
  config: WebConfig,
  options: ValidateOptions = {},
): Promise<ValidationReport> {
  const liveness = options.liveness ?? true;
  const checks: ValidationCheck[] = [];
  const policy = resolveNetworkPolicy(config);
  const { search } = config;

  checks.push({
    name: 'network.mode',
    status: policy.mode === 'none' ? 'warn' : 'ok',
    detail:
      policy.mode === 'none'
        ? 'network mode none blocks every web request: WebSearch and WebFetch will always fail'
        : `network mode ${policy.mode}${policy.mode === 'allowlist' ? ` (${config.network.allow.length} entries)` : ''}`,
  });

  // The same decision the providers make: an operator endpoint is admitted for itself under `all`,
  // and otherwise must pass the policy (a hosted origin is not loopback, so `localhost` refuses it).
  // A name whose verdict depends on DNS (`localhost` under mode localhost) counts as reachable.
  const endpointReachable = (url: string) => {
    if (policy.mode === 'none') return false;
    const target = new URL(url);
    const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
    const decision = checkHost(operatorEndpointPolicy(policy, target), { host: target.hostname, port });
    return decision === undefined || decision.allowed;
  };

  if (search.searxng !== undefined) {
    const reachable = endpointReachable(search.searxng.endpoint);
    checks.push({
      name: 'network.searxng',
      status: reachable ? 'ok' : 'fail',
      detail: reachable
        ? `SearXNG endpoint is allowed by the network policy (${search.searxng.source})`
        : 'the network policy blocks the SearXNG endpoint: list it in network.allow or use mode localhost',
    });
  } else if (search.backend === 'searxng') {
    checks.push({
      name: 'search.searxng',
      status: 'fail',
      detail: 'backend searxng needs tools.web.search.searxng.endpoint',
    });
  }
  if (search.ollama !== undefined || search.backend === 'ollama') {
    const baseUrl = search.ollama?.baseUrl ?? 'http://127.0.0.1:11434';
    const reachable = endpointReachable(baseUrl);
    checks.push({
      name: 'network.ollama',
      status: reachable ? 'ok' : 'fail',
      detail: reachable
        ? 'Ollama origin is allowed by the network policy'
        : 'the network policy blocks the Ollama origin: list it in network.allow',
    });
  }
  if (search.backend === 'auto' || search.backend === 'keyless') {
    const keyless =
      policy.mode === 'all' ||
      (policy.mode === 'allowlist' &&
        ['html.duckduckgo.com', 'www.startpage.com'].some(
          (host) => checkHost(policy, { host, port: 443 })?.allowed === true,
        ));
    checks.push({
      name: 'network.keyless',
      status: keyless ? 'ok' : search.backend === 'keyless' ? 'fail' : 'warn',
      detail: keyless
        ? 'the keyless engines (DuckDuckGo HTML, Startpage) are reachable under the network policy'
        : `network mode ${policy.mode} blocks the public keyless engines${search.backend === 'auto' ? '; auto mode falls back to nothing after the configured providers' : ''}`,
    });
  }
  // Codex search goes to chatgpt.com through the codex app-server; the policy must admit it.
  const codexDecision = checkHost(policy, { host: CODEX_SEARCH_HOST, port: 443 });
  const codexAdmitted = policy.mode !== 'none' && (codexDecision === undefined || codexDecision.allowed);
  if (search.backend === 'auto' || search.backend === 'codex') {
    if (!codexAdmitted) {
      checks.push({
        name: 'network.codex',
        status: search.backend === 'codex' ? 'fail' : 'warn',
        detail:
          policy.mode === 'allowlist'
            ? `network.allow does not include ${CODEX_SEARCH_HOST}, which Codex subscription search needs: add "${CODEX_SEARCH_HOST}"`
            : `network mode ${policy.mode} blocks ${CODEX_SEARCH_HOST}, which Codex subscription search needs`,
      });
    } else if (search.backend === 'auto') {
      checks.push({
        name: 'search.codex',
        status: 'ok',
        detail: 'Codex subscription search is checked lazily, only if a search reaches it',
      });
    }
  }
  // The readiness check starts codex app-server, which talks to chatgpt.com: never where the policy
  // refuses that destination (the network.codex line above already says why).
  if (search.backend === 'codex' && liveness) {
    checks.push(
      codexAdmitted
        ? await codexReadiness(config, options)
        : {
            name: 'liveness.codex',
            status: 'fail',
            detail: `codex app-server not started: the network policy refuses ${CODEX_SEARCH_HOST}, which it would contact`,
          },
    );
  }

  if (liveness && policy.mode !== 'none') {
    const probeTarget =
      search.searxng !== undefined
        ? 'searxng'
        : search.ollama !== undefined || search.backend === 'ollama'
          ? 'ollama'
          : undefined;
    if (probeTarget !== undefined) checks.push(await probe(config, probeTarget));
  }

  if (config.fetch.render !== 'never') {
    if (!liveness) {
      checks.push({
        name: 'fetch.browser',
        status: 'ok',
        detail: 'rendering enabled; browser check skipped (liveness off)',
      });
    } else {
      const command = config.fetch.browserCommand;
      let output: string | undefined;
      try {
        output = await (options.runVersion ?? defaultRunVersion)(command);
      } catch {
        output = undefined;
      }
      // Loaded here, not imported: the CLI bundle is CommonJS and reaches the extraction package only by import().
      const { judgeAgentBrowserVersion, MIN_AGENT_BROWSER_VERSION } = await import('@mono-agent/extract');
      const verdict = output === undefined ? undefined : judgeAgentBrowserVersion(command, output);
      checks.push({
        name: 'fetch.browser',
        status: verdict?.ok === true ? 'ok' : 'fail',
        detail:
          verdict === undefined
            ? `${command} --version did not run; install agent-browser ${MIN_AGENT_BROWSER_VERSION} or newer (an exact version such as 0.41.2) or set tools.web.fetch.browserCommand`
            : verdict.ok
              ? `${command} reports agent-browser ${verdict.version}`
              : verdict.reason,
      });
    }
  }
  return {
    section: 'Web search & fetch',
    liveness,
    checks,
    ok: checks.every((check) => check.status !== 'fail'),
  };
}

async function probe(config: WebConfig, target: 'searxng' | 'ollama'): Promise<ValidationCheck> {
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

async function codexReadiness(config: WebConfig, options: ValidateOptions): Promise<ValidationCheck> {
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
