import { execFile } from 'node:child_process';
import { WebToolError } from '@mono-agent/budget-policy';
import { createCoordinator } from '@mono-agent/host-coordination';
import { checkHost } from '@mono-agent/net';
import { operatorEndpointPolicy } from '@mono-agent/search-providers';
import type { WebConfig } from '../config/index.js';
import { resolveNetworkPolicy } from '../runtime/resolve-network-policy.js';
import { findCommand } from './find-command.js';

/** The host Codex subscription search reaches; an allowlist must include it. */
export const CODEX_SEARCH_HOST = 'chatgpt.com';
/** How long one liveness probe may take. */
export const LIVENESS_PROBE_TIMEOUT_MS = 10_000;
/** The hosts of the keyless engines, in the order auto mode tries them. */
const KEYLESS_ENGINE_HOSTS = { duckduckgo: 'html.duckduckgo.com', startpage: 'www.startpage.com' } as const;

/**
 * How one finding of `validate` came out: `ok` (checked and fine), `note` (not checked, or checked
 * only later, and the detail says which and why), `warn` (works, but probably not as meant) or `fail`.
 */
export type ValidationStatus = 'ok' | 'note' | 'warn' | 'fail';

/** One finding of `validate`. */
export interface ValidationCheck {
  /** A stable name, e.g. `network.searxng`. */
  name: string;
  /** What the check found; `note` when it did not check, saying why. */
  status: ValidationStatus;
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
  /** The `codex` executable search would start (default `codex` on the PATH). */
  codexCommand?: string;
  /** Runs `browserCommand --version`; injectable for tests. */
  runVersion?: (command: string) => Promise<string>;
  /** Finds an executable as a direct start would (default: the PATH); injectable for tests. */
  findCommand?: (command: string) => string | undefined;
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

/** One backend a search may use, and why it cannot when it cannot. */
interface ChainMember {
  name: string;
  blockedBy?: string;
}

/**
 * Checks a loaded configuration. Structurally, and without the network: does the network policy let
 * each configured backend through (and is any backend of the chain left), is the backend selection
 * usable, are the codex CLI and the renderer installed, and is the renderer agent-browser. With
 * liveness, also by sending one bounded JSON query to the selected SearXNG or Ollama endpoint and, in
 * strict codex mode, checking the Codex sign-in. What it does not check is reported as a `note`
 * saying so, never as `ok`.
 */
export async function validateWebConfig(
  config: WebConfig,
  options: ValidateOptions = {},
): Promise<ValidationReport> {
  const liveness = options.liveness ?? true;
  const find = options.findCommand ?? ((command: string) => findCommand(command));
  const checks: ValidationCheck[] = [];
  const policy = resolveNetworkPolicy(config);
  const { search } = config;

  checks.push({
    name: 'network.mode',
    status: policy.mode === 'none' ? 'warn' : 'ok',
    detail:
      policy.mode === 'none'
        ? 'network mode none blocks every web request: WebSearch and WebFetch will always fail'
        : policy.mode === 'localhost'
          ? 'network mode localhost: only loopback destinations; WebFetch refuses public pages and search reaches only a local SearXNG or Ollama'
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
  // The members of the chain the selected backend walks, each with what stops it, if anything.
  const chain: ChainMember[] = [];
  const inChain = (backend: string) => search.backend === 'auto' || search.backend === backend;

  let reachableEndpoint: 'searxng' | 'ollama' | undefined;
  if (search.searxng !== undefined) {
    const reachable = endpointReachable(search.searxng.endpoint);
    if (reachable) reachableEndpoint = 'searxng';
    checks.push({
      name: 'network.searxng',
      status: reachable ? 'ok' : 'fail',
      detail: reachable
        ? `SearXNG endpoint is allowed by the network policy (${search.searxng.source})`
        : `the network policy (mode ${policy.mode}) blocks the SearXNG endpoint: list it in network.allow or use mode localhost`,
    });
    if (inChain('searxng'))
      chain.push({
        name: 'searxng',
        ...(reachable ? {} : { blockedBy: 'the network policy blocks its endpoint' }),
      });
  } else if (search.backend === 'searxng') {
    checks.push({
      name: 'search.searxng',
      status: 'fail',
      detail: 'backend searxng needs tools.web.search.searxng.endpoint',
    });
    chain.push({ name: 'searxng', blockedBy: 'no endpoint is configured' });
  }
  if (search.ollama !== undefined || search.backend === 'ollama') {
    const baseUrl = search.ollama?.baseUrl ?? 'http://127.0.0.1:11434';
    const reachable = endpointReachable(baseUrl);
    if (reachable && reachableEndpoint === undefined) reachableEndpoint = 'ollama';
    checks.push({
      name: 'network.ollama',
      status: reachable ? 'ok' : 'fail',
      detail: reachable
        ? 'Ollama origin is allowed by the network policy'
        : `the network policy (mode ${policy.mode}) blocks the Ollama origin: list it in network.allow`,
    });
    if (inChain('ollama'))
      chain.push({
        name: 'ollama',
        ...(reachable ? {} : { blockedBy: 'the network policy blocks its origin' }),
      });
  }

  // Codex search goes to chatgpt.com through the codex app-server; the policy must admit it, and
  // the CLI must be installed (a local fact, checked without starting it).
  const codexDecision = checkHost(policy, { host: CODEX_SEARCH_HOST, port: 443 });
  const codexAdmitted = policy.mode !== 'none' && (codexDecision === undefined || codexDecision.allowed);
  let codexPath: string | undefined;
  if (inChain('codex')) {
    const command = options.codexCommand ?? 'codex';
    if (!codexAdmitted) {
      checks.push({
        name: 'network.codex',
        status: search.backend === 'codex' ? 'fail' : 'warn',
        detail:
          policy.mode === 'allowlist'
            ? `network.allow does not include ${CODEX_SEARCH_HOST}, which Codex subscription search needs: add "${CODEX_SEARCH_HOST}"`
            : `network mode ${policy.mode} blocks ${CODEX_SEARCH_HOST}, which Codex subscription search needs`,
      });
      chain.push({ name: 'codex', blockedBy: `the network policy refuses ${CODEX_SEARCH_HOST}` });
    } else {
      codexPath = find(command);
      const strict = search.backend === 'codex';
      checks.push({
        name: 'search.codex',
        status: codexPath === undefined ? (strict ? 'fail' : 'warn') : strict ? 'ok' : 'note',
        detail:
          codexPath === undefined
            ? `the codex CLI (${command}) is not on the PATH${strict ? '' : ', so auto mode will skip Codex subscription search'}: install it (npm install -g @openai/codex) or choose another backend`
            : strict
              ? `the codex CLI is installed at ${codexPath}`
              : `the codex CLI is installed at ${codexPath}; its ChatGPT sign-in, web search and model are not checked now: auto mode checks them only when a search reaches Codex`,
      });
      chain.push({
        name: 'codex',
        ...(codexPath === undefined ? { blockedBy: `the codex CLI is not on the PATH` } : {}),
      });
    }
  }

  if (inChain('keyless')) {
    const admitted = (host: string) =>
      policy.mode === 'all' ||
      (policy.mode === 'allowlist' && checkHost(policy, { host, port: 443 })?.allowed === true);
    const engines = Object.entries(KEYLESS_ENGINE_HOSTS).map(([name, host]) => ({
      name,
      host,
      admitted: admitted(host),
    }));
    const open = engines.filter((engine) => engine.admitted);
    for (const engine of engines)
      chain.push({
        name: engine.name,
        ...(engine.admitted ? {} : { blockedBy: `the network policy blocks ${engine.host}` }),
      });
    checks.push(
      open.length > 0
        ? {
            // Allowed is all validation can know: the engines are public and throttle by source
            // address, so they are found out only when a search reaches them.
            name: 'network.keyless',
            status: 'note',
            detail: `the network policy allows ${open.map((engine) => engine.host).join(' and ')}; the keyless engines are not probed: a search finds out whether they answer`,
          }
        : {
            name: 'network.keyless',
            status: search.backend === 'keyless' ? 'fail' : 'warn',
            detail: `network mode ${policy.mode} blocks the public keyless engines (${engines.map((engine) => engine.host).join(', ')})${search.backend === 'auto' ? '; auto mode has nothing to fall back on after the configured providers' : ''}`,
          },
    );
  }

  // Whether any search can succeed at all: a chain whose every member is blocked fails every call.
  if (chain.length > 0) {
    const usable = chain.filter((member) => member.blockedBy === undefined);
    const blocked = chain
      .filter((member) => member.blockedBy !== undefined)
      .map((member) => `${member.name} (${member.blockedBy})`);
    checks.push({
      name: 'search.backends',
      status: usable.length === 0 ? 'fail' : blocked.length > 0 ? 'note' : 'ok',
      detail:
        usable.length === 0
          ? `every search would fail: ${search.backend === 'auto' ? 'no backend of the auto chain is usable' : `backend ${search.backend} is not usable`}: ${blocked.join('; ')}`
          : blocked.length > 0
            ? `searches can reach ${usable.map((member) => member.name).join(', ')} only; unusable: ${blocked.join('; ')}`
            : `the network policy allows every backend ${search.backend === 'auto' ? 'of the auto chain' : `of backend ${search.backend}`} (${usable.map((member) => member.name).join(', ')})`,
    });
  }

  // The readiness check starts codex app-server, which talks to chatgpt.com: never where the policy
  // refuses that destination, nor without the CLI (the lines above already say why).
  if (search.backend === 'codex') {
    if (!codexAdmitted || codexPath === undefined) {
      checks.push({
        name: 'liveness.codex',
        status: liveness ? 'fail' : 'note',
        detail: !codexAdmitted
          ? `codex app-server not started: the network policy refuses ${CODEX_SEARCH_HOST}, which it would contact`
          : 'codex app-server not started: the codex CLI is not installed',
      });
    } else if (liveness) {
      checks.push(await codexReadiness(config, options));
    } else {
      checks.push({
        name: 'liveness.codex',
        status: 'note',
        detail: 'the ChatGPT sign-in, web search and model of Codex are not checked (liveness off)',
      });
    }
  }

  const probeTarget =
    search.searxng !== undefined
      ? 'searxng'
      : search.ollama !== undefined || search.backend === 'ollama'
        ? 'ollama'
        : undefined;
  if (probeTarget !== undefined) {
    if (!liveness) {
      checks.push({
        name: `liveness.${probeTarget}`,
        status: 'note',
        detail: `${probeTarget} is not probed (liveness off): whether it answers is not checked`,
      });
    } else if (reachableEndpoint !== probeTarget) {
      checks.push({
        name: `liveness.${probeTarget}`,
        status: 'note',
        detail: `${probeTarget} is not probed: the network policy blocks it (see network.${probeTarget})`,
      });
    } else {
      checks.push(await probe(config, probeTarget));
    }
  }

  if (config.fetch.render !== 'never') checks.push(await browserCheck(config, options, find));
  return {
    section: 'Web search & fetch',
    liveness,
    checks,
    ok: checks.every((check) => check.status !== 'fail'),
  };
}

// The renderer is a local program: whether it is installed and is agent-browser are local facts,
// checked with or without liveness (`--version` runs with no update check, so no network).
async function browserCheck(
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
