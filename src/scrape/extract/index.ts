// Extraction step of the scrape pipeline: page HTML in, requested formats (markdown, html, text, links) and metadata
// out.
import { absolutizeTree, resolveBaseUrl } from './absolutize.js';
import { removeNoise } from './clean.js';
import { findAll, getAttr, parsePage, setAttr, type Element, type Page } from './dom.js';
import { extractLinks } from './links.js';
import { extractMainContent } from './main-content.js';
import { toMarkdown } from './markdown.js';
import { extractMetadata, type PageMetadata } from './metadata.js';
import { applyExcludeTags, applyIncludeTags, isValidCssSelector } from './selectors.js';
import { toText } from './text.js';
import render from 'dom-serializer';

export type { PageMetadata } from './metadata.js';
export { isValidCssSelector };

export type ContentFormat = 'markdown' | 'html' | 'text' | 'links';

export interface ExtractInput {
  /** Decoded page HTML. */
  html: string;
  /** Final URL of the page (after redirects); base for relative links unless the page has a <base href>. */
  url: string;
  onlyMainContent: boolean;
  /** CSS selectors: when given, only matching elements are kept (before main-content extraction and conversion). */
  includeTags?: string[];
  /** CSS selectors: matching elements are removed before extraction/conversion. */
  excludeTags?: string[];
  /** Only these are computed. */
  formats: ReadonlyArray<ContentFormat>;
}

export interface ExtractResult {
  metadata: PageMetadata;
  markdown?: string;
  /** Cleaned HTML of the same content, every href/src/srcset absolute. */
  html?: string;
  /** Plain text of the same content, one line per block, whitespace collapsed. */
  text?: string;
  /** Every http(s) link of the whole page, absolute, without fragment, de-duplicated, in document order. */
  links?: string[];
}

/** Lazy-loading markup keeps the real image in data-* attributes; promote it so the image survives conversion. */
function promoteLazyImages(root: Element): void {
  const lazy = (e: Element): boolean =>
    e.name === 'img' &&
    (getAttr(e, 'data-src') !== null || getAttr(e, 'data-lazy-src') !== null || getAttr(e, 'data-original') !== null);
  for (const img of findAll(root, lazy)) {
    const src = getAttr(img, 'src');
    if (src && !src.startsWith('data:')) continue;
    const real = getAttr(img, 'data-src') ?? getAttr(img, 'data-lazy-src') ?? getAttr(img, 'data-original');
    if (real) setAttr(img, 'src', real);
  }
}

/**
 * Noise removal and the client's selectors. In main-content mode site chrome is stripped too, except
 * when include_tags picked the content explicitly: a client asking for `nav` gets the nav.
 */
function prepare(page: Page, input: ExtractInput, mode: 'main' | 'fallback' | 'full'): void {
  const picked = hasSelectors(input.includeTags);
  removeNoise(page, { keepNoscript: mode === 'main', stripChrome: mode === 'main' && !picked });
  applyExcludeTags(page, input.excludeTags);
  applyIncludeTags(page, input.includeTags);
}

function hasSelectors(list: ReadonlyArray<string> | undefined): boolean {
  return (list ?? []).some(isValidCssSelector);
}

function emptyResult(formats: ReadonlyArray<ContentFormat>): ExtractResult {
  const result: ExtractResult = { metadata: { title: '', og: {} } };
  if (formats.includes('markdown')) result.markdown = '';
  if (formats.includes('html')) result.html = '';
  if (formats.includes('text')) result.text = '';
  if (formats.includes('links')) result.links = [];
  return result;
}

export function extractPage(input: ExtractInput): ExtractResult {
  const formats = input.formats;
  const html = typeof input.html === 'string' ? input.html : '';
  const result: ExtractResult = emptyResult(formats);
  // Every step is guarded: a converter bug on one odd page must not fail the scrape, and what was
  // computed before the failure (metadata, links) is still returned.
  let page: Page;
  let base: string | undefined;
  try {
    page = parsePage(html);
    base = resolveBaseUrl(page, input.url);
    result.metadata = extractMetadata(page, base);
    // Links cover the whole page, so they are read before anything is removed.
    if (formats.includes('links')) result.links = extractLinks(page, base);
  } catch {
    return result;
  }

  const wantsContent = formats.includes('markdown') || formats.includes('html') || formats.includes('text');
  if (!wantsContent) return result;
  try {
    const root = contentRoot(page, html, input, result.metadata.title);
    promoteLazyImages(root);
    absolutizeTree(root, base);
    const wantsHtml = formats.includes('html');
    const wantsText = formats.includes('text');
    // The markdown conversion collapses whitespace in the tree: in place when nothing reads it after.
    if (formats.includes('markdown')) result.markdown = toMarkdown(root, !wantsHtml && !wantsText);
    if (wantsHtml) result.html = render(root.children, { encodeEntities: 'utf8', emptyAttrs: true }).trim();
    if (wantsText) result.text = toText(root);
  } catch {
    // Keep the empty strings set by emptyResult for the formats not produced.
  }
  return result;
}

function contentRoot(page: Page, html: string, input: ExtractInput, title: string): Element {
  if (!input.onlyMainContent) {
    prepare(page, input, 'full');
    return page.body;
  }
  prepare(page, input, 'main');
  const fresh = (): Page => {
    const p = parsePage(html);
    prepare(p, input, 'fallback');
    return p;
  };
  return extractMainContent(page, title, fresh, { keepChrome: hasSelectors(input.includeTags) }).root;
}
