// Extraction step of the scrape pipeline: page HTML in, requested formats (markdown, html, text, links) and metadata
// out.
import { absolutizeTree, resolveBaseUrl } from './absolutize.js';
import { removeNoise } from './clean.js';
import { parseDocument, type DomDocument, type DomElement } from './dom.js';
import { extractLinks } from './links.js';
import { extractMainContent } from './main-content.js';
import { toMarkdown } from './markdown.js';
import { extractMetadata, type PageMetadata } from './metadata.js';
import { applyExcludeTags, applyIncludeTags, isValidCssSelector } from './selectors.js';
import { toText } from './text.js';

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
function promoteLazyImages(root: DomElement): void {
  for (const img of Array.from(root.querySelectorAll('img[data-src], img[data-lazy-src], img[data-original]'))) {
    const src = img.getAttribute('src');
    if (src && !src.startsWith('data:')) continue;
    const real = img.getAttribute('data-src') ?? img.getAttribute('data-lazy-src') ?? img.getAttribute('data-original');
    if (real) img.setAttribute('src', real);
  }
}

/**
 * Noise removal and the client's selectors. In main-content mode site chrome is stripped too, except
 * when include_tags picked the content explicitly: a client asking for `nav` gets the nav.
 */
function prepare(doc: DomDocument, input: ExtractInput, mode: 'main' | 'fallback' | 'full'): void {
  const picked = hasSelectors(input.includeTags);
  removeNoise(doc, { keepNoscript: mode === 'main', stripChrome: mode === 'main' && !picked });
  applyExcludeTags(doc, input.excludeTags);
  applyIncludeTags(doc, input.includeTags);
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
  let doc: DomDocument;
  let base: string | undefined;
  try {
    doc = parseDocument(html);
    base = resolveBaseUrl(doc, input.url);
    result.metadata = extractMetadata(doc, base);
    // Links cover the whole page, so they are read before anything is removed.
    if (formats.includes('links')) result.links = extractLinks(doc, base);
  } catch {
    return result;
  }

  const wantsContent = formats.includes('markdown') || formats.includes('html') || formats.includes('text');
  if (!wantsContent) return result;
  try {
    const root = contentRoot(doc, html, input, result.metadata.title);
    promoteLazyImages(root);
    absolutizeTree(root, base);
    if (formats.includes('markdown')) result.markdown = toMarkdown(root);
    if (formats.includes('html')) result.html = root.innerHTML.trim();
    if (formats.includes('text')) result.text = toText(root);
  } catch {
    // Keep the empty strings set by emptyResult for the formats not produced.
  }
  return result;
}

function contentRoot(doc: DomDocument, html: string, input: ExtractInput, title: string): DomElement {
  if (!input.onlyMainContent) {
    prepare(doc, input, 'full');
    return doc.body;
  }
  prepare(doc, input, 'main');
  const fresh = (): DomDocument => {
    const d = parseDocument(html);
    prepare(d, input, 'fallback');
    return d;
  };
  return extractMainContent(doc, title, fresh, { keepChrome: hasSelectors(input.includeTags) }).root;
}
