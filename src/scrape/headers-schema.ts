// The `headers` page option (docs/api.md, "Request headers"): names and values a request may carry to the target, and
// the ones it may not (they belong to the connection or to the service, or would undo its decompression).
import { z } from 'zod';

export const MAX_HEADERS = 32;
export const MAX_HEADER_VALUE_CHARS = 4096;
/** All names and values together. */
export const MAX_HEADERS_CHARS = 16_384;

/** Set by the service or the connection itself; a request cannot choose them. */
export const FORBIDDEN_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
  // The fetch decodes what it asks for: another encoding would reach the extractor undecoded.
  'accept-encoding',
]);

// RFC 9110 token characters.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Visible characters, spaces and tabs: no CR, LF or NUL to split a request with.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\uffff]*$/;

export const headersSchema = z
  .record(
    z.string(),
    z
      .string()
      .max(MAX_HEADER_VALUE_CHARS)
      .regex(FIELD_VALUE, { message: 'Header values may not hold line breaks or control characters' }),
  )
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    // Names are checked here rather than by the record's key schema, whose issues would not name the header.
    for (const name of names) {
      if (name.length === 0 || name.length > 100 || !TOKEN.test(name))
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: "Not a header name (1 to 100 of letters, digits and !#$%&'*+-.^_`|~)",
        });
      else if (FORBIDDEN_HEADERS.has(name.toLowerCase()))
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `This header is set by the service or the connection: ${[...FORBIDDEN_HEADERS].join(', ')} cannot be given`,
        });
    }
    if (names.length > MAX_HEADERS) ctx.addIssue({ code: 'custom', message: `At most ${MAX_HEADERS} headers` });
    const lower = new Set(names.map((n) => n.toLowerCase()));
    if (lower.size < names.length)
      ctx.addIssue({ code: 'custom', message: 'A header is named twice (names are case-insensitive)' });
    const size = names.reduce((sum, n) => sum + n.length + (headers[n]?.length ?? 0), 0);
    if (size > MAX_HEADERS_CHARS)
      ctx.addIssue({ code: 'custom', message: `Headers may hold at most ${MAX_HEADERS_CHARS} characters together` });
  });

/** Lower-case names, as both engines send them; undefined when there are none. */
export function normalizedHeaders(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (headers === undefined) return undefined;
  const entries = Object.entries(headers);
  if (entries.length === 0) return undefined;
  return Object.fromEntries(entries.map(([name, value]) => [name.toLowerCase(), value]));
}

/**
 * A stored request as a job listing shows it: header values (cookies, tokens for the target) replaced by `***`, at the
 * top level and in `scrape_options`.
 */
export function withHeaderValuesHidden(request: Record<string, unknown>): Record<string, unknown> {
  const hide = (options: Record<string, unknown>): Record<string, unknown> => {
    const headers = options.headers;
    if (headers === null || typeof headers !== 'object') return options;
    return { ...options, headers: Object.fromEntries(Object.keys(headers).map((name) => [name, '***'])) };
  };
  const out = hide(request);
  const scrape = out.scrape_options;
  return scrape !== null && typeof scrape === 'object'
    ? { ...out, scrape_options: hide(scrape as Record<string, unknown>) }
    : out;
}
