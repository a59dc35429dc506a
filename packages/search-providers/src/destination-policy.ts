import { WebToolError } from '@mono-agent/budget-policy';
import { checkHost, type NetworkPolicy } from '@mono-agent/net';
import type { ProviderId } from './search-provider.js';

/** Where Codex subscription search goes: the app-server talks to ChatGPT, so the policy must admit it. */
export const CODEX_DESTINATION = { host: 'chatgpt.com', port: 443 } as const;

function defaultPort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * Asks the network policy about a destination before a provider spends budget or starts a process.
 * Whatever the policy can refuse without a DNS lookup (mode `none`, public hosts under `localhost`,
 * hosts missing from an allowlist) is refused here as `policy_denied`, naming the destination, the
 * rule and what to change. A destination that depends on DNS is left to the transport's own check.
 */
export function refuseUnlessPolicyAllows(
  policy: NetworkPolicy,
  destination: URL | { host: string; port: number },
  backend: ProviderId,
): void {
  const target =
    destination instanceof URL ? { host: destination.hostname, port: defaultPort(destination) } : destination;
  const decision = checkHost(policy, target);
  if (decision === undefined || decision.allowed) return;
  const name = `${target.host.replace(/^\[(.*)\]$/, '$1')}:${target.port}`;
  throw new WebToolError({
    code: 'policy_denied',
    message: `${backend} was not contacted: network policy "${policy.mode}" refuses ${name} (rule "${decision.rule}"); ${remedy(policy, target.host)}`,
    details: { backend, rule: decision.rule, host: target.host, port: target.port },
  });
}

function remedy(policy: NetworkPolicy, host: string): string {
  switch (policy.mode) {
    case 'none':
      return 'network mode none blocks every web request';
    case 'localhost':
      return `network mode localhost admits only loopback destinations; add ${host} to network.allow or use an allowlist to reach it`;
    default:
      return `add ${host} to network.allow to reach it`;
  }
}

/**
 * Restates a refusal the transport made once DNS had answered (net's `network policy denied
 * host:port by rule …`) the way the checks above word theirs: which backend was not contacted, the
 * address the name resolved to, and the `network.allow` entry that would admit it. Details are kept,
 * with the backend added; an error without net's details is returned as it is.
 */
export function explainResolvedDenial(backend: ProviderId, error: WebToolError): WebToolError {
  const details = (error.details ?? {}) as Record<string, unknown>;
  const { host, port, address, rule, range } = details;
  if (typeof host !== 'string' || typeof port !== 'number') return error;
  const resolved = typeof address === 'string' && address !== host ? ` resolved to ${address}` : '';
  const kind = typeof range === 'string' ? ` (a ${range} address)` : '';
  const entry = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  return new WebToolError({
    code: 'policy_denied',
    message: `${backend} was not contacted: ${host}:${port}${resolved}${kind}, which the network policy refuses (rule "${String(rule)}"); add ${entry} to network.allow to reach it`,
    details: { ...details, backend },
    cause: error,
  });
}
