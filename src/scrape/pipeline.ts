// The per-page pipeline shared by scrapes and crawls: cache or fetch, then extract the requested formats.
import type { ContentFormat } from './extract/index.js';
import type { Extractor } from './extractor.js';
import { fetchPage } from './fetch/index.js';
import { type CachedPage, PageCache, cacheKey } from './page-cache.js';
import type { Format, PageOptions } from './schema.js';
import { iso } from '../util/time.js';

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
  engine: string;
  cache_state: 'hit' | 'miss';
  cached_at?: string;
  [key: string]: unknown;
}

/** One page's result: the crawl result item fields of decisions.md, also the scrape response data. */
export interface PageResult {
  url: string;
  title: string;
  markdown?: string;
  html?: string;
  rawHtml?: string;
  text?: string;
  links?: string[];
  metadata: PageMetadataOut;
  timestamp: string;
}

export interface PipelineDeps {
  cache: PageCache;
  extractor: Extractor;
  now: () => Date;
  userAgent: string;
  maxBytes: number;
  maxRedirects: number;
  allowPrivateAddresses: boolean;
  /** Used when a request omits max_age. */
  defaultMaxAgeMs: number;
}

export interface PageRunOptions {
  /** Crawls write the cache but never read it (interface 2.3 rule 4). */
  readCache: boolean;
  signal?: AbortSignal;
  /** See FetchOptions.onRedirect. */
  onRedirect?: (next: string) => Promise<boolean>;
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

async function obtainPage(url: string, options: PageOptions, deps: PipelineDeps, run: PageRunOptions): Promise<{ page: CachedPage; hit: boolean }> {
  const key = cacheKey(url, { engine: 'http', proxy: options.proxy });
  const maxAge = options.maxAgeMs ?? deps.defaultMaxAgeMs;
  if (run.readCache && maxAge > 0) {
    const cached = await deps.cache.read(key, maxAge, deps.now());
    if (cached) return { page: cached, hit: true };
  }
  const fetched = await fetchPage({
    url,
    timeoutMs: options.timeoutMs,
    proxy: options.proxy,
    allowPrivateAddresses: deps.allowPrivateAddresses,
    maxBytes: deps.maxBytes,
    maxRedirects: deps.maxRedirects,
    userAgent: deps.userAgent,
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
  // Error pages are not worth keeping: a retry should see the site again.
  if (options.storeInCache && fetched.statusCode >= 200 && fetched.statusCode < 300) {
    await deps.cache.write(key, page);
  }
  return { page, hit: false };
}

const CONTENT_FORMATS: ReadonlySet<Format> = new Set<Format>(['markdown', 'html', 'text', 'links']);

/** Fetches (or reads from cache) and extracts one page. Throws FetchError when the page cannot be had. */
export async function runPage(url: string, options: PageOptions, deps: PipelineDeps, run: PageRunOptions): Promise<PageResult> {
  const { page, hit } = await obtainPage(url, options, deps, run);
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

  const result: PageResult = { url: page.url, title: '', metadata: { title: '', ...metadataBase }, timestamp: iso(deps.now()) };
  if (looksLikeHtml(page)) {
    const extracted = await deps.extractor.extract({
      html: page.body,
      url: page.finalUrl,
      onlyMainContent: options.onlyMainContent,
      includeTags: options.includeTags,
      excludeTags: options.excludeTags,
      formats: wanted,
    });
    result.title = extracted.metadata.title;
    result.metadata = { ...extracted.metadata, ...metadataBase };
    if (extracted.markdown !== undefined) result.markdown = extracted.markdown;
    if (extracted.html !== undefined) result.html = extracted.html;
    if (extracted.text !== undefined) result.text = extracted.text;
    if (extracted.links !== undefined) result.links = extracted.links;
  } else {
    // Plain text, JSON and XML bodies: the text is the content.
    const text = page.body.trim();
    if (wanted.includes('markdown')) result.markdown = text;
    if (wanted.includes('text')) result.text = text;
    if (wanted.includes('html')) result.html = `<pre>${escapeHtml(text)}</pre>`;
    if (wanted.includes('links')) result.links = [];
  }
  if (options.formats.includes('rawHtml')) result.rawHtml = page.body;
  return result;
}
