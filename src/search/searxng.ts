// The SearXNG engine: a self-hosted SearXNG instance's JSON API (docs.searxng.org, "Search API"), read page by page
// until the wanted hits are in, with everything it answers treated as untrusted input.
//
// The instance's address is an operator setting, like DATABASE_URL or LLM_BASE_URL: it is not a target a caller
// chose, and it usually sits on a private network, so its requests do NOT go through the address guard (src/net).
import type { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import { BodyTooLargeError, destroyBody, readCappedBody } from '../fetch/body.js';
import { type SearchEngine, SearchEngineError, type SearchHit, type SearchQuery, type SearchSource } from './engine.js';
import { untilAborted } from '../util/until-aborted.js';
import { cutUtf16 as cut, isRecord } from '../util/text.js';

export interface SearxngEngineOptions {
  /** The instance, with or without a path prefix (`http://searxng:8080/`, `https://host/searxng/`). */
  baseUrl: string;
  /** The whole search, every page included. */
  timeoutMs: number;
  userAgent: string;
  /** A page's body is read this far at most (default 5 MB). */
  maxResponseBytes?: number;
}

export type SearxngEngine = SearchEngine & {
  /** Closes the engine's connections; searches after it fail as unavailable. */
  close(): Promise<void>;
};

const ENGINE = 'searxng';
const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
const MAX_URL_CHARS = 2048;
const MAX_TITLE_CHARS = 500;
const MAX_DESCRIPTION_CHARS = 2000;
/** Upstream engine names, categories and dates are short words; anything longer is garbage, cut. */
const MAX_WORD_CHARS = 100;
const MAX_ENGINES_PER_HIT = 20;
/** Unresponsive upstream engines named in an error message, at most. */
const MAX_NAMED_ENGINES = 5;

const CATEGORIES: Record<SearchSource, string> = { web: 'general', images: 'images', news: 'news' };

/** Where requests go, and the credentials the base URL carried (sent as a header, never shown). */
interface Instance {
  searchUrl: URL;
  authorization?: string;
}

interface SearchContext {
  instance: Instance;
  dispatcher: Dispatcher;
  headers: Record<string, string>;
  maxBytes: number;
  /** The caller's signal and the search's deadline in one. */
  signal: AbortSignal;
}

/** A page's results array (entries unchecked) and the upstream engines that failed, as SearXNG reported them. */
interface PageAnswer {
  results: unknown[];
  unresponsive: unknown;
}

export function createSearxngEngine(options: SearxngEngineOptions): SearxngEngine {
  const instance = parseBaseUrl(options.baseUrl);
  if (!(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)) {
    throw new RangeError(`SearXNG timeoutMs must be a positive number, not ${options.timeoutMs}`);
  }
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  // One instance, asked for page after page: keep-alive saves a handshake per page. The per-search deadline
  // (an abort signal) bounds every phase; undici's own timeouts are only a backstop.
  const agent = new Agent({
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 60_000,
    connections: 16,
    connect: { timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': options.userAgent };
  if (instance.authorization) headers['authorization'] = instance.authorization;
  let closing: Promise<void> | undefined;

  return {
    name: ENGINE,
    async search(_ownerId: string, query: SearchQuery, signal?: AbortSignal): Promise<SearchHit[]> {
      signal?.throwIfAborted();
      const deadline = AbortSignal.timeout(options.timeoutMs);
      const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
      const context: SearchContext = { instance, dispatcher: agent, headers, maxBytes, signal: combined };
      return collectHits(context, query, (err) => toEngineError(err, { caller: signal, deadline, options }));
    },
    // Idempotent: undici rejects a second close.
    close: () => (closing ??= agent.close()),
  };
}

/**
 * The instance's /search URL. A path prefix is kept (`/searxng` and `/searxng/` both give `/searxng/search`);
 * a query string or fragment in the setting is dropped. user:password in the URL become a Basic Authorization header
 * (an instance behind an authenticating proxy) and are removed from the URL, so no message can show them.
 */
function parseBaseUrl(raw: string): Instance {
  let base: URL;
  try {
    base = new URL(raw);
  } catch {
    throw new TypeError('The SearXNG base URL is not a valid URL');
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new TypeError(`The SearXNG base URL must be http:// or https://, not ${base.protocol}`);
  }
  let authorization: string | undefined;
  if (base.username || base.password) {
    const user = decodeURIComponent(base.username);
    const password = decodeURIComponent(base.password);
    authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    base.username = '';
    base.password = '';
  }
  base.search = '';
  base.hash = '';
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return { searchUrl: new URL('search', base), ...(authorization ? { authorization } : {}) };
}

/**
 * SearXNG accepts `xx`, `xxx` or either with a two-letter region (`^[a-z]{2,3}(-[a-zA-Z]{2})?$`) and answers 400 to
 * anything else, so the tag is rebuilt from its primary subtag and a region: the query's country when given (it says
 * where, the tag's own region only hints), else the tag's own two-letter region. Script and other subtags are
 * dropped (`zh-Hant-TW` → `zh-TW`).
 *
 * A country without a language gives no `language` parameter: SearXNG has no region-only filter, and the instance's
 * own default (`search.default_lang`, usually `auto`: detected from the query's words) is a better guess than `all`,
 * which would override what the operator configured. The same holds when neither is given.
 */
function searxngLanguage(lang: string | undefined, country: string | undefined): string | undefined {
  if (!lang) return undefined;
  const [primary = '', ...rest] = lang.split(/[-_]/);
  if (!/^[a-z]{2,3}$/i.test(primary)) return undefined;
  const ownRegion = rest.find((part) => /^[a-z]{2}$/i.test(part));
  const region = country && /^[a-z]{2}$/i.test(country) ? country : ownRegion;
  return region ? `${primary.toLowerCase()}-${region.toUpperCase()}` : primary.toLowerCase();
}

function pageUrl(instance: Instance, query: SearchQuery, pageno: number): URL {
  const url = new URL(instance.searchUrl);
  const params = url.searchParams;
  params.set('q', query.query);
  params.set('format', 'json');
  params.set('pageno', String(pageno));
  params.set('categories', CATEGORIES[query.source]);
  const language = searxngLanguage(query.lang, query.country);
  if (language) params.set('language', language);
  if (query.timeRange) params.set('time_range', query.timeRange);
  if (query.safeSearch !== undefined) params.set('safesearch', String(query.safeSearch));
  return url;
}

/**
 * Pages 1, 2, … up to `query.pages`, until offset+limit distinct hits are in or a page brings nothing new. Page 1
 * failing fails the search; a later page failing (or the deadline passing during it) ends it with what page 1 and
 * the others before brought. A caller's abort always propagates.
 */
async function collectHits(
  context: SearchContext,
  query: SearchQuery,
  toError: (err: unknown) => unknown,
): Promise<SearchHit[]> {
  const wanted = query.offset + query.limit;
  const hits: SearchHit[] = [];
  const seen = new Set<string>();
  for (let pageno = 1; pageno <= query.pages && hits.length < wanted; pageno++) {
    let answer: PageAnswer;
    try {
      answer = await fetchPage(context, pageUrl(context.instance, query, pageno));
    } catch (err) {
      const error = toError(err);
      if (pageno === 1 || !(error instanceof SearchEngineError)) throw error;
      break;
    }
    if (pageno === 1 && answer.results.length === 0) {
      const failed = unresponsiveEngines(answer.unresponsive);
      if (failed) throw new SearchEngineError(ENGINE, 'unavailable', `SearXNG found nothing: ${failed}`);
    }
    if (addHits(hits, seen, answer.results, wanted) === 0) break;
  }
  return hits.slice(query.offset, wanted);
}

/** Adds the page's valid, new hits in order, up to `wanted` in all; answers how many it added. */
function addHits(hits: SearchHit[], seen: Set<string>, entries: unknown[], wanted: number): number {
  let added = 0;
  for (const entry of entries) {
    if (hits.length >= wanted) break;
    const hit = toHit(entry);
    if (!hit || seen.has(hit.url)) continue;
    seen.add(hit.url);
    hits.push(hit);
    added++;
  }
  return added;
}

/** One GET of the instance: 2xx with a JSON body that has a `results` array, or a thrown error. */
async function fetchPage(context: SearchContext, url: URL): Promise<PageAnswer> {
  const response = await untilAborted(
    request(url, { method: 'GET', dispatcher: context.dispatcher, headers: context.headers, signal: context.signal }),
    context.signal,
    (late) => destroyBody(late.body),
  );
  const { statusCode, body } = response;
  if (statusCode < 200 || statusCode > 299) {
    destroyBody(body);
    throw new SearchEngineError(ENGINE, 'unavailable', statusMessage(statusCode));
  }
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > context.maxBytes) {
    destroyBody(body);
    throw new BodyTooLargeError(context.maxBytes);
  }
  return parseAnswer(await readBody(body, context));
}

/** The body, capped; a stalled body ends with the signal (undici destroys it, this race covers the rest). */
function readBody(body: Readable, context: SearchContext): Promise<Buffer> {
  return untilAborted(readCappedBody(body, [], context.maxBytes), context.signal, () => undefined).catch(
    (err: unknown) => {
      destroyBody(body);
      throw err;
    },
  );
}

function parseAnswer(bytes: Buffer): PageAnswer {
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new SearchEngineError(ENGINE, 'unavailable', 'SearXNG answered a body that is not JSON');
  }
  if (!isRecord(data) || !Array.isArray(data['results'])) {
    throw new SearchEngineError(ENGINE, 'unavailable', 'SearXNG answered JSON without a results array');
  }
  return { results: data['results'] as unknown[], unresponsive: data['unresponsive_engines'] };
}

function statusMessage(status: number): string {
  if (status === 403) {
    return 'SearXNG answered 403 Forbidden: the instance must enable the json format (add "json" to search.formats in its settings.yml)';
  }
  if (status === 429) {
    return 'SearXNG answered 429 Too Many Requests: its limiter is refusing this service (turn server.limiter off or add this service to its pass list)';
  }
  if (status >= 300 && status < 400) {
    return `SearXNG answered a redirect (${status}), which is not followed: check the base URL`;
  }
  return `SearXNG answered HTTP ${status}`;
}

/**
 * "upstream engines failed: google (CAPTCHA), bing (timeout)" from SearXNG's `unresponsive_engines` ([name, reason]
 * pairs), or undefined when none is named. Untrusted: strings only, cut short, a few named.
 */
function unresponsiveEngines(value: unknown): string | undefined {
  if (!Array.isArray(value)) return undefined;
  const named: string[] = [];
  for (const pair of value) {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string') continue;
    const reason = typeof pair[1] === 'string' && pair[1] ? ` (${cut(pair[1], MAX_WORD_CHARS)})` : '';
    named.push(`${cut(pair[0], MAX_WORD_CHARS)}${reason}`);
  }
  if (named.length === 0) return undefined;
  const more = named.length > MAX_NAMED_ENGINES ? ` and ${named.length - MAX_NAMED_ENGINES} more` : '';
  return `its upstream engines failed: ${named.slice(0, MAX_NAMED_ENGINES).join(', ')}${more}`;
}

/** A result entry as a hit, or undefined when it has no usable http(s) URL. */
function toHit(entry: unknown): SearchHit | undefined {
  if (!isRecord(entry)) return undefined;
  const url = httpUrl(entry['url']);
  if (!url) return undefined;
  return {
    title: text(entry['title'], MAX_TITLE_CHARS),
    url,
    description: text(entry['content'], MAX_DESCRIPTION_CHARS),
    source: ENGINE,
    extra: hitExtra(entry, url),
  };
}

/** JSON values only, each checked: `engines` always (from `engines`, else `engine`), the rest when present and sane. */
function hitExtra(entry: Record<string, unknown>, url: string): Record<string, unknown> {
  const extra: Record<string, unknown> = { engines: engineNames(entry) };
  const score = entry['score'];
  if (typeof score === 'number' && Number.isFinite(score)) extra['score'] = score;
  const published = entry['publishedDate'];
  if (typeof published === 'string' && published.length <= MAX_WORD_CHARS && !Number.isNaN(Date.parse(published))) {
    extra['published_at'] = published;
  }
  // Image URLs may be protocol-relative (`//cdn/…`); they are read against the hit's own URL.
  const image = httpUrl(entry['img_src'], url);
  if (image) extra['img_src'] = image;
  const thumbnail = httpUrl(entry['thumbnail_src'], url);
  if (thumbnail) extra['thumbnail_src'] = thumbnail;
  const category = entry['category'];
  if (typeof category === 'string' && category) extra['category'] = cut(category, MAX_WORD_CHARS);
  return extra;
}

function engineNames(entry: Record<string, unknown>): string[] {
  const list = Array.isArray(entry['engines']) ? (entry['engines'] as unknown[]) : [entry['engine']];
  const names = list.filter((name): name is string => typeof name === 'string' && name !== '');
  return [...new Set(names.map((name) => cut(name, MAX_WORD_CHARS)))].slice(0, MAX_ENGINES_PER_HIT);
}

/** The normalised href of an http(s) URL of at most MAX_URL_CHARS, or undefined. */
function httpUrl(value: unknown, base?: string): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_URL_CHARS) return undefined;
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.href.length <= MAX_URL_CHARS ? url.href : undefined;
}

/** A string field trimmed and cut to `max`; anything else (a number, null, an object) is ''. */
function text(value: unknown, max: number): string {
  return typeof value === 'string' ? cut(value.trim(), max) : '';
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED']);

/**
 * What a failed page becomes: the caller's abort as is (the caller asked for it, it is no engine failure), the
 * deadline as a timeout, anything else as unavailable. Messages name the failure, never the address: they may reach
 * API clients, and the instance usually sits on a private network.
 */
function toEngineError(
  err: unknown,
  context: { caller: AbortSignal | undefined; deadline: AbortSignal; options: SearxngEngineOptions },
): unknown {
  const { caller, deadline, options } = context;
  if (caller?.aborted) return caller.reason;
  if (err instanceof SearchEngineError) return err;
  const code = errorCode(err);
  if (deadline.aborted || TIMEOUT_CODES.has(code)) {
    return withCause(
      new SearchEngineError(ENGINE, 'timeout', `SearXNG did not answer within ${options.timeoutMs} ms`),
      err,
    );
  }
  return withCause(new SearchEngineError(ENGINE, 'unavailable', failureMessage(err, code)), err);
}

function failureMessage(err: unknown, code: string): string {
  if (err instanceof BodyTooLargeError) return `SearXNG answered more than ${err.maxBytes} bytes`;
  if (code === 'ECONNREFUSED') return 'SearXNG refused the connection (ECONNREFUSED): is the instance running?';
  if (DNS_CODES.has(code)) return `SearXNG's host name could not be resolved (${code})`;
  if (RESET_CODES.has(code)) return `SearXNG closed the connection before answering (${code})`;
  if (code === 'UND_ERR_DESTROYED' || code === 'UND_ERR_CLOSED') return 'The SearXNG engine is closed';
  return `SearXNG could not be reached (${code || (err instanceof Error ? err.name : 'unknown error')})`;
}

/** The code of a socket or undici error; Node's happy-eyeballs AggregateError carries its first attempt's. */
function errorCode(err: unknown): string {
  if (!isRecord(err)) return '';
  if (typeof err['code'] === 'string') return err['code'];
  const errors = err['errors'];
  return Array.isArray(errors) && errors.length > 0 ? errorCode(errors[0]) : '';
}

/** Keeps the low-level error for logs (Error.cause); engine.ts's constructor takes no cause. */
function withCause(error: SearchEngineError, cause: unknown): SearchEngineError {
  error.cause = cause;
  return error;
}
