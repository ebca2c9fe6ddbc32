// A page as this service saves it (a scrape's answer, a crawl's or batch's result item) said as Firecrawl's v2
// Document: the formats under their v2 names, and metadata with Firecrawl's field names (docs/firecrawl.md).
import { absoluteScreenshotUrl } from '../screenshots/store.js';
import type { PageActionsResult } from '../scrape/pipeline.js';

export interface FirecrawlDocument {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  images?: string[];
  screenshot?: string;
  json?: unknown;
  summary?: string | null;
  warning?: string;
  /** What browser actions gave, in Firecrawl's shape (screenshots as absolute URLs). */
  actions?: {
    screenshots: string[];
    scrapes: Array<{ url: string; html: string }>;
    javascriptReturns: Array<{ type: string; value: unknown }>;
    pdfs: string[];
  };
  /** The changeTracking format: set by the scrape route after comparing (change-tracking.ts). */
  changeTracking?: unknown;
  metadata: Record<string, unknown>;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** og:* keys as Firecrawl names them (ogTitle, ogImage, ogSiteName, …). */
function openGraph(og: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (og === null || typeof og !== 'object') return out;
  for (const [key, value] of Object.entries(og as Record<string, unknown>)) {
    if (typeof value !== 'string' || key.includes(':')) continue;
    const name = `og${key
      .split('_')
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join('')}`;
    out[name] = value;
  }
  return out;
}

function errorMessage(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const message = (value as { message?: unknown }).message;
  return typeof message === 'string' ? message : undefined;
}

/**
 * `item`: a /v1 page (url, title, formats, metadata, timestamp). `scrapeId`: the job that made it (a scrape's id; a
 * crawl's or batch's pages name their job). `baseUrl` makes a screenshot's path absolute.
 */
export function toFirecrawlDocument(page: object, baseUrl: string, scrapeId?: string): FirecrawlDocument {
  const item = page as Record<string, unknown>;
  const meta = (item.metadata ?? {}) as Record<string, unknown>;
  const statusCode = typeof meta.status_code === 'number' ? meta.status_code : undefined;
  const warnings = [errorMessage(meta.json_error), errorMessage(meta.summary_error)].filter(
    (m): m is string => m !== undefined,
  );
  const metadata: Record<string, unknown> = {
    ...(str(meta.title) !== undefined ? { title: meta.title } : {}),
    ...(str(meta.description) !== undefined ? { description: meta.description } : {}),
    ...(str(meta.language) !== undefined ? { language: meta.language } : {}),
    ...(str(meta.keywords) !== undefined ? { keywords: meta.keywords } : {}),
    ...(str(meta.author) !== undefined ? { author: meta.author } : {}),
    ...(str(meta.publishedTime) !== undefined ? { publishedTime: meta.publishedTime } : {}),
    ...(str(meta.favicon) !== undefined ? { favicon: meta.favicon } : {}),
    ...(str(meta.canonical) !== undefined ? { canonical: meta.canonical } : {}),
    ...openGraph(meta.og),
    sourceURL: str(meta.source_url) ?? item.url,
    url: str(meta.final_url) ?? item.url,
    ...(statusCode !== undefined ? { statusCode } : {}),
    ...(str(meta.content_type) !== undefined ? { contentType: meta.content_type } : {}),
    ...(scrapeId !== undefined ? { scrapeId } : {}),
    proxyUsed: 'basic',
    ...(meta.cache_state === 'hit' || meta.cache_state === 'miss' ? { cacheState: meta.cache_state } : {}),
    ...(str(meta.cached_at) !== undefined ? { cachedAt: meta.cached_at } : {}),
    creditsUsed: 1,
    ...(statusCode !== undefined && statusCode >= 400 ? { error: `The page answered HTTP ${statusCode}` } : {}),
    ...(str(meta.engine) !== undefined ? { engine: meta.engine } : {}),
    ...(meta.extraction !== undefined ? { extraction: meta.extraction } : {}),
    ...(meta.llm_usage !== undefined ? { llmUsage: meta.llm_usage } : {}),
    ...(meta.ocr !== undefined ? { ocr: meta.ocr } : {}),
  };
  const doc: FirecrawlDocument = { metadata };
  if (typeof item.markdown === 'string') doc.markdown = item.markdown;
  if (typeof item.html === 'string') doc.html = item.html;
  if (typeof item.rawHtml === 'string') doc.rawHtml = item.rawHtml;
  if (Array.isArray(item.links)) doc.links = item.links as string[];
  if (Array.isArray(item.images)) doc.images = item.images as string[];
  if (typeof item.screenshot === 'string') doc.screenshot = absoluteScreenshotUrl(item.screenshot, baseUrl);
  const actions = item.actions as Partial<PageActionsResult> | undefined;
  if (actions !== null && typeof actions === 'object') {
    doc.actions = {
      screenshots: (actions.screenshots ?? []).map((path) => absoluteScreenshotUrl(path, baseUrl)),
      scrapes: actions.scrapes ?? [],
      javascriptReturns: actions.javascript_returns ?? [],
      // The pdf action is not offered here (docs/firecrawl.md): always empty.
      pdfs: [],
    };
  }
  if ('json' in item) doc.json = item.json;
  if ('summary' in item) doc.summary = item.summary as string | null;
  if (warnings.length > 0) doc.warning = warnings.join('; ');
  return doc;
}
