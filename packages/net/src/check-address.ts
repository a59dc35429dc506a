import { classifyAddress } from './classify-address.js';
import { ipaddr } from './commonjs.js';
import { isIP } from './ip-literal.js';
import { type CompiledPolicy, compilePolicy, type NetworkPolicy, normaliseHost } from './network-policy.js';

/**
 * A policy decision. `rule` says which rule decided: `allow:<entry>`, `public` or `localhost` when
 * allowed; `none`, `localhost`, `allowlist`, `special-address`, `invalid-host` or `invalid-address`
 * when denied.
 */
export type PolicyDecision =
  | {
      /** The destination may be contacted. */
      readonly allowed: true;
      /** The rule that admitted it. */
      readonly rule: string;
    }
  | {
      /** The destination must not be contacted. */
      readonly allowed: false;
      /** The rule that refused it. */
      readonly rule: string;
      /** For `special-address`: the range the address falls in (`loopback`, `private`, `linkLocal`...). */
      readonly range?: string;
    };

/** A destination before DNS: the URL's host and port. */
export interface HostTarget {
  /** The host name or IP literal (IPv6 with or without brackets). */
  readonly host: string;
  /** The TCP port. */
  readonly port: number;
}

/** A destination after DNS: the host name, the address it resolved to, and the port. */
export interface AddressTarget extends HostTarget {
  /** The IP address a connection would go to. */
  readonly address: string;
}

/**
 * The decision that can be made before any DNS lookup, or `undefined` when it depends on the
 * addresses the host resolves to (then call {@link checkAddress} for every answer). IP literals,
 * `none`, host entries, and names the mode can never admit are all decided here, so those requests
 * make no lookup and no connection.
 */
export function checkHost(policy: NetworkPolicy, target: HostTarget): PolicyDecision | undefined {
  const compiled = compilePolicy(policy);
  if (compiled.mode === 'none') return { allowed: false, rule: 'none' };
  const host = normaliseHost(target.host);
  if (host === undefined) return { allowed: false, rule: 'invalid-host' };
  const entry = matchHostEntry(compiled, host, target.port);
  if (entry !== undefined) return { allowed: true, rule: `allow:${entry}` };
  if (isIP(host) !== 0) return decideAddress(compiled, host, host, target.port);
  if (compiled.networks.length > 0) return undefined;
  if (compiled.mode === 'localhost')
    return host === 'localhost' ? undefined : { allowed: false, rule: 'localhost' };
  if (compiled.mode === 'allowlist') return { allowed: false, rule: 'allowlist' };
  return undefined;
}

/**
 * The full decision for connecting to `address` on behalf of `host`. Other packages use it to tell
 * whether a configured endpoint is reachable under a policy.
 */
export function checkAddress(policy: NetworkPolicy, target: AddressTarget): PolicyDecision {
  const compiled = compilePolicy(policy);
  if (compiled.mode === 'none') return { allowed: false, rule: 'none' };
  const host = normaliseHost(target.host);
  if (host === undefined) return { allowed: false, rule: 'invalid-host' };
  const entry = matchHostEntry(compiled, host, target.port);
  if (entry !== undefined) return { allowed: true, rule: `allow:${entry}` };
  return decideAddress(compiled, host, target.address, target.port);
}

function decideAddress(
  compiled: CompiledPolicy,
  host: string,
  address: string,
  port: number,
): PolicyDecision {
  const classified = classifyAddress(address);
  if (classified === undefined) return { allowed: false, rule: 'invalid-address' };
  const parsed = ipaddr().parse(classified.address);
  for (const network of compiled.networks) {
    if (network.port !== undefined && network.port !== port) continue;
    if (network.network.kind() !== parsed.kind()) continue;
    if (parsed.match(network.network, network.prefix))
      return { allowed: true, rule: `allow:${network.text}` };
  }
  switch (compiled.mode) {
    case 'localhost': {
      // The mode names loopback addresses and the name localhost, not other names that happen to
      // resolve to loopback.
      const named = host === 'localhost' || isIP(host) !== 0;
      return named && classified.loopback
        ? { allowed: true, rule: 'localhost' }
        : { allowed: false, rule: 'localhost' };
    }
    case 'allowlist':
      return { allowed: false, rule: 'allowlist' };
    case 'all':
      return classified.public
        ? { allowed: true, rule: 'public' }
        : { allowed: false, rule: 'special-address', range: classified.range };
    default:
      return { allowed: false, rule: 'none' };
  }
}

function matchHostEntry(compiled: CompiledPolicy, host: string, port: number): string | undefined {
  for (const entry of compiled.hosts) {
    if (entry.host === host && (entry.port === undefined || entry.port === port)) return entry.text;
  }
  return undefined;
}
