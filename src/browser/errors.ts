// Maps what the automation libraries throw to BrowserError codes with one-line messages (never a stack).
import { hostOf, type PageErrorCode } from '../page/errors.js';
import { BrowserError } from './types.js';

/** Chromium network errors (net::ERR_...) that keep a fetch code's meaning. */
const NET_ERROR_CODES: Array<[RegExp, PageErrorCode]> = [
  [/^ERR_NAME_NOT_RESOLVED$|^ERR_NAME_RESOLUTION_FAILED$/, 'DNS_FAILURE'],
  [/^ERR_CONNECTION_REFUSED$/, 'CONNECTION_REFUSED'],
  [/^ERR_CONNECTION_RESET$|^ERR_CONNECTION_CLOSED$/, 'CONNECTION_RESET'],
  [/^ERR_TIMED_OUT$|^ERR_CONNECTION_TIMED_OUT$/, 'TIMEOUT'],
  [/^ERR_CERT_|^ERR_SSL_|^ERR_BAD_SSL_/, 'TLS_ERROR'],
  [/^ERR_TOO_MANY_REDIRECTS$/, 'TOO_MANY_REDIRECTS'],
  [/^ERR_PROXY_|^ERR_TUNNEL_CONNECTION_FAILED$|^ERR_MANDATORY_PROXY_CONFIGURATION_FAILED$/, 'PROXY_ERROR'],
];

const MAX_MESSAGE = 300;

/** The first line of a library error without its "page.goto: " prefix, call log or stack. */
export function cleanMessage(err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  const line = (raw.split('\n')[0] ?? '').replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, '').trim();
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE)}...` : line;
}

/** The `ERR_...` name in a library's navigation error, if any. */
export function netErrorName(err: unknown): string | undefined {
  const raw = err instanceof Error ? err.message : String(err);
  return /net::(ERR_[A-Z0-9_]+)/.exec(raw)?.[1];
}

/** Whether the library reports that the page or its browser went away under it. */
export function isTargetGone(err: unknown): boolean {
  const raw = err instanceof Error ? err.message : String(err);
  return /crash|Target (page, context or browser )?(has been )?closed|Session closed|Connection closed|Browser has been closed|browser has disconnected|Protocol error.*(closed|detached)/i.test(
    raw,
  );
}

/** A navigation that failed with a Chromium net error or a library error. */
export function navigationError(err: unknown, url: string, viaUserProxy: boolean): BrowserError {
  const name = netErrorName(err);
  const host = hostOf(url);
  if (name) {
    for (const [pattern, code] of NET_ERROR_CODES) {
      if (!pattern.test(name)) continue;
      if (code === 'PROXY_ERROR' && !viaUserProxy) break;
      return new BrowserError(code, describe(code, host, name), url, { cause: err });
    }
    return new BrowserError('NAVIGATION_FAILED', `Navigation to ${host} failed: net::${name}`, url, { cause: err });
  }
  return new BrowserError('NAVIGATION_FAILED', `Navigation to ${host} failed: ${cleanMessage(err)}`, url, {
    cause: err,
  });
}

function describe(code: PageErrorCode, host: string, name: string): string {
  switch (code) {
    case 'DNS_FAILURE':
      return `Could not resolve ${host} (net::${name})`;
    case 'CONNECTION_REFUSED':
      return `${host} refused the connection (net::${name})`;
    case 'CONNECTION_RESET':
      return `The connection to ${host} was reset (net::${name})`;
    case 'TIMEOUT':
      return `The connection to ${host} timed out (net::${name})`;
    case 'TLS_ERROR':
      return `TLS error with ${host} (net::${name})`;
    case 'TOO_MANY_REDIRECTS':
      return `Too many redirects from ${host} (net::${name})`;
    case 'PROXY_ERROR':
      return `The proxy failed or refused the request to ${host} (net::${name})`;
    default:
      return `Navigation to ${host} failed (net::${name})`;
  }
}
