import { WebToolError } from '@mono-agent/budget-policy';
import type { buildConnector } from 'undici';
import { checkAddress, checkHost, type PolicyDecision } from './check-address.js';
import { isIP } from './ip-literal.js';
import { loadUndici } from './load-undici.js';
import type { NetworkPolicy } from './network-policy.js';

/** The longest a TCP (and TLS) connect may take before it counts as a transport failure. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** One DNS answer. */
export interface LookupAnswer {
  /** The IP address. */
  readonly address: string;
  /** 4 or 6. */
  readonly family: number;
}

/** Resolves a host name to every address, in resolver order. Injectable so tests can fake DNS. */
export type LookupFunction = (hostname: string) => Promise<readonly LookupAnswer[]>;

/** The system resolver: every answer, in the order the resolver gave them. */
export const systemLookup: LookupFunction = (hostname) =>
  process.getBuiltinModule('node:dns/promises').lookup(hostname, { all: true, verbatim: true });

/** Options of {@link createGuardedConnector}. */
export interface GuardedConnectorOptions {
  /** The policy every connection must pass. */
  readonly policy: NetworkPolicy;
  /** The resolver; defaults to {@link systemLookup}. */
  readonly lookup?: LookupFunction;
  /** TLS options passed through to undici's connector (e.g. a test CA). */
  readonly tls?: { readonly ca?: string | Buffer | readonly (string | Buffer)[] };
}

/**
 * An undici connector that checks the policy on the address it is about to connect to: IP literals
 * directly, names after resolving every answer (one denied answer refuses the name), and then
 * connects to exactly the checked address. The URL's host name stays the TLS server name, so SNI and
 * certificate checks still use it. Every new socket, including each redirect hop's, passes here.
 */
export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const lookup = options.lookup ?? systemLookup;
  let connect: buildConnector.connector | undefined;
  const baseConnector = async (): Promise<buildConnector.connector> => {
    const { buildConnector } = await loadUndici();
    connect ??= buildConnector({
      timeout: CONNECT_TIMEOUT_MS,
      ...(options.tls?.ca === undefined
        ? {}
        : { ca: options.tls.ca as string | Buffer | (string | Buffer)[] }),
    });
    return connect;
  };
  return (connectOptions, callback) => {
    const port = Number(connectOptions.port) || (connectOptions.protocol === 'https:' ? 443 : 80);
    Promise.all([
      resolveCheckedAddress(options.policy, lookup, connectOptions.hostname, port),
      baseConnector(),
    ]).then(
      ([address, base]) => base({ ...connectOptions, hostname: address }, callback),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  };
}

/**
 * The address to connect to for `host:port` under `policy`, after checking it; throws
 * `policy_denied` (details: rule, host, address, port) or the resolver's error.
 */
export async function resolveCheckedAddress(
  policy: NetworkPolicy,
  lookup: LookupFunction,
  host: string,
  port: number,
): Promise<string> {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  const early = checkHost(policy, { host: bare, port });
  if (early !== undefined && !early.allowed) throw policyDenied(early, bare, undefined, port);
  if (isIP(bare) !== 0) return bare;
  const answers = await lookup(bare);
  const first = answers[0];
  if (first === undefined) {
    throw Object.assign(new Error(`no address found for ${bare}`), { code: 'ENOTFOUND' });
  }
  // net.connect would resolve a non-address string again, behind the check's back.
  if (isIP(first.address) === 0) {
    throw policyDenied({ allowed: false, rule: 'invalid-address' }, bare, first.address, port);
  }
  if (early === undefined) {
    for (const answer of answers) {
      const decision = checkAddress(policy, { host: bare, address: answer.address, port });
      if (!decision.allowed) throw policyDenied(decision, bare, answer.address, port);
    }
  }
  return first.address;
}

/** The structured denial for a refused destination. */
export function policyDenied(
  decision: PolicyDecision,
  host: string,
  address: string | undefined,
  port: number,
): WebToolError {
  const range = !decision.allowed && decision.range !== undefined ? ` (${decision.range})` : '';
  return new WebToolError({
    code: 'policy_denied',
    message: `network policy denied ${host}:${port} by rule "${decision.rule}"${range}`,
    details: {
      rule: decision.rule,
      host,
      port,
      ...(address === undefined ? {} : { address }),
      ...(!decision.allowed && decision.range !== undefined ? { range: decision.range } : {}),
    },
  });
}
