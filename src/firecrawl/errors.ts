// Firecrawl's error shape for every /v2 answer that is not a success: `{ success: false, error, code?, details? }`,
// where `error` is the sentence its clients show (they read `error`, then `code` and `details`).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidInputError, type ValidationIssue } from '../domain/errors.js';
import { answerFor, unmatchedRoute } from '../http/error-handler.js';
import { ApiError, isUuid } from '../http/errors.js';
import type { RouteTable } from '../http/route-table.js';
import { renameField } from './scrape-options.js';

/** A zod-like issue, as Firecrawl's `details` lists them: the path as an array, numbers for indexes. */
interface DetailIssue {
  code: string;
  path: Array<string | number>;
  message: string;
}

function pathOf(field: string): Array<string | number> {
  if (field === '') return [];
  return field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

function issuesOf(error: ApiError): ValidationIssue[] | undefined {
  const data = error.body.data as { type?: unknown; issues?: unknown } | undefined;
  return data?.type === 'validation_error' && Array.isArray(data.issues)
    ? (data.issues as ValidationIssue[])
    : undefined;
}

/** The body of a /v2 error answer. */
export function firecrawlErrorBody(error: ApiError): Record<string, unknown> {
  const issues = issuesOf(error);
  if (issues !== undefined) {
    const details: DetailIssue[] = issues.map((i) => ({ code: i.code, path: pathOf(i.field), message: i.message }));
    // Every issue in the sentence: Firecrawl's clients (and the agents behind firecrawl-mcp) show only `error`.
    const message = issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('; ');
    return { success: false, error: message || 'Invalid request', code: 'BAD_REQUEST', details };
  }
  const message = typeof error.body.message === 'string' ? error.body.message : error.body.error;
  const code = typeof error.body.code === 'string' ? error.body.code : undefined;
  const data = error.body.data;
  return {
    success: false,
    error: message,
    ...(code !== undefined ? { code } : {}),
    ...(data !== undefined && data !== null ? { details: data } : {}),
  };
}

function send(reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
  return reply.status(error.statusCode).send(firecrawlErrorBody(error));
}

/** Error and 404 handling of the /v2 plugin context: the same answers as /v1, in Firecrawl's shape. */
export function installFirecrawlErrors(app: FastifyInstance, routes: RouteTable): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    send(reply, answerFor(error, request)),
  );
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? request.url;
    return send(reply, unmatchedRoute(routes, request.method, path));
  });
}

/** Runs `work`, saying any invalid-input issue it throws in the v2 request's field names. */
export async function inV2Words<T>(renames: ReadonlyArray<[string, string]>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof InvalidInputError) {
      throw new InvalidInputError(error.issues.map((i) => ({ ...i, field: renameField(i.field, renames) })));
    }
    throw error;
  }
}

/** A 400 naming the v2 fields whose values have no equivalent here. */
export function refusalError(refusals: ReadonlyArray<{ field: string; message: string }>): InvalidInputError {
  return new InvalidInputError(refusals.map((r) => ({ field: r.field, message: r.message, code: 'custom' })));
}

/** A path id as stored (lower case), or Firecrawl's 400 for anything but a UUID ("Invalid job ID format. …"). */
export function firecrawlIdParam(value: string, thing: 'job' | 'monitor' | 'check'): string {
  if (isUuid(value)) return value.toLowerCase();
  const label = thing.charAt(0).toUpperCase() + thing.slice(1);
  throw new ApiError(400, {
    error: 'Bad request',
    message: `Invalid ${thing} ID format. ${label} ID must be a valid UUID.`,
  });
}

/** The answer to a Firecrawl feature this server does not offer: 501, named, with where to read why. */
export function notOffered(feature: string): ApiError {
  return new ApiError(501, {
    error: 'Not implemented',
    code: 'NOT_OFFERED',
    message: `${feature} is not offered by this server (a self-hosted crawl service with Firecrawl's v2 API; docs/firecrawl.md lists what is)`,
  });
}
