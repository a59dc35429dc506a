import { WebToolError } from '@mono-agent/budget-policy';
import type Ipaddr from 'ipaddr.js';
import { canonicalIPv6 } from './classify-address.js';
import { ipaddr } from './commonjs.js';
import { isIP } from './ip-literal.js';

/** The network modes, from most to least restrictive. */
export const NETWORK_MODES = ['none', 'localhost', 'allowlist', 'all'] as const;

/** One network mode. */
export type NetworkMode = (typeof NETWORK_MODES)[number];

/**
 * Which destinations a request may reach. `none` blocks everything; `localhost` admits loopback only;
 * `allowlist` admits only the `allow` entries; `all` admits the public internet. In every mode but
 * `none`, `allow` entries (host, host:port, IP, CIDR) also admit what they name, private or not.
 */
export type NetworkPolicy = {
  /** The mode. */
  readonly mode: NetworkMode;
  /** Destinations admitted in addition to what the mode admits. */
  readonly allow?: readonly string[];
};

/** The most `allow` entries a policy may list. */
export const MAX_ALLOW_ENTRIES = 256;

/** One parsed `allow` entry. */
export type AllowEntry =
  | {
      /** A host name entry. */
      readonly kind: 'host';
      /** The normalised entry text, as it appears in decisions. */
      readonly text: string;
      /** The lower-case ASCII host name. */
      readonly host: string;
      /** The only port admitted, or every port when absent. */
      readonly port?: number;
    }
  | {
      /** An IP address or CIDR entry. */
      readonly kind: 'network';
      /** The normalised entry text, as it appears in decisions. */
      readonly text: string;
      /** The network address. */
      readonly network: Ipaddr.IPv4 | Ipaddr.IPv6;
      /** The prefix length (32 or 128 for a single address). */
      readonly prefix: number;
      /** The only port admitted, or every port when absent. */
      readonly port?: number;
    };

/** A policy with its entries parsed, ready for decisions. */
export interface CompiledPolicy {
  /** The mode. */
  readonly mode: NetworkMode;
  /** Host name entries. */
  readonly hosts: readonly Extract<AllowEntry, { kind: 'host' }>[];
  /** IP address and CIDR entries. */
  readonly networks: readonly Extract<AllowEntry, { kind: 'network' }>[];
}

const compiled = new WeakMap<NetworkPolicy, CompiledPolicy>();

/**
 * Validates untrusted input (config, JSON) as a network policy and returns it frozen, with entries
 * normalised (lower-case, punycode, canonical addresses). Throws `validation_error` naming the entry.
 */
export function parseNetworkPolicy(input: unknown): NetworkPolicy {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalid('a network policy must be an object with a mode', {});
  }
  const record = input as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key !== 'mode' && key !== 'allow') {
      throw invalid(`unknown network policy field "${key}"`, { field: key });
    }
  }
  const mode = record.mode;
  if (typeof mode !== 'string' || !(NETWORK_MODES as readonly string[]).includes(mode)) {
    throw invalid(`network mode must be one of ${NETWORK_MODES.join(', ')}`, { field: 'mode' });
  }
  const networkMode = mode as NetworkMode;
  if (record.allow === undefined) return Object.freeze({ mode: networkMode });
  const allow = record.allow;
  if (!Array.isArray(allow)) {
    throw invalid('network allow must be an array of strings', { field: 'allow' });
  }
  if (networkMode === 'none' && allow.length > 0) {
    throw invalid('network mode "none" admits nothing, so it takes no allow entries', { field: 'allow' });
  }
  if (allow.length > MAX_ALLOW_ENTRIES) {
    throw invalid(`network allow lists at most ${MAX_ALLOW_ENTRIES} entries`, {
      field: 'allow',
      limit: MAX_ALLOW_ENTRIES,
    });
  }
  const entries = allow.map((entry) => parseAllowEntry(entry));
  const policy: NetworkPolicy = Object.freeze({
    mode: networkMode,
    allow: Object.freeze(entries.map((entry) => entry.text)),
  });
  compiled.set(policy, compile(networkMode, entries));
  return policy;
}

/** The parsed form of a policy; validates it first when it did not come from {@link parseNetworkPolicy}. */
export function compilePolicy(policy: NetworkPolicy): CompiledPolicy {
  const cached = compiled.get(policy);
  if (cached !== undefined) return cached;
  const parsed = parseNetworkPolicy(policy);
  const result = compiled.get(parsed) ?? compile(parsed.mode, []);
  compiled.set(policy, result);
  return result;
}

function compile(mode: NetworkMode, entries: readonly AllowEntry[]): CompiledPolicy {
  return Object.freeze({
    mode,
    hosts: entries.filter((entry) => entry.kind === 'host'),
    networks: entries.filter((entry) => entry.kind === 'network'),
  });
}

/** Parses one `allow` entry: `host`, `host:port`, an IP (`[v6]:port` with a port), or a CIDR. */
export function parseAllowEntry(entry: unknown): AllowEntry {
  if (typeof entry !== 'string') throw invalid('network allow entries must be strings', {});
  const text = entry.trim();
  const details = { entry: text };
  if (text === '' || /[\s/?#@\\*]/.test(text.replace(/\/\d+$/, ''))) {
    throw invalid(
      `invalid network allow entry "${text}": use a host, host:port, IP address or CIDR (no URLs or wildcards)`,
      details,
    );
  }
  const slash = text.lastIndexOf('/');
  if (slash !== -1) return parseCidr(text, slash);
  const { host, port } = splitHostPort(text);
  const normalised = normaliseHost(host);
  if (normalised === undefined) throw invalid(`invalid host in network allow entry "${text}"`, details);
  const address = isIP(normalised);
  if (address !== 0) {
    const network = ipaddr().parse(normalised);
    const canonical = network.kind() === 'ipv6' ? `[${network.toString()}]` : network.toString();
    return {
      kind: 'network',
      text: port === undefined ? network.toString() : `${canonical}:${port}`,
      network,
      prefix: address === 4 ? 32 : 128,
      ...(port === undefined ? {} : { port }),
    };
  }
  return {
    kind: 'host',
    text: port === undefined ? normalised : `${normalised}:${port}`,
    host: normalised,
    ...(port === undefined ? {} : { port }),
  };
}

function parseCidr(text: string, slash: number): AllowEntry {
  const address = text.slice(0, slash).replace(/^\[(.*)\]$/, '$1');
  const prefixText = text.slice(slash + 1);
  const family = isIP(address);
  const maximum = family === 4 ? 32 : 128;
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (family === 0 || !(prefix >= 0 && prefix <= maximum)) {
    throw invalid(`invalid CIDR in network allow entry "${text}"`, { entry: text });
  }
  const network =
    family === 4
      ? ipaddr().IPv4.networkAddressFromCIDR(`${address}/${prefix}`)
      : ipaddr().IPv6.networkAddressFromCIDR(`${canonicalIPv6(address)}/${prefix}`);
  return { kind: 'network', text: `${network.toString()}/${prefix}`, network, prefix };
}

function splitHostPort(text: string): { host: string; port?: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return withPort(`[${bracketed[1]}]`, bracketed[2], text);
  // More than one colon without brackets can only be a bare IPv6 address, which has no port.
  if (text.indexOf(':') !== text.lastIndexOf(':')) return { host: `[${text}]` };
  const match = /^([^:]+)(?::(\d*))?$/.exec(text);
  if (!match?.[1]) throw invalid(`invalid network allow entry "${text}"`, { entry: text });
  return withPort(match[1], match[2], text);
}

function withPort(
  host: string,
  portText: string | undefined,
  entry: string,
): { host: string; port?: number } {
  if (portText === undefined) return { host };
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : Number.NaN;
  if (!(port >= 1 && port <= 65535)) {
    throw invalid(`invalid port in network allow entry "${entry}"`, { entry });
  }
  return { host, port };
}

/**
 * The host as the WHATWG URL parser normalises it (lower case, punycode, canonical IPv4 from
 * `127.1` or `0x7f.1`, compressed IPv6), without IPv6 brackets; `undefined` when it is not a host.
 */
export function normaliseHost(host: string): string | undefined {
  const bracketed = isIP(host) === 6 ? `[${host}]` : host;
  if (bracketed === '' || /[\s/?#@\\]/.test(bracketed)) return undefined;
  let hostname: string;
  try {
    hostname = new URL(`http://${bracketed}/`).hostname;
  } catch {
    return undefined;
  }
  if (hostname === '') return undefined;
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return bare.endsWith('.') && isIP(bare) === 0 ? bare.slice(0, -1) : bare;
}

function invalid(message: string, details: Record<string, unknown>): WebToolError {
  return new WebToolError({ code: 'validation_error', message, details });
}
