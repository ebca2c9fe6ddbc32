// FetchError and the mapping of low-level socket/undici/zlib errors to its codes.
import { BlockedAddressError } from '../net/address-guard.js';
import { type FetchErrorCode, hostOf, PageError } from '../page/errors.js';

export class FetchError extends PageError {
  declare readonly code: FetchErrorCode;
  readonly statusCode?: number;

  constructor(
    code: FetchErrorCode,
    message: string,
    url: string,
    extra: { statusCode?: number; cause?: unknown } = {},
  ) {
    super(code, message, url, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'FetchError';
    if (extra.statusCode !== undefined) this.statusCode = extra.statusCode;
  }
}

export interface ErrorContext {
  url: string;
  /** Proxy host (never its credentials), when the fetch goes through one. */
  proxyHost?: string;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED']);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'EPROTO',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'UND_ERR_PRX_TLS',
]);
/** Errors of the first hop to the proxy: with a proxy configured, the target is reached by the proxy, not by us. */
const PROXY_HOP_CODES = new Set([...DNS_CODES, 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH']);

function errorCode(err: unknown): string {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string') return err.code;
  return '';
}

/** One line: OpenSSL and others end their messages with a newline or put the details on more lines. */
function errorMessage(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ').trim();
}

/** Turns anything thrown while fetching into a FetchError with a short human message (never a stack). */
export function toFetchError(err: unknown, ctx: ErrorContext): FetchError {
  if (err instanceof FetchError) return err;
  const { url } = ctx;
  const host = hostOf(url);
  if (err instanceof BlockedAddressError) return new FetchError('BLOCKED_ADDRESS', err.message, url, { cause: err });

  const code = errorCode(err);
  const message = errorMessage(err);
  // A tunnel the proxy dropped or never opened (our bounded connector, undici 8's ProxyConnectionError).
  if (code === 'UND_ERR_PRX_CONN') {
    const proxy = ctx.proxyHost !== undefined ? `Proxy ${ctx.proxyHost}` : 'The proxy';
    return new FetchError('PROXY_ERROR', `${proxy} failed the request for ${url}: ${message}`, url, { cause: err });
  }
  if (ctx.proxyHost !== undefined) {
    if (PROXY_HOP_CODES.has(code)) {
      return new FetchError(
        'PROXY_ERROR',
        `Could not connect to proxy ${ctx.proxyHost} (${code}) while fetching ${url}`,
        url,
        { cause: err },
      );
    }
    // undici reports a refused CONNECT as "Proxy response (502) !== 200" and a 407 as "Proxy Authentication Required".
    if (/proxy/i.test(message)) {
      return new FetchError('PROXY_ERROR', `Proxy ${ctx.proxyHost} refused the request for ${url}: ${message}`, url, {
        cause: err,
      });
    }
  }
  if (DNS_CODES.has(code))
    return new FetchError('DNS_FAILURE', `Could not resolve host ${hostOf(url).replace(/:\d+$/, '')} (${code})`, url, {
      cause: err,
    });
  if (code === 'ECONNREFUSED')
    return new FetchError('CONNECTION_REFUSED', `Connection refused by ${host}`, url, { cause: err });
  if (RESET_CODES.has(code))
    return new FetchError('CONNECTION_RESET', `Connection to ${host} was closed unexpectedly (${code})`, url, {
      cause: err,
    });
  if (TIMEOUT_CODES.has(code))
    return new FetchError('TIMEOUT', `Timed out talking to ${host} (${code})`, url, { cause: err });
  if (
    TLS_CODES.has(code) ||
    code.startsWith('ERR_SSL_') ||
    code.startsWith('ERR_TLS_') ||
    /certificate/i.test(message)
  ) {
    return new FetchError('TLS_ERROR', `TLS error connecting to ${host}: ${message}`, url, { cause: err });
  }
  if (code.startsWith('Z_') || code.includes('BROTLI')) {
    return new FetchError('NETWORK_ERROR', `Could not decompress the response from ${host}: ${message}`, url, {
      cause: err,
    });
  }
  if (code === 'ERR_INVALID_URL' || code === 'ERR_INVALID_ARG_VALUE') {
    return new FetchError('INVALID_URL', `Invalid URL ${url}`, url, { cause: err });
  }
  return new FetchError('NETWORK_ERROR', `Network error fetching ${url}: ${message}${code ? ` (${code})` : ''}`, url, {
    cause: err,
  });
}
