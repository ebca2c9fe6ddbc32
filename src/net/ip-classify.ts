// Classifies IPs and URL hosts as public or private, without any network access.
import ipaddr from 'ipaddr.js';

/** Outcome of checking a URL host before any DNS lookup. */
export type GuardVerdict =
  | {
      allowed: true;
      /** the host as a normalized IP when it is an IP literal, else null (a name to resolve) */ ip: string | null;
    }
  | { allowed: false; /** the normalized host or address that was refused */ address: string; reason: string };

// IPv4-compatible addresses (::a.b.c.d, deprecated) are reported by ipaddr.js as plain unicast
// when written in hex, so they are matched explicitly and judged by the IPv4 they embed.
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/** Strips URL brackets and an IPv6 zone id, so that "[fe80::1%eth0]" can be parsed. */
function bareAddress(ip: string): string {
  let s = ip.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone !== -1 && s.includes(':')) s = s.slice(0, zone);
  return s;
}

function isPrivateIPv4(addr: ipaddr.IPv4): boolean {
  return addr.range() !== 'unicast';
}

function isPrivateParsed(addr: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (addr.kind() === 'ipv4') return isPrivateIPv4(addr as ipaddr.IPv4);
  const v6 = addr as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return isPrivateIPv4(v6.toIPv4Address());
  const range = v6.range();
  if (range === 'unspecified' || range === 'loopback') return true;
  if (v6.match(IPV4_COMPATIBLE)) return isPrivateIPv4(new ipaddr.IPv4(v6.toByteArray().slice(12)));
  // Everything ipaddr.js does not call unicast: fc00::/7, fe80::/10, ff00::/8, 64:ff9b::/96
  // (NAT64 can reach internal IPv4), 2001:db8::/32, 6to4, Teredo and other special ranges.
  return range !== 'unicast';
}

/**
 * True for every address that is not a public unicast address. Something that is not an IP
 * at all also answers true: a guard must fail closed.
 */
export function isPrivateAddress(ip: string): boolean {
  const s = bareAddress(ip);
  if (!ipaddr.isValid(s)) return true;
  return isPrivateParsed(ipaddr.parse(s));
}

// WHATWG URL treats a host whose last label is a number as an IPv4 address; resolvers
// (inet_aton) accept the same shapes. Such a host is never sent to DNS as a name.
const NUMERIC_LABEL = /^(?:0x[0-9a-f]*|[0-9]+)$/i;

/**
 * Checks a URL host before any DNS lookup: refuses names ending in "localhost" and every
 * private IP literal, in all the spellings a URL parser or a resolver accepts (decimal
 * 2130706433, octal 0177.0.0.1, hex 0x7f.0.0.1, short 127.1, [::1], [::ffff:127.0.0.1]).
 */
export function checkHostLiteral(host: string): GuardVerdict {
  let h = host.trim().toLowerCase();
  const bracketed = h.startsWith('[') && h.endsWith(']');
  if (bracketed) h = h.slice(1, -1);
  if (!bracketed && h.endsWith('.')) h = h.slice(0, -1);
  if (h === '') return { allowed: false, address: host, reason: 'empty host' };

  if (h.includes(':')) {
    const bare = bareAddress(h);
    if (!ipaddr.IPv6.isValid(bare)) return { allowed: false, address: h, reason: 'malformed IPv6 address' };
    const parsed = ipaddr.IPv6.parse(bare);
    const normalized = parsed.isIPv4MappedAddress() ? `::ffff:${parsed.toIPv4Address().toString()}` : parsed.toString();
    return isPrivateParsed(parsed)
      ? { allowed: false, address: normalized, reason: 'private address' }
      : { allowed: true, ip: normalized };
  }

  if (h.endsWith('localhost')) return { allowed: false, address: h, reason: 'local name' };

  const labels = h.split('.');
  if (NUMERIC_LABEL.test(labels[labels.length - 1] ?? '')) {
    // ipaddr.js accepts the classful forms (one to four parts, decimal, octal or hex) that inet_aton does.
    if (!ipaddr.IPv4.isValid(h)) return { allowed: false, address: h, reason: 'malformed IPv4 address' };
    const parsed = ipaddr.IPv4.parse(h);
    const normalized = parsed.toString();
    return isPrivateIPv4(parsed)
      ? { allowed: false, address: normalized, reason: 'private address' }
      : { allowed: true, ip: normalized };
  }
  return { allowed: true, ip: null };
}
