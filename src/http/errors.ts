// The catalogue of API errors: every non-2xx answer is built here, so shapes never drift; the
// domain's errors (domain/errors.ts) get their status, body and headers in toApiError.
import {
  ConflictError,
  type DomainError,
  type FailureKind,
  InvalidInputError,
  issuesSummary,
  NotFoundError,
  OperationFailedError,
  RateLimitedError,
  type ValidationIssue,
} from '../domain/errors.js';

/** An error whose HTTP answer is known; the error handler sends `body` with `statusCode` and `headers`. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown> & { error: string },
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : body.error);
  }
}

/** The status of an operation that failed, by kind: the target's fault, the way to it, the wait, ours. */
const FAILURE_STATUS: Record<FailureKind, number> = {
  refused: 400,
  internal: 500,
  upstream: 502,
  unavailable: 503,
  timeout: 504,
};

/**
 * The answer to a domain error: the one place where each becomes a status, a body and headers.
 * Undefined for a domain error without one, which the handler answers as a fault of ours.
 */
export function toApiError(error: DomainError): ApiError | undefined {
  if (error instanceof InvalidInputError) return validationError(error.issues);
  if (error instanceof NotFoundError) return notFound(error.thing);
  if (error instanceof ConflictError) return conflict(error.title, error.message, error.data);
  if (error instanceof RateLimitedError) {
    return new ApiError(
      429,
      { error: 'Too many requests', message: error.message },
      { 'retry-after': String(error.retryAfterSeconds) },
    );
  }
  if (error instanceof OperationFailedError) {
    return new ApiError(FAILURE_STATUS[error.kind], {
      error: error.title,
      code: error.code,
      message: error.message,
      data: error.data,
    });
  }
  return undefined;
}

/** The JSON body every error answer carries, raw socket answers included. */
export function errorBody(error: ApiError): Record<string, unknown> {
  return { success: false, ...error.body };
}

export function validationError(issues: ValidationIssue[]): ApiError {
  return new ApiError(400, {
    error: 'Validation error',
    message: issuesSummary(issues),
    data: { type: 'validation_error', issues, status: 'failed' },
  });
}

export function invalidApiKey(): ApiError {
  return new ApiError(401, { error: 'Invalid API key' });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in any case (the ids of jobs, tasks, webhooks and templates). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** A path id as stored (lower case), or the 400 "Invalid <thing> ID" when it is not a UUID. */
export function uuidParam(value: string | undefined, thing: string): string {
  if (value === undefined || !UUID.test(value)) throw invalidId(thing);
  return value.toLowerCase();
}

/** A path id that is not a UUID, e.g. invalidId('job') -> "Invalid job ID". */
export function invalidId(thing: string): ApiError {
  const label = thing.charAt(0).toUpperCase() + thing.slice(1);
  return new ApiError(400, { error: `Invalid ${thing} ID`, message: `${label} ID must be a valid UUID` });
}

export function notFound(thing: string): ApiError {
  const label = thing.charAt(0).toUpperCase() + thing.slice(1);
  return new ApiError(404, { error: 'Not found', message: `${label} not found` });
}

export function conflict(error: string, message: string, data?: Record<string, unknown>): ApiError {
  return new ApiError(409, data === undefined ? { error, message } : { error, message, data });
}

/** Seconds a client should wait before retrying while the database is out of reach. */
export const STORE_RETRY_AFTER_S = 5;

export function databaseUnavailable(): ApiError {
  return new ApiError(
    503,
    {
      error: 'Service unavailable',
      code: 'DATABASE_UNAVAILABLE',
      message: 'The database is unreachable right now; nothing was changed. Retry in a few seconds.',
    },
    { 'retry-after': String(STORE_RETRY_AFTER_S) },
  );
}

export function storageFull(): ApiError {
  return new ApiError(
    507,
    {
      error: 'Insufficient storage',
      code: 'STORAGE_FULL',
      message: 'The service has no storage space left; nothing was changed. Retry once space is freed.',
    },
    { 'retry-after': String(STORE_RETRY_AFTER_S) },
  );
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, { error: 'Bad request', message });
}

export function unsupportedMediaType(
  message = 'Request bodies must be JSON in UTF-8, with Content-Type: application/json',
): ApiError {
  return new ApiError(415, { error: 'Unsupported media type', message });
}

export function serviceUnavailable(message: string): ApiError {
  return new ApiError(503, { error: 'Service unavailable', message });
}
