import { checkHost, type NetworkPolicy } from '@mono-agent/net';
import { operatorEndpointPolicy } from '@mono-agent/search-providers';
import type { WebConfig } from '../config/index.js';
import { resolveNetworkPolicy } from '../runtime/resolve-network-policy.js';
import { findCommand } from './find-command.js';
import { browserCheck, codexReadiness, probe } from './live-checks.js';
import type { ValidateOptions, ValidationCheck, ValidationReport } from './validation-report.js';

export { LIVENESS_PROBE_TIMEOUT_MS } from './live-checks.js';
export type {
  ValidateOptions,
  ValidationCheck,
  ValidationReport,
  ValidationStatus,
} from './validation-report.js';

/** The host Codex subscription search reaches; an allowlist must include it. */
export const CODEX_SEARCH_HOST = 'chatgpt.com';
/** The hosts of the keyless engines, in the order auto mode tries them. */
const KEYLESS_ENGINE_HOSTS = { duckduckgo: 'html.duckduckgo.com', startpage: 'www.startpage.com' } as const;

/** One backend a search may use, and why it cannot when it cannot. */
interface ChainMember {
  name: string;
  blockedBy?: string;
}

/** What one group of checks found: its entries, and the members it adds to the search chain. */
interface CheckGroup {
  checks: ValidationCheck[];
  chain: ChainMember[];
}

/** An operator endpoint liveness may probe, and whether the network policy lets the probe through. */
interface ProbeCandidate {
  target: 'searxng' | 'ollama';
  reachable: boolean;
}

/** A group of checks about an operator endpoint, which liveness may probe. */
interface EndpointGroup extends CheckGroup {
  probe?: ProbeCandidate;
}

/** The codex group of checks, and where the codex CLI was found, if it was looked for and found. */
interface CodexGroup extends CheckGroup {
  path: string | undefined;
}

/** What every group of checks reads. */
interface ValidationContext {
  config: WebConfig;
  search: WebConfig['search'];
  policy: NetworkPolicy;
  liveness: boolean;
  options: ValidateOptions;
  find: (command: string) => string | undefined;
}

const NO_CHECKS: CheckGroup = { checks: [], chain: [] };

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
  const context: ValidationContext = {
    config,
    search: config.search,
    policy: resolveNetworkPolicy(config),
    liveness: options.liveness ?? true,
    options,
    find: options.findCommand ?? ((command: string) => findCommand(command)),
  };
  const codexAdmitted = admitsCodex(context.policy);
  const searxng = searxngChecks(context);
  const ollama = ollamaChecks(context);
  const codex = codexChecks(context, codexAdmitted);
  const keyless = keylessChecks(context);
  // The members of the chain the selected backend walks, each with what stops it, if anything.
  const groups = [searxng, ollama, codex, keyless];
  const chain = groups.flatMap((group) => group.chain);

  const checks = [networkModeCheck(context), ...groups.flatMap((group) => group.checks)];
  checks.push(...backendsChecks(context.search, chain));
  checks.push(...(await codexLivenessChecks(context, codexAdmitted, codex.path)));
  // A configured SearXNG is the one probed; Ollama only without it.
  checks.push(...(await endpointLivenessChecks(context, searxng.probe ?? ollama.probe)));
  if (config.fetch.render !== 'never') checks.push(await browserCheck(config, options, context.find));
  return {
    section: 'Web search & fetch',
    liveness: context.liveness,
    checks,
    ok: checks.every((check) => check.status !== 'fail'),
  };
}

function networkModeCheck({ config, policy }: ValidationContext): ValidationCheck {
  const name = 'network.mode';
  if (policy.mode === 'none') {
    return {
      name,
      status: 'warn',
      detail: 'network mode none blocks every web request: WebSearch and WebFetch will always fail',
    };
  }
  if (policy.mode === 'localhost') {
    return {
      name,
      status: 'ok',
      detail:
        'network mode localhost: only loopback destinations; WebFetch refuses public pages and search reaches only a local SearXNG or Ollama',
    };
  }
  const entries = policy.mode === 'allowlist' ? ` (${config.network.allow.length} entries)` : '';
  return { name, status: 'ok', detail: `network mode ${policy.mode}${entries}` };
}

/** Whether the selected backend walks `backend`: auto walks every one. */
function inChain(search: WebConfig['search'], backend: string): boolean {
  return search.backend === 'auto' || search.backend === backend;
}

function member(name: string, blockedBy: string | undefined): ChainMember {
  return blockedBy === undefined ? { name } : { name, blockedBy };
}

// The same decision the providers make: an operator endpoint is admitted for itself under `all`,
// and otherwise must pass the policy (a hosted origin is not loopback, so `localhost` refuses it).
// A name whose verdict depends on DNS (`localhost` under mode localhost) counts as reachable.
function endpointReachable(policy: NetworkPolicy, url: string): boolean {
  if (policy.mode === 'none') return false;
  const target = new URL(url);
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const decision = checkHost(operatorEndpointPolicy(policy, target), { host: target.hostname, port });
  return decision === undefined || decision.allowed;
}

function searxngChecks({ search, policy }: ValidationContext): EndpointGroup {
  if (search.searxng === undefined) {
    if (search.backend !== 'searxng') return NO_CHECKS;
    return {
      checks: [
        {
          name: 'search.searxng',
          status: 'fail',
          detail: 'backend searxng needs tools.web.search.searxng.endpoint',
        },
      ],
      chain: [member('searxng', 'no endpoint is configured')],
    };
  }
  const reachable = endpointReachable(policy, search.searxng.endpoint);
  return {
    checks: [
      {
        name: 'network.searxng',
        status: reachable ? 'ok' : 'fail',
        detail: reachable
          ? `SearXNG endpoint is allowed by the network policy (${search.searxng.source})`
          : `the network policy (mode ${policy.mode}) blocks the SearXNG endpoint: list it in network.allow or use mode localhost`,
      },
    ],
    chain: inChain(search, 'searxng')
      ? [member('searxng', reachable ? undefined : 'the network policy blocks its endpoint')]
      : [],
    probe: { target: 'searxng', reachable },
  };
}

function ollamaChecks({ search, policy }: ValidationContext): EndpointGroup {
  if (search.ollama === undefined && search.backend !== 'ollama') return NO_CHECKS;
  const reachable = endpointReachable(policy, search.ollama?.baseUrl ?? 'http://127.0.0.1:11434');
  return {
    checks: [
      {
        name: 'network.ollama',
        status: reachable ? 'ok' : 'fail',
        detail: reachable
          ? 'Ollama origin is allowed by the network policy'
          : `the network policy (mode ${policy.mode}) blocks the Ollama origin: list it in network.allow`,
      },
    ],
    chain: inChain(search, 'ollama')
      ? [member('ollama', reachable ? undefined : 'the network policy blocks its origin')]
      : [],
    probe: { target: 'ollama', reachable },
  };
}

// Codex search goes to chatgpt.com through the codex app-server; the policy must admit it, and
// the CLI must be installed (a local fact, checked without starting it).
function admitsCodex(policy: NetworkPolicy): boolean {
  if (policy.mode === 'none') return false;
  const decision = checkHost(policy, { host: CODEX_SEARCH_HOST, port: 443 });
  return decision === undefined || decision.allowed;
}

function codexChecks(context: ValidationContext, admitted: boolean): CodexGroup {
  const { search, policy } = context;
  if (!inChain(search, 'codex')) return { ...NO_CHECKS, path: undefined };
  if (!admitted) {
    return {
      checks: [
        {
          name: 'network.codex',
          status: search.backend === 'codex' ? 'fail' : 'warn',
          detail:
            policy.mode === 'allowlist'
              ? `network.allow does not include ${CODEX_SEARCH_HOST}, which Codex subscription search needs: add "${CODEX_SEARCH_HOST}"`
              : `network mode ${policy.mode} blocks ${CODEX_SEARCH_HOST}, which Codex subscription search needs`,
        },
      ],
      chain: [member('codex', `the network policy refuses ${CODEX_SEARCH_HOST}`)],
      path: undefined,
    };
  }
  const command = context.options.codexCommand ?? 'codex';
  const path = context.find(command);
  return {
    checks: [codexInstallCheck(command, path, search.backend === 'codex')],
    chain: [member('codex', path === undefined ? 'the codex CLI is not on the PATH' : undefined)],
    path,
  };
}

// Strict codex mode needs the CLI; auto mode only skips Codex without it, and checks the rest of
// what Codex needs only when a search gets that far.
function codexInstallCheck(command: string, path: string | undefined, strict: boolean): ValidationCheck {
  const name = 'search.codex';
  if (path === undefined) {
    return {
      name,
      status: strict ? 'fail' : 'warn',
      detail: `the codex CLI (${command}) is not on the PATH${strict ? '' : ', so auto mode will skip Codex subscription search'}: install it (npm install -g @openai/codex) or choose another backend`,
    };
  }
  if (strict) return { name, status: 'ok', detail: `the codex CLI is installed at ${path}` };
  return {
    name,
    status: 'note',
    detail: `the codex CLI is installed at ${path}; its ChatGPT sign-in, web search and model are not checked now: auto mode checks them only when a search reaches Codex`,
  };
}

/** Whether the policy lets a search reach the public keyless engine at `host`. */
function keylessEngineAdmitted(policy: NetworkPolicy, host: string): boolean {
  return (
    policy.mode === 'all' ||
    (policy.mode === 'allowlist' && checkHost(policy, { host, port: 443 })?.allowed === true)
  );
}

function keylessChecks({ search, policy }: ValidationContext): CheckGroup {
  if (!inChain(search, 'keyless')) return NO_CHECKS;
  const engines = Object.entries(KEYLESS_ENGINE_HOSTS).map(([name, host]) => ({
    name,
    host,
    admitted: keylessEngineAdmitted(policy, host),
  }));
  const chain = engines.map((engine) =>
    member(engine.name, engine.admitted ? undefined : `the network policy blocks ${engine.host}`),
  );
  const open = engines.filter((engine) => engine.admitted);
  if (open.length > 0) {
    // Allowed is all validation can know: the engines are public and throttle by source
    // address, so they are found out only when a search reaches them.
    return {
      checks: [
        {
          name: 'network.keyless',
          status: 'note',
          detail: `the network policy allows ${open.map((engine) => engine.host).join(' and ')}; the keyless engines are not probed: a search finds out whether they answer`,
        },
      ],
      chain,
    };
  }
  const fallback =
    search.backend === 'auto' ? '; auto mode has nothing to fall back on after the configured providers' : '';
  return {
    checks: [
      {
        name: 'network.keyless',
        status: search.backend === 'keyless' ? 'fail' : 'warn',
        detail: `network mode ${policy.mode} blocks the public keyless engines (${engines.map((engine) => engine.host).join(', ')})${fallback}`,
      },
    ],
    chain,
  };
}

// Whether any search can succeed at all: a chain whose every member is blocked fails every call.
function backendsChecks(search: WebConfig['search'], chain: ChainMember[]): ValidationCheck[] {
  if (chain.length === 0) return [];
  const name = 'search.backends';
  const usable = chain.filter((entry) => entry.blockedBy === undefined);
  const blocked = chain
    .filter((entry) => entry.blockedBy !== undefined)
    .map((entry) => `${entry.name} (${entry.blockedBy})`);
  if (usable.length === 0) {
    const which =
      search.backend === 'auto'
        ? 'no backend of the auto chain is usable'
        : `backend ${search.backend} is not usable`;
    return [{ name, status: 'fail', detail: `every search would fail: ${which}: ${blocked.join('; ')}` }];
  }
  const reached = usable.map((entry) => entry.name).join(', ');
  if (blocked.length > 0) {
    return [
      { name, status: 'note', detail: `searches can reach ${reached} only; unusable: ${blocked.join('; ')}` },
    ];
  }
  const which = search.backend === 'auto' ? 'of the auto chain' : `of backend ${search.backend}`;
  return [{ name, status: 'ok', detail: `the network policy allows every backend ${which} (${reached})` }];
}

// The readiness check starts codex app-server, which talks to chatgpt.com: never where the policy
// refuses that destination, nor without the CLI (the lines above already say why).
async function codexLivenessChecks(
  context: ValidationContext,
  admitted: boolean,
  path: string | undefined,
): Promise<ValidationCheck[]> {
  if (context.search.backend !== 'codex') return [];
  const name = 'liveness.codex';
  const unchecked = context.liveness ? 'fail' : 'note';
  if (!admitted) {
    return [
      {
        name,
        status: unchecked,
        detail: `codex app-server not started: the network policy refuses ${CODEX_SEARCH_HOST}, which it would contact`,
      },
    ];
  }
  if (path === undefined) {
    return [
      { name, status: unchecked, detail: 'codex app-server not started: the codex CLI is not installed' },
    ];
  }
  if (!context.liveness) {
    return [
      {
        name,
        status: 'note',
        detail: 'the ChatGPT sign-in, web search and model of Codex are not checked (liveness off)',
      },
    ];
  }
  return [await codexReadiness(context.config, context.options)];
}

async function endpointLivenessChecks(
  context: ValidationContext,
  candidate: ProbeCandidate | undefined,
): Promise<ValidationCheck[]> {
  if (candidate === undefined) return [];
  const { target } = candidate;
  if (!context.liveness) {
    return [
      {
        name: `liveness.${target}`,
        status: 'note',
        detail: `${target} is not probed (liveness off): whether it answers is not checked`,
      },
    ];
  }
  if (!candidate.reachable) {
    return [
      {
        name: `liveness.${target}`,
        status: 'note',
        detail: `${target} is not probed: the network policy blocks it (see network.${target})`,
      },
    ];
  }
  return [await probe(context.config, target)];
}
