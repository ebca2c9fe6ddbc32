// The errors services, schemas and stores throw: what went wrong, in the domain's words. They know
// nothing of HTTP; the HTTP layer gives each its status, body and headers in one place (toApiError
// in http/errors.ts). This module depends on nothing else in src/.

/** One problem with the input, at a dotted field path ('' for the whole input). */
export interface ValidationIssue {
  field: string;
  message: string;
  code: string;
}

/** The one-line summary of `issues`: the single issue with its field, or how many there are. */
export function issuesSummary(issues: readonly ValidationIssue[]): string {
  const first = issues[0];
  return issues.length === 1 && first
    ? `${first.field ? `${first.field}: ` : ''}${first.message}`
    : `${issues.length} problems in the request; see data.issues`;
}

/** The base of every error the HTTP layer answers as a client or availability error, not a fault. */
export abstract class DomainError extends Error {}

/** Something the caller named does not exist (or is not theirs): `thing` is its kind, e.g. 'job'. */
export class NotFoundError extends DomainError {
  constructor(readonly thing: string) {
    super(`${thing.charAt(0).toUpperCase()}${thing.slice(1)} not found`);
  }
}

/** The thing exists but its state forbids the operation: `title` says what, e.g. 'Job already finished'. */
export class ConflictError extends DomainError {
  constructor(
    readonly title: string,
    message: string,
    /** What the caller needs to resolve the conflict (the tasks that use a template), answered as `data`. */
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** The input is refused, with one issue per problem. */
export class InvalidInputError extends DomainError {
  readonly issues: ValidationIssue[];

  constructor(issues: ValidationIssue[]) {
    super(issuesSummary(issues));
    this.issues = issues;
  }
}

/**
 * Input the schema accepts but this deployment cannot serve: a browser-only option without
 * Chromium, structured extraction, a template. Answered as any invalid input, naming the fields.
 */
export class CapabilityUnavailableError extends InvalidInputError {}

/** Too many of something within a window; it may be tried again after `retryAfterSeconds`. */
export class RateLimitedError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Why an operation on a target failed, by who is to blame and whether waiting helps: `refused`
 * (the target itself is not allowed or not usable), `upstream` (the target or the way to it failed),
 * `timeout` (it did not answer in time), `unavailable` (a resource of ours is missing or busy, or
 * the work was stopped), `internal` (a fault of ours).
 */
export type FailureKind = 'refused' | 'upstream' | 'timeout' | 'unavailable' | 'internal';

/**
 * An operation on a target (a page to scrape, a crawl's seed) failed: `code` is the stable
 * machine-readable reason (e.g. DNS_FAILURE), `title` its short human label, `data` what the
 * caller needs to find the work again (job id, url, status).
 */
export class OperationFailedError extends DomainError {
  constructor(
    readonly kind: FailureKind,
    readonly title: string,
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown>,
  ) {
    super(message);
  }
}
