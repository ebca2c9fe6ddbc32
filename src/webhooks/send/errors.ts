// Maps what a failed delivery attempt threw to a familiar network error code and a message naming the receiver.

export interface NetworkFailure {
  /** ETIMEDOUT, ECONNREFUSED, ECONNRESET, ENOTFOUND, EAI_AGAIN, EHOSTUNREACH, CERT_*, TLS_ERROR, … */
  errorCode: string;
  errorMessage: string;
}

/** Where the attempt was when it failed, for the message. */
export type AttemptPhase = 'request' | 'body';

const NOT_FOUND = new Set(['ENOTFOUND', 'EAI_NONAME', 'EAI_NODATA']);
const DNS_OTHER = new Set(['EAI_AGAIN', 'EAI_FAIL']);
// undici's SocketError ("other side closed") is what a peer closing or resetting mid-request looks like.
const RESET = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);
const TIMEOUT = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL']);
// OpenSSL's certificate verification results keep their own names: they tell the receiver's
// operator exactly what to fix. Other TLS failures (handshake, protocol) become TLS_ERROR.
const CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
]);

function codeOf(err: unknown): string {
  if (typeof err !== 'object' || err === null) return '';
  if ('code' in err && typeof err.code === 'string' && err.code !== '') return err.code;
  // Happy-eyeballs connects (autoSelectFamily) fail with an AggregateError of one error per address.
  if (err instanceof AggregateError) {
    for (const inner of err.errors) {
      const code = codeOf(inner);
      if (code) return code;
    }
  }
  if ('cause' in err && err.cause !== err) return codeOf(err.cause);
  return '';
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Classifies an error thrown by undici (or the socket under it) while talking to `host` (host[:port]). */
export function describeNetworkError(err: unknown, host: string, phase: AttemptPhase): NetworkFailure {
  const code = codeOf(err);
  const message = messageOf(err);
  const hostname = host.replace(/:\d+$/, '');
  if (NOT_FOUND.has(code))
    return { errorCode: 'ENOTFOUND', errorMessage: `Could not resolve host ${hostname}: no such name` };
  if (DNS_OTHER.has(code))
    return { errorCode: code, errorMessage: `Could not resolve host ${hostname}: DNS lookup failed (${code})` };
  if (code === 'ECONNREFUSED') return { errorCode: code, errorMessage: `Connection refused by ${host}` };
  if (RESET.has(code)) {
    const when = phase === 'body' ? 'while sending the response body' : 'before answering';
    return { errorCode: 'ECONNRESET', errorMessage: `Connection to ${host} was closed ${when} (${message})` };
  }
  if (TIMEOUT.has(code)) return { errorCode: 'ETIMEDOUT', errorMessage: `Timed out talking to ${host} (${code})` };
  if (UNREACHABLE.has(code)) return { errorCode: code, errorMessage: `${host} is unreachable (${code})` };
  if (code.startsWith('CERT_') || CERTIFICATE.has(code)) {
    return { errorCode: code, errorMessage: `TLS certificate of ${host} was refused: ${message}` };
  }
  if (
    code === 'EPROTO' ||
    code.startsWith('ERR_SSL_') ||
    code.startsWith('ERR_TLS_') ||
    /certificate|ssl|tls/i.test(message)
  ) {
    return { errorCode: 'TLS_ERROR', errorMessage: `TLS error connecting to ${host}: ${message}` };
  }
  // llhttp's parse errors: the receiver did not speak HTTP/1.1 properly.
  if (code.startsWith('HPE_') || code === 'UND_ERR_HEADERS_OVERFLOW') {
    return { errorCode: 'INVALID_RESPONSE', errorMessage: `${host} sent a malformed HTTP response (${message})` };
  }
  if (
    code === 'UND_ERR_INVALID_ARG' ||
    code === 'ERR_INVALID_ARG_VALUE' ||
    code === 'ERR_INVALID_CHAR' ||
    code === 'ERR_INVALID_HTTP_TOKEN'
  ) {
    return { errorCode: 'INVALID_REQUEST', errorMessage: `The request to ${host} could not be sent: ${message}` };
  }
  if (/^E[A-Z0-9_]+$/.test(code))
    return { errorCode: code, errorMessage: `Network error talking to ${host}: ${message}` };
  return {
    errorCode: 'NETWORK_ERROR',
    errorMessage: `Network error talking to ${host}: ${message}${code ? ` (${code})` : ''}`,
  };
}
