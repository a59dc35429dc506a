import type { WebToolError } from '@mono-agent/budget-policy';
import type { NetworkPolicy } from '@mono-agent/net';

/** Why the network policy refused a destination, and which setting would admit it. */
export interface PolicyDenial {
  /** net's rule: `none`, `localhost`, `allowlist`, `special-address`, `invalid-host`, `invalid-address`. */
  rule: string;
  /** The refused host and port (the URL's, or a redirect hop's). */
  host: string;
  /** The refused port. */
  port: number;
  /** The address the host resolved to, when the refusal came after DNS. */
  address?: string;
  /** For `special-address`: the address range (`loopback`, `private`, `linkLocal`...). */
  range?: string;
  /** One plain sentence: what was refused and why. */
  reason: string;
  /** The settings that would admit the destination, as `key: value` an operator can write; empty when none can. */
  allowWith: string[];
}

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private-network address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a private (unique local) IPv6 address',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'the unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
};

function rangeWords(range: string | undefined): string {
  if (range === undefined) return 'a non-public address';
  return RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
}

/** The `network.allow` entry naming exactly this destination. */
function allowEntry(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Explains a `policy_denied` failure from net's details (rule, host, port, address, range) under the
 * policy in force, so the model and the operator read what was refused and which of `network.mode`
 * and `network.allow` would admit it. `undefined` when the error carries no policy details.
 */
export function explainPolicyDenial(error: WebToolError, policy: NetworkPolicy): PolicyDenial | undefined {
  const { rule, host, port, address, range } = error.details as Record<string, unknown>;
  if (typeof rule !== 'string' || typeof host !== 'string' || typeof port !== 'number') return undefined;
  const where = `${host}:${port}${typeof address === 'string' && address !== host ? ` (${address})` : ''}`;
  const entry = `network.allow: ["${allowEntry(host, port)}"]`;
  const base = {
    rule,
    host,
    port,
    ...(typeof address === 'string' ? { address } : {}),
    ...(typeof range === 'string' ? { range } : {}),
  };
  switch (rule) {
    case 'none':
      return {
        ...base,
        reason: `network.mode is none, which blocks every web request, so ${where} was not contacted`,
        allowWith: ['network.mode: "all" (public destinations)', `network.mode: "allowlist" with ${entry}`],
      };
    case 'localhost':
      return {
        ...base,
        reason: `network.mode is localhost, which admits only loopback destinations, so ${where} was refused`,
        allowWith: [entry, 'network.mode: "all" (public destinations)'],
      };
    case 'allowlist':
      return {
        ...base,
        reason: `${where} is not in network.allow (network.mode is allowlist)`,
        allowWith: [`add "${allowEntry(host, port)}" (or "${host}") to network.allow`],
      };
    case 'special-address':
      return {
        ...base,
        reason: `${where} is ${rangeWords(typeof range === 'string' ? range : undefined)}; network.mode ${policy.mode} admits only public addresses`,
        allowWith: [entry],
      };
    case 'invalid-host':
    case 'invalid-address':
      return { ...base, reason: `${where} is not a host name or address that can be checked`, allowWith: [] };
    default:
      return { ...base, reason: `${where} was refused by the network policy (rule ${rule})`, allowWith: [] };
  }
}
