// The per-page pipeline shared by scrapes and crawls: cache, HTTP fetch or browser render, then extract the requested
// formats.
import {
  type ActionOutputs,
  type BrowserEngineName,
  BrowserError,
  type BrowserPool,
  type RenderRequest,
  type SelectorWait,
} from '../browser/types.js';
import {
  chooseProxy,
  ProxyNotAllowedError,
  type ChosenProxy,
  type ProxyPolicy,
  type Resolver,
} from '../net/address-guard.js';
import type { ScreenshotStore } from '../screenshots/store.js';
import { iso } from '../util/time.js';
import { looksLikeAppShell } from './app-shell.js';
import { type ContentFormat, type ExtractResult, SEARCH_TEXT_MAX_CHARS, type StructuredWork } from './extract/index.js';
import type { MarkdownOcr } from '../ocr/markdown.js';
import { summarizeText } from './structured/rules/summary.js';
import { completeStructured, nullsFor, type StructuredDeps, structuredWork } from './structured/page-formats.js';
import type { Extractor } from './extractor.js';
import { FetchError, fetchPage } from '../fetch/index.js';
import { type CachedPage, PageCache, cacheKey } from './page-cache.js';
import type { Format, PageOptions } from './schema.js';
import { browserActions } from './actions-schema.js';

export interface PageMetadataOut {
  title: string;
  description?: string;
  language?: string;
  canonical?: string;
  og?: Record<string, string>;
  status_code: number;
  content_type: string;
  source_url: string;
  final_url: string;
  /** Which engine produced the page: `cheerio` (plain HTTP), `playwright` or `puppeteer`. */
  engine: string;
  cache_state: 'hit' | 'miss';
  cached_at?: string;
  [key: string]: unknown;
}

/**
 * One page's result: the crawl result item fields (docs/api.md, "GET /v1/crawl/{jobId}"), also the scrape response
 * data.
 */
export interface PageResult {
  url: string;
  title: string;
  markdown?: string;
  html?: string;
  rawHtml?: string;
  text?: string;
  links?: string[];
  images?: string[];
  /** Path of the screenshot route (`/v1/screenshots/<id>`); responses make it absolute. */
  screenshot?: string;
  /** The `json` format: null when it could not be made (metadata.json_error says why). */
  json?: Record<string, unknown> | null;
  /** The `summary` format: null when it could not be made (metadata.summary_error says why). */
  summary?: string | null;
  /** What the browser actions gave (present when the page had actions). */
  actions?: PageActionsResult;
  metadata: PageMetadataOut;
  timestamp: string;
}

/** The `actions` member of a page's result: screenshot routes, DOM snapshots, script values, in action order. */
export interface PageActionsResult {
  /** Paths of the screenshot route (`/v1/screenshots/<id>`); responses make them absolute. */
  screenshots: string[];
  scrapes: Array<{ url: string; html: string }>;
  javascript_returns: Array<{ type: string; value: unknown }>;
}

/** The user agent of a `mobile` page: the service's own, marked as a phone's the way sites test for one ("Mobile"). */
export function mobileUserAgent(userAgent: string): string {
  return /\bMobi/.test(userAgent) ? userAgent : `${userAgent} Mobile`;
}

/** The user agent a page is fetched or rendered with (a `headers` User-Agent still wins, in the request itself). */
function pageUserAgent(options: PageOptions, deps: PipelineDeps): string {
  return options.mobile ? mobileUserAgent(deps.userAgent) : deps.userAgent;
}

export interface PipelineDeps {
  cache: PageCache;
  extractor: Extractor;
  now: () => Date;
  userAgent: string;
  maxBytes: number;
  maxRedirects: number;
  allowPrivateAddresses: boolean;
  /**
   * OUTBOUND_PROXY and REQUEST_PROXY_ALLOWLIST. Absent: no operator proxy, no allow-list, and a
   * request's proxy may be private only when `allowPrivateAddresses` is true.
   */
  proxies?: ProxyPolicy;
  /** Test hook: name resolution of the address guard; default DNS. */
  resolve?: Resolver;
  /** Used when a request omits max_age. */
  defaultMaxAgeMs: number;
  /** Absent when no browser is installed: browser-only requests were refused at validation then. */
  browser?: BrowserPool;
  /** The engine `auto` renders with. */
  autoBrowserEngine: BrowserEngineName;
  screenshots: ScreenshotStore;
  /** The `json` and `summary` formats: a model when one is configured, else the built-in rules. */
  structured?: StructuredDeps;
  /** `ocr_options`: the text of markdown images (absent when OCR_ENABLED is false: requests were refused then). */
  ocr?: MarkdownOcr;
}

export interface PageRunOptions {
  /** Crawls write the cache but never read it (docs/api.md, "POST /v1/crawl"). */
  readCache: boolean;
  signal?: AbortSignal;
  /** See FetchOptions.onRedirect. A browser follows redirects itself; its final URL is offered after the render. */
  onRedirect?: (next: string) => Promise<boolean>;
  /** Whose job a screenshot belongs to (it is deleted with the job). */
  job?: { ownerId: string; jobId: string };
  /**
   * Pages of one crawl render in a shared browser context (RenderRequest.reuseKey): the context
   * and renderer process are made once per job instead of once per page.
   */
  browserSessionKey?: string;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

function looksLikeHtml(page: CachedPage): boolean {
  if (HTML_TYPES.has(page.contentType)) return true;
  if (page.contentType !== '') return false;
  return /^\s*(<!doctype html|<html|<head|<body|<!--)/i.test(page.body.slice(0, 512));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

/** The proxy a page goes through under the deployment's proxy settings (see net/proxy-policy.ts). */
function pageProxy(url: string, options: PageOptions, deps: PipelineDeps): ChosenProxy | undefined {
  try {
    return chooseProxy(options.proxy, deps.proxies ?? { allowlist: [], allowPrivate: deps.allowPrivateAddresses });
  } catch (err) {
    // A job stored before the settings changed; new requests are refused at validation.
    if (err instanceof ProxyNotAllowedError) throw new FetchError('PROXY_ERROR', err.message, url, { cause: err });
    throw err;
  }
}

/** The HTTP engine: the page cache, else a plain fetch. */
async function fetchOverHttp(
  url: string,
  options: PageOptions,
  deps: PipelineDeps,
  run: PageRunOptions,
): Promise<Obtained> {
  const key = cacheKey(url, { engine: options.mobile ? 'http:mobile' : 'http', proxy: options.proxy });
  // A page fetched with the request's own headers (a cookie, a token) is that request's alone: not cached.
  const cacheable = options.headers === undefined;
  const cached = cacheable ? await readCache(key, options, deps, run) : undefined;
  if (cached) return { page: cached, hit: true };
  const proxy = pageProxy(url, options, deps);
  const fetched = await fetchPage({
    url,
    timeoutMs: options.timeoutMs,
    proxy: proxy?.url,
    proxyAllowPrivate: proxy?.allowPrivate,
    allowPrivateAddresses: deps.allowPrivateAddresses,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
    maxBytes: deps.maxBytes,
    maxRedirects: deps.maxRedirects,
    userAgent: pageUserAgent(options, deps),
    ...(options.headers ? { headers: options.headers } : {}),
    signal: run.signal,
    onRedirect: run.onRedirect,
  });
  const page: CachedPage = {
    url: fetched.sourceUrl,
    finalUrl: fetched.finalUrl,
    statusCode: fetched.statusCode,
    contentType: fetched.contentType,
    headers: fetched.headers,
    body: fetched.body,
    engine: 'cheerio',
    cachedAt: iso(deps.now()),
  };
  if (cacheable) await writeCache(key, page, options, deps);
  return { page, hit: false };
}

interface Obtained {
  page: CachedPage;
  hit: boolean;
  screenshot?: Buffer;
  actions?: ActionOutputs;
}

async function readCache(
  key: string,
  options: PageOptions,
  deps: PipelineDeps,
  run: PageRunOptions,
): Promise<CachedPage | undefined> {
  const maxAge = options.maxAgeMs ?? deps.defaultMaxAgeMs;
  if (!run.readCache || maxAge <= 0) return undefined;
  return deps.cache.read(key, maxAge, deps.now());
}

async function writeCache(key: string, page: CachedPage, options: PageOptions, deps: PipelineDeps): Promise<void> {
  // Error pages are not worth keeping: a retry should see the site again.
  if (options.storeInCache && page.statusCode >= 200 && page.statusCode < 300) await deps.cache.write(key, page);
}

const SCREENSHOT_FORMATS: ReadonlySet<Format> = new Set<Format>(['screenshot', 'screenshot@fullPage']);

/** Options that only a browser can honour; with `auto` they send the page straight to one. */
export function needsBrowser(options: PageOptions): boolean {
  return (
    options.formats.some((f) => SCREENSHOT_FORMATS.has(f)) ||
    options.waitFor !== undefined ||
    options.waitUntil !== undefined ||
    options.waitForSelector !== undefined ||
    options.actions.length > 0
  );
}

function selectorWaits(input: PageOptions['waitForSelector']): SelectorWait[] | undefined {
  if (input === undefined) return undefined;
  const entries = Array.isArray(input) ? input : [input];
  return entries.map((entry) =>
    typeof entry === 'string'
      ? { selector: entry, state: 'visible' as const }
      : {
          selector: entry.selector,
          state: entry.state ?? 'visible',
          ...(entry.timeout !== undefined ? { timeoutMs: entry.timeout } : {}),
        },
  );
}

/** The browser engines: render in Chromium (the cache is used only when no screenshot is asked for). */
async function renderInBrowser(
  engine: BrowserEngineName,
  url: string,
  options: PageOptions,
  deps: PipelineDeps,
  run: PageRunOptions,
): Promise<Obtained> {
  const browser = deps.browser;
  if (!browser) {
    throw new BrowserError(
      'BROWSER_UNAVAILABLE',
      'No browser is installed for this service: install Chromium (apt-get install -y chromium) or set CHROMIUM_PATH',
      url,
    );
  }
  const screenshot = options.formats.includes('screenshot@fullPage')
    ? 'fullPage'
    : options.formats.includes('screenshot')
      ? 'viewport'
      : undefined;
  const proxy = pageProxy(url, options, deps);
  const request: RenderRequest = {
    url,
    engine,
    timeoutMs: options.timeoutMs,
    waitUntil: options.waitUntil,
    waitFor: options.waitFor,
    waitForSelector: selectorWaits(options.waitForSelector),
    screenshot,
    ...(options.actions.length > 0 ? { actions: browserActions(options.actions) } : {}),
    ...(options.mobile ? { mobile: true } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(proxy ? { proxy: proxy.url, proxyAllowPrivate: proxy.allowPrivate } : {}),
    userAgent: pageUserAgent(options, deps),
    allowPrivateAddresses: deps.allowPrivateAddresses,
    signal: run.signal,
    ...(run.browserSessionKey !== undefined ? { reuseKey: run.browserSessionKey } : {}),
  };
  // What the waits make the page show is part of what was fetched, so it is part of the key.
  const key = cacheKey(url, {
    engine: `${engine}:${JSON.stringify([request.waitUntil, request.waitFor, request.waitForSelector, options.mobile])}`,
    proxy: options.proxy,
  });
  // Actions act on the live page (and give what only a live page can), and a page fetched with the request's own
  // headers is that request's alone: neither is answered from, nor kept in, the cache.
  const cacheable = request.actions === undefined && request.headers === undefined;
  if (!screenshot && cacheable) {
    const cached = await readCache(key, options, deps, run);
    if (cached) return { page: cached, hit: true };
  }
  const rendered = await browser.render(request);
  if (run.onRedirect && rendered.finalUrl !== rendered.sourceUrl && !(await run.onRedirect(rendered.finalUrl))) {
    throw new FetchError(
      'REDIRECT_DUPLICATE',
      `The page led to ${rendered.finalUrl}, which this job has already taken`,
      rendered.finalUrl,
    );
  }
  const page: CachedPage = {
    url: rendered.sourceUrl,
    finalUrl: rendered.finalUrl,
    statusCode: rendered.statusCode,
    contentType: rendered.contentType,
    headers: rendered.headers,
    body: rendered.html,
    engine: rendered.engine,
    cachedAt: iso(deps.now()),
  };
  if (cacheable) await writeCache(key, page, options, deps);
  return {
    page,
    hit: false,
    ...(rendered.screenshot ? { screenshot: rendered.screenshot } : {}),
    ...(rendered.actions ? { actions: rendered.actions } : {}),
  };
}

/**
 * Engine choice: `cheerio` is plain HTTP; `playwright`/`puppeteer` always render; `auto` renders
 * when an option needs a browser, else fetches over HTTP and renders only an app shell (the HTTP
 * page is kept when rendering it fails: auto never does worse than HTTP).
 */
async function obtainPage(
  url: string,
  options: PageOptions,
  deps: PipelineDeps,
  run: PageRunOptions,
): Promise<Obtained> {
  if (options.engine === 'playwright' || options.engine === 'puppeteer')
    return renderInBrowser(options.engine, url, options, deps, run);
  if (options.engine === 'auto' && deps.browser && needsBrowser(options))
    return renderInBrowser(deps.autoBrowserEngine, url, options, deps, run);
  const plain = await fetchOverHttp(url, options, deps, run);
  if (options.engine !== 'auto' || !deps.browser || !looksLikeHtml(plain.page) || !looksLikeAppShell(plain.page.body))
    return plain;
  try {
    // The HTTP hop already took any redirect, so the browser starts from where it ended.
    const rendered = await renderInBrowser(deps.autoBrowserEngine, plain.page.finalUrl, options, deps, {
      ...run,
      onRedirect: undefined,
    });
    return { ...rendered, page: { ...rendered.page, url: plain.page.url } };
  } catch (error) {
    if (run.signal?.aborted) throw error;
    return plain;
  }
}

/** The structured formats of a body that is not HTML (plain text, JSON, XML): its text is all there is to read. */
function structuredOfText(text: string, work: StructuredWork | undefined): Partial<ExtractResult> {
  if (work === undefined) return {};
  if (work.modelSource) return { modelContent: text };
  return {
    ...(work.json ? { json: nullsFor(work.json) } : {}),
    ...(work.summary ? { summary: summarizeText(text) } : {}),
  };
}

const CONTENT_FORMATS: ReadonlySet<Format> = new Set<Format>(['markdown', 'html', 'text', 'links', 'images']);

/** Fetches (or reads from cache) and extracts one page. Throws FetchError when the page cannot be had. */
export async function runPage(
  url: string,
  options: PageOptions,
  deps: PipelineDeps,
  run: PageRunOptions,
): Promise<PageResult> {
  return (await runPageForIndex(url, options, deps, run, false)).page;
}

/** A page and, for the search index, the plain text of its content (absent when it was not asked for). */
export interface IndexedPageResult {
  page: PageResult;
  searchText?: string;
}

/**
 * runPage, also giving the text the search index keeps of the page when `withSearchText` (kept out of the result,
 * which goes to clients as it is).
 */
export async function runPageForIndex(
  url: string,
  options: PageOptions,
  deps: PipelineDeps,
  run: PageRunOptions,
  withSearchText: boolean,
): Promise<IndexedPageResult> {
  return resultOfPage(url, await obtainPage(url, options, deps, run), options, deps, run, withSearchText);
}

/**
 * The formats of a page already in hand, not fetched: a file a client uploaded (Firecrawl's POST /v2/parse), with its
 * file name as the URL. Never a screenshot (nothing was rendered), never cached; OCR reads the page's images as usual.
 */
export async function runGivenPage(page: CachedPage, options: PageOptions, deps: PipelineDeps, run: PageRunOptions) {
  return (await resultOfPage(page.url, { page, hit: false }, options, deps, run, false)).page;
}

/** Keeps a PNG with the page's job (deleted with it); its route's path. */
async function saveScreenshot(png: Buffer, deps: PipelineDeps, run: PageRunOptions): Promise<string> {
  if (!run.job) throw new Error('A screenshot was taken outside of a job');
  const stored = await deps.screenshots.save({
    ownerId: run.job.ownerId,
    jobId: run.job.jobId,
    png,
    now: iso(deps.now()),
  });
  return stored.path;
}

async function resultOfPage(
  url: string,
  { page, hit, screenshot, actions }: Obtained,
  options: PageOptions,
  deps: PipelineDeps,
  run: PageRunOptions,
  withSearchText: boolean,
): Promise<IndexedPageResult> {
  let searchText: string | undefined;
  const wanted = options.formats.filter((f): f is ContentFormat & Format => CONTENT_FORMATS.has(f));
  const metadataBase = {
    status_code: page.statusCode,
    content_type: page.contentType,
    source_url: page.url,
    final_url: page.finalUrl,
    engine: page.engine,
    cache_state: hit ? ('hit' as const) : ('miss' as const),
    ...(hit ? { cached_at: page.cachedAt } : {}),
  };

  const result: PageResult = {
    url: page.url,
    title: '',
    metadata: { title: '', ...metadataBase },
    timestamp: iso(deps.now()),
  };
  const work = structuredWork(options, deps.structured);
  let structuredInput: Partial<ExtractResult>;
  if (looksLikeHtml(page)) {
    const extracted = await deps.extractor.extract(
      {
        html: page.body,
        url: page.finalUrl,
        onlyMainContent: options.onlyMainContent,
        includeTags: options.includeTags,
        excludeTags: options.excludeTags,
        formats: wanted,
        ...(work ? { structured: work } : {}),
        ...(withSearchText ? { searchText: true } : {}),
      },
      run.signal,
    );
    searchText = extracted.searchText;
    structuredInput = extracted;
    result.title = extracted.metadata.title;
    result.metadata = { ...extracted.metadata, ...metadataBase };
    if (extracted.markdown !== undefined) result.markdown = extracted.markdown;
    if (extracted.html !== undefined) result.html = extracted.html;
    if (extracted.text !== undefined) result.text = extracted.text;
    if (extracted.links !== undefined) result.links = extracted.links;
    if (extracted.images !== undefined) result.images = extracted.images;
  } else {
    // Plain text, JSON and XML bodies: the text is the content.
    const text = page.body.trim();
    if (wanted.includes('markdown')) result.markdown = text;
    if (wanted.includes('text')) result.text = text;
    if (wanted.includes('html')) result.html = `<pre>${escapeHtml(text)}</pre>`;
    if (wanted.includes('links')) result.links = [];
    if (wanted.includes('images')) result.images = [];
    if (withSearchText) searchText = text.slice(0, SEARCH_TEXT_MAX_CHARS);
    structuredInput = structuredOfText(text, work);
  }
  const structured = await completeStructured(
    options,
    structuredInput,
    {
      url: page.finalUrl,
      ...(typeof result.metadata.language === 'string' ? { language: result.metadata.language } : {}),
    },
    deps.structured,
    run.signal,
  );
  if (structured) {
    if (structured.json !== undefined) result.json = structured.json;
    if (structured.summary !== undefined) result.summary = structured.summary;
    result.metadata = { ...result.metadata, ...structured.metadata };
  }
  if (options.ocr && result.markdown !== undefined && deps.ocr) {
    const proxy = pageProxy(url, options, deps);
    const ocr = await deps.ocr.enhance(result.markdown, page.finalUrl, {
      userAgent: deps.userAgent,
      allowPrivateAddresses: deps.allowPrivateAddresses,
      ...(proxy ? { proxy } : {}),
      ...(deps.resolve ? { resolve: deps.resolve } : {}),
      ...(run.signal ? { signal: run.signal } : {}),
    });
    result.markdown = ocr.markdown;
    result.metadata = { ...result.metadata, ocr: ocr.report };
  }
  if (options.formats.includes('rawHtml')) result.rawHtml = page.body;
  if (screenshot) result.screenshot = await saveScreenshot(screenshot, deps, run);
  if (actions) {
    const screenshots: string[] = [];
    for (const png of actions.screenshots) screenshots.push(await saveScreenshot(png, deps, run));
    result.actions = { screenshots, scrapes: actions.scrapes, javascript_returns: actions.javascriptReturns };
  }
  return searchText === undefined ? { page: result } : { page: result, searchText };
}
