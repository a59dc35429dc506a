import type Ipaddr from 'ipaddr.js';
import { ipaddr } from './commonjs.js';
import { isIP } from './ip-literal.js';

/** What an IP address is, as far as the network policy cares. */
export interface AddressClass {
  /** Canonical text: dotted quad for IPv4, RFC 5952 for IPv6 (no brackets, no zone). */
  readonly address: string;
  /** The address family. */
  readonly family: 4 | 6;
  /** The special range the address falls in (ipaddr.js names, plus a few of ours), or `unicast`. */
  readonly range: string;
  /** Whether the address belongs to the public internet. */
  readonly public: boolean;
  /** Whether the address is loopback (127.0.0.0/8 or ::1). */
  readonly loopback: boolean;
}

// IPv6 global unicast is only 2000::/3; everything else is reserved, local or special, so an address
// outside it is never treated as public even when ipaddr.js has no name for its range.
let ranges: { globalUnicastV6: [Ipaddr.IPv6, number]; nat64WellKnown: [Ipaddr.IPv6, number] } | undefined;
const specialRanges = () => {
  ranges ??= {
    globalUnicastV6: ipaddr().IPv6.parseCIDR('2000::/3'),
    nat64WellKnown: ipaddr().IPv6.parseCIDR('64:ff9b::/96'),
  };
  return ranges;
};
// The RFC 6052 well-known NAT64 prefix: the embedded IPv4 address decides, so IPv6-only networks that
// reach IPv4 sites through NAT64 keep working while NAT64 forms of private addresses stay denied.

/**
 * Classifies an IP address given as text; `undefined` when the text is not an IP address that Node
 * would connect to without a DNS lookup. Non-canonical IPv4 spellings (`0177.0.0.1`, `127.1`) are not
 * addresses here: normalise hosts through the WHATWG URL parser first.
 */
export function classifyAddress(text: string): AddressClass | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const family = isIP(bare);
  if (family === 4) return classifyIPv4(ipaddr().IPv4.parse(bare));
  if (family === 6) return classifyIPv6(ipaddr().IPv6.parse(canonicalIPv6(bare)));
  return undefined;
}

/**
 * IPv6 text in the WHATWG parser's canonical form, zone id dropped. ipaddr.js reads `::127.0.0.1`
 * as `::ffff:127.0.0.1`, while the WHATWG parser keeps the address it was given (`::7f00:1`), so IPv6
 * text goes through here before ipaddr.js sees it.
 */
export function canonicalIPv6(text: string): string {
  const withoutZone = text.split('%')[0] ?? text;
  return new URL(`http://[${withoutZone}]/`).hostname.slice(1, -1);
}

function classifyIPv4(address: Ipaddr.IPv4): AddressClass {
  const range = address.range();
  return {
    address: address.toString(),
    family: 4,
    range,
    public: range === 'unicast',
    loopback: range === 'loopback',
  };
}

function classifyIPv6(address: Ipaddr.IPv6): AddressClass {
  const text = address.toRFC5952String();
  const named = address.range();
  if (named === 'rfc6052' && address.match(specialRanges().nat64WellKnown)) {
    const embedded = classifyIPv4(ipaddr().IPv4.parse(embeddedIPv4(address)));
    return { address: text, family: 6, range: 'rfc6052', public: embedded.public, loopback: false };
  }
  let range: string = named;
  if (range === 'unicast' && !address.match(specialRanges().globalUnicastV6)) {
    // ::/96 carried IPv4-compatible addresses (deprecated); ::127.0.0.1 must not look public.
    range = address.parts.slice(0, 6).every((part) => part === 0) ? 'ipv4Compatible' : 'nonGlobal';
  }
  return {
    address: text,
    family: 6,
    range,
    public: range === 'unicast',
    loopback: range === 'loopback',
  };
}

function embeddedIPv4(address: Ipaddr.IPv6): string {
  const high = address.parts[6] ?? 0;
  const low = address.parts[7] ?? 0;
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}
