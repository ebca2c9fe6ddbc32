// Maps every failure to the API's JSON error shapes: known ApiErrors, the domain's errors, Fastify's own errors,
// 404/405, and faults.
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.js';
import { classifyStoreError } from '../store/store-errors.js';
import {
  ApiError,
  badRequest,
  databaseUnavailable,
  errorBody,
  storageFull,
  toApiError,
  unsupportedMediaType,
  validationError,
} from './errors.js';
import type { RouteTable } from './route-table.js';

function send(reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
  return reply.status(error.statusCode).send(errorBody(error));
}

/** Fastify's built-in errors (body parsing, limits) translated to the catalogue. */
function fromFastifyError(error: FastifyError): ApiError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return validationError([
        { field: '', code: 'invalid_json', message: error.message.replace(/^Body /, 'Request body ') },
      ]);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, { error: 'Payload too large', message: 'The request body exceeds the size limit' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType();
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return badRequest('The request body does not match its Content-Length');
    default:
      break;
  }
  // JSON.parse errors surface as SyntaxError with statusCode 400.
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return validationError([{ field: '', code: 'invalid_json', message: `Malformed JSON: ${error.message}` }]);
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    // "Request Timeout" -> "Request timeout", as the catalogue writes its errors.
    const phrase = STATUS_CODES[error.statusCode] ?? 'Bad request';
    return new ApiError(error.statusCode, {
      error: phrase.charAt(0) + phrase.slice(1).toLowerCase(),
      message: error.message,
    });
  }
  return undefined;
}

/**
 * The answer to any failure of a request: known ApiErrors, the domain's errors, Fastify's own, the store's outages,
 * else a fault of ours (logged here with its context). Shared by every error shape the service speaks (/v1, /v2).
 */
export function answerFor(error: FastifyError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  const answer = error instanceof DomainError ? toApiError(error) : undefined;
  if (answer) return answer;
  const known = fromFastifyError(error);
  if (known) return known;
  const storeFailure = classifyStoreError(error);
  if (storeFailure) {
    // Logged without the stack: an outage makes every request fail alike.
    request.log.warn({ err: { message: error.message }, route: request.routeOptions.url }, `store ${storeFailure}`);
    return storeFailure === 'full' ? storageFull() : databaseUnavailable();
  }
  // A fault of ours: log it with context, answer without internals.
  request.log.error({ err: error, route: request.routeOptions.url }, 'request failed');
  return internalError(request.id);
}

/** A fault of ours, without internals: the request id lets an operator find its log line. */
export function internalError(requestId: string): ApiError {
  return new ApiError(500, {
    error: 'Internal server error',
    message: `Something went wrong on our side; quote request id ${requestId} when reporting it`,
  });
}

/** The 404 or 405 of a request that matched no route: 405 names the methods `path` allows. */
export function unmatchedRoute(routes: RouteTable, method: string, path: string): ApiError {
  const allowed = routes.methodsFor(path);
  if (allowed.length > 0) {
    return new ApiError(
      405,
      { error: 'Method not allowed', message: `${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}` },
      { allow: allowed.join(', ') },
    );
  }
  return new ApiError(404, { error: 'Not found', message: `Route ${method} ${path} not found` });
}

export function installErrorHandling(app: FastifyInstance, routes: RouteTable): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    send(reply, answerFor(error, request)),
  );

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? request.url;
    return send(reply, unmatchedRoute(routes, request.method, path));
  });
}
