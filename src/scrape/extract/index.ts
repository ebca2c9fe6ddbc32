// Extraction step of the scrape pipeline: page HTML in, requested formats (markdown, html, text, links) and metadata out.
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
  try {
    return extract(input);
  } catch {
    // A converter bug must not fail the scrape: the caller still gets a well-formed (empty) result.
    return emptyResult(formats);
  }
}

function extract(input: ExtractInput): ExtractResult {
  const { formats } = input;
  const html = typeof input.html === 'string' ? input.html : '';
  const doc = parseDocument(html);
  const base = resolveBaseUrl(doc, input.url);
  const metadata = extractMetadata(doc, base);
  const result: ExtractResult = { metadata };
  // Links cover the whole page, so they are read before anything is removed.
  if (formats.includes('links')) result.links = extractLinks(doc, base);

  const wantsContent = formats.includes('markdown') || formats.includes('html') || formats.includes('text');
  if (!wantsContent) return result;

  let root: DomElement;
  if (input.onlyMainContent) {
    prepare(doc, input, 'main');
    const fresh = (): DomDocument => {
      const d = parseDocument(html);
      prepare(d, input, 'fallback');
      return d;
    };
    root = extractMainContent(doc, metadata.title, fresh, { keepChrome: hasSelectors(input.includeTags) }).root;
  } else {
    prepare(doc, input, 'full');
    root = doc.body;
  }
  promoteLazyImages(root);
  absolutizeTree(root, base);

  if (formats.includes('markdown')) result.markdown = toMarkdown(root);
  if (formats.includes('html')) result.html = root.innerHTML.trim();
  if (formats.includes('text')) result.text = toText(root);
  return result;
}
