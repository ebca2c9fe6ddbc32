// Which proxy a fetch goes through, and which proxies a request may name: the operator's settings applied to a
// request's `proxy`.
import { BlockedAddressError } from './blocked-address-error.js';
import { checkHostLiteral } from './ip-classify.js';

/**
 * The deployment's proxy settings. A proxy named by a request is an outbound connection like any
 * other, so the private-address guard applies to it; proxies the operator chose do not go through
 * the guard (they may sit on the private network on purpose).
 */
export interface ProxyPolicy {
  /** OUTBOUND_PROXY: every target request goes through it (unless the request names an allow-listed proxy). */
  outboundProxy?: string;
  /** REQUEST_PROXY_ALLOWLIST: proxies (`host:port`, see proxyAuthority) requests may name although they are private. */
  allowlist: readonly string[];
  /** ALLOW_LOCAL_TARGETS: when the targets may be private anyway, so may a request's proxy. */
  allowPrivate: boolean;
}

/** The proxy of one fetch and whether its own address may be private. */
export interface ChosenProxy {
  url: string;
  allowPrivate: boolean;
}

/** Settings named in refusals of a private request proxy. */
export const PROXY_GUARD_REMEDY =
  'add it to REQUEST_PROXY_ALLOWLIST (host:port) or set ALLOW_LOCAL_TARGETS=true to allow';
export const PROXY_ROLE = 'proxy';

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * `host:port` of a proxy URL as the allow-list spells it: lower case, IP literals normalized, the port always written.
 */
export function proxyAuthority(url: URL): string {
  return `${url.hostname.toLowerCase()}:${url.port || DEFAULT_PORTS[url.protocol] || 80}`;
}

/**
 * Parses one REQUEST_PROXY_ALLOWLIST entry (`host:port`, `[v6]:port`) into proxyAuthority's form;
 * undefined when it is not one. Hosts are normalized as URLs normalize them (0x7f.1 is 127.0.0.1).
 */
export function parseAllowlistEntry(entry: string): string | undefined {
  const raw = entry.trim();
  const match = /^(\[[^\]]+\]|[^:/@\s]+):(\d{1,5})$/.exec(raw);
  if (!match) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65_535) return undefined;
  try {
    const url = new URL(`http://${match[1]}:${port}`);
    return `${url.hostname.toLowerCase()}:${port}`;
  } catch {
    return undefined;
  }
}

function parse(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

function isAllowListed(url: URL, policy: ProxyPolicy): boolean {
  return policy.allowlist.includes(proxyAuthority(url));
}

function outboundOnlyMessage(url: URL): string {
  return `This deployment sends all outbound traffic through its own proxy (OUTBOUND_PROXY): a request may name only a proxy on REQUEST_PROXY_ALLOWLIST, and ${url.host} is not on it`;
}

/** The refusal of a proxy whose host is a private IP literal or a local name (no DNS involved), or undefined. */
export function checkProxyLiteral(url: URL): BlockedAddressError | undefined {
  const verdict = checkHostLiteral(url.hostname);
  if (verdict.allowed) return undefined;
  // The host as written (URL-normalized) is the address: no "it resolves to" part.
  return new BlockedAddressError(url.host, '', {
    role: PROXY_ROLE,
    reason: verdict.reason,
    remedy: PROXY_GUARD_REMEDY,
  });
}

/**
 * Why a request's `proxy` is refused when the scrape, crawl or task is created, or undefined.
 * Only what is certain without DNS is refused here (IP literals, local names); a name that
 * resolves to a private address is refused when the fetch connects.
 */
export function requestProxyRefusal(raw: string, policy: ProxyPolicy): string | undefined {
  const url = parse(raw);
  // The schema has already refused what does not parse; the fetch reports it again if it gets here.
  if (!url || isAllowListed(url, policy)) return undefined;
  if (policy.outboundProxy !== undefined) return outboundOnlyMessage(url);
  if (policy.allowPrivate) return undefined;
  return checkProxyLiteral(url)?.message;
}

/** Thrown by chooseProxy for a request proxy that the settings do not allow (a job created before they changed). */
export class ProxyNotAllowedError extends Error {
  readonly code = 'PROXY_NOT_ALLOWED';
  constructor(message: string) {
    super(message);
    this.name = 'ProxyNotAllowedError';
  }
}

/**
 * The proxy a fetch goes through: the request's own (guarded unless allow-listed or ALLOW_LOCAL_TARGETS),
 * else OUTBOUND_PROXY (never guarded: the operator chose it), else none.
 */
export function chooseProxy(requestProxy: string | undefined, policy: ProxyPolicy): ChosenProxy | undefined {
  if (requestProxy !== undefined) {
    const url = parse(requestProxy);
    // An unparsable proxy goes on to the fetch, which reports it as PROXY_ERROR.
    if (!url) return { url: requestProxy, allowPrivate: false };
    if (isAllowListed(url, policy)) return { url: requestProxy, allowPrivate: true };
    if (policy.outboundProxy !== undefined) throw new ProxyNotAllowedError(outboundOnlyMessage(url));
    return { url: requestProxy, allowPrivate: policy.allowPrivate };
  }
  if (policy.outboundProxy !== undefined) return { url: policy.outboundProxy, allowPrivate: true };
  return undefined;
}
