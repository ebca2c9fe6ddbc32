// Answers for requests that never became requests (malformed HTTP, oversized heads, too slow to
// arrive): Node hands us the bare socket, and we write a whole JSON response in the error shape.
import { type IncomingMessage, maxHeaderSize, type Server, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError, badRequest, errorBody } from './errors.js';

export interface ReceiveLimits {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
}

/** Node's limit on the request line and headers together (--max-http-header-size). */
const HEAD_LIMIT = maxHeaderSize;

/**
 * Node reports one overflow for the request line and the headers together. The packet it failed
 * on tells which was long: a request line that never ends in it, or takes half the limit, is a
 * long URL (414); otherwise the headers are (431).
 */
function requestLineIsLong(rawPacket: unknown): boolean {
  if (!Buffer.isBuffer(rawPacket)) return false;
  const end = rawPacket.indexOf('\n');
  if (end < 0) return rawPacket.length >= HEAD_LIMIT / 2;
  return /^[A-Z]+ /.test(rawPacket.subarray(0, 16).toString('latin1')) && end >= HEAD_LIMIT / 2;
}

/** What a connection error means to the client; undefined when there is no one left to tell. */
export function clientErrorAnswer(
  error: NodeJS.ErrnoException & { rawPacket?: unknown },
  limits: ReceiveLimits,
): ApiError | undefined {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
    case 'HPE_INVALID_EOF_STATE':
      return undefined;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      // Node uses this one code for both limits (headers, whole request).
      return new ApiError(408, {
        error: 'Request timeout',
        message: `The request was not received in time: headers within ${limits.headersTimeoutMs} ms, the whole request within ${limits.requestTimeoutMs} ms`,
      });
    case 'HPE_HEADER_OVERFLOW':
      return requestLineIsLong(error.rawPacket)
        ? new ApiError(414, {
            error: 'URI too long',
            message: `The request URL is too long (the request line and headers together may take ${HEAD_LIMIT / 1024} KiB)`,
          })
        : new ApiError(431, {
            error: 'Request header fields too large',
            message: `The request line and headers exceed ${HEAD_LIMIT / 1024} KiB`,
          });
    default:
      return badRequest(`Malformed HTTP request${error.code?.startsWith('HPE_') ? ` (${error.code})` : ''}`);
  }
}

/** A complete HTTP/1.1 response for a socket that has no ServerResponse to write it. */
export function rawErrorResponse(error: ApiError): string {
  const body = JSON.stringify(errorBody(error));
  return (
    `HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode] ?? 'Error'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/** Fastify's `clientErrorHandler`: answer in the error shape when the socket can still carry one, then close. */
export function clientErrorHandler(limits: ReceiveLimits, log: FastifyBaseLogger) {
  return (error: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Socket): void => {
    if (socket.destroyed) return;
    const answer = clientErrorAnswer(error, limits);
    // A response already begun (e.g. a 413 before the body ended) must not get a second head;
    // `_httpMessage` is how Node's own default handler tells.
    const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    log.debug({ err: error, status: answer?.statusCode }, 'client error');
    if (answer === undefined || !socket.writable || response?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(rawErrorResponse(answer));
    // A client that keeps the socket open after our answer does not keep it long.
    setTimeout(() => socket.destroy(), 1000).unref();
  };
}

/**
 * The other answers Node writes on its own, with an empty body: 417 for an `Expect` other than
 * 100-continue, and (by closing the socket) CONNECT. Both are written in the error shape here.
 */
export function answerNodeSpecialCases(server: Server): void {
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const answer = new ApiError(417, {
      error: 'Expectation failed',
      message: `Expect: ${request.headers.expect ?? ''} is not supported; only 100-continue is`,
    });
    const body = JSON.stringify(errorBody(answer));
    response.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    response.end(body);
  });
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    socket.end(
      rawErrorResponse(
        new ApiError(405, { error: 'Method not allowed', message: 'CONNECT is not allowed: this is not a proxy' }),
      ),
    );
    setTimeout(() => socket.destroy(), 1000).unref();
  });
}
