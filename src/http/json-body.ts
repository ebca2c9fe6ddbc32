// The one body parser: JSON in UTF-8, without a content coding, nested at most MAX_JSON_DEPTH levels; an empty body is
// none.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unsupportedMediaType, validationError } from './errors.js';

/**
 * Objects and arrays inside one another, the body itself counting as the first level. Checked
 * before parsing because deeper values (5,000 levels fit in a 1 MiB body) overflow the stack of
 * every recursive walk that follows: JSON.stringify for storage, Zod, the webhook payload.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `text` nests brackets deeper than `max`, outside strings; linear, never recursive. */
export function exceedsJsonDepth(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** The charset parameter of a Content-Type, lower case and unquoted; undefined when absent. */
export function declaredCharset(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  let found: string | undefined;
  for (const param of contentType.split(';').slice(1)) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const value = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim()
      .toLowerCase();
    // Two charset parameters that disagree are as unreadable as a wrong one.
    found = found === undefined || found === value ? value : '';
  }
  return found;
}

function refusal(request: FastifyRequest): Error | undefined {
  const coding = request.headers['content-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') {
    return unsupportedMediaType(`Request bodies must not be compressed (Content-Encoding: ${coding} is not accepted)`);
  }
  const charset = declaredCharset(request.headers['content-type']);
  // RFC 8259: JSON between systems is UTF-8. Reading another charset as UTF-8 would garble it silently.
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return unsupportedMediaType(
      `Request bodies must be JSON in UTF-8; charset=${charset || '(empty)'} is not accepted`,
    );
  }
  return undefined;
}

/**
 * Replaces Fastify's JSON parser by one that also enforces the rules above; its own parse (prototype-poisoning checks)
 * does the rest.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const refused = refusal(request);
    if (refused) return done(refused, undefined);
    const text = body as string;
    // axios (and so the AnyCrawl SDK) sends Content-Type: application/json with no body on DELETE
    // and body-less POSTs: an empty body is no body, and the route's schema decides whether it
    // needed one.
    if (text.trim() === '') return done(null, undefined);
    if (exceedsJsonDepth(text, MAX_JSON_DEPTH)) {
      return done(
        validationError([
          {
            field: '',
            code: 'too_deep',
            message: `The request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`,
          },
        ]),
        undefined,
      );
    }
    // Fastify's default JSON parser answers through done(); its return value carries nothing.
    void parseJson(request, text, done);
  });
}
