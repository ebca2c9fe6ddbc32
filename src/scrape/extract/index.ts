// Extraction step of the scrape pipeline: page HTML in, requested formats (markdown, html, text, links) and metadata
// out.
import { absolutizeTree, resolveBaseUrl } from './absolutize.js';
import { removeNoise } from './clean.js';
import { findAll, getAttr, parsePage, setAttr, type Element, type Page } from './dom.js';
import { extractImages } from './images.js';
import { extractLinks } from './links.js';
import { extractMainContent } from './main-content.js';
import { toMarkdown } from './markdown.js';
import { extractMetadata, type PageMetadata } from './metadata.js';
import { applyExcludeTags, applyIncludeTags, isValidCssSelector } from './selectors.js';
import { toText } from './text.js';
import render from 'dom-serializer';
import type { JsonRequest } from '../structured/types.js';
import { fillFromFacts, readContentFacts, readPageFacts, type PageFacts } from '../structured/rules/index.js';
import { summarizeMarkdown } from '../structured/rules/summary.js';

export type { PageMetadata } from './metadata.js';
export { isValidCssSelector };

export type ContentFormat = 'markdown' | 'html' | 'text' | 'links' | 'images';

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
  /** The structured formats' share of the work, done here because it reads the page tree (docs/structured.md). */
  structured?: StructuredWork;
  /** Also give the content's plain text for the search index (ExtractResult.searchText), whatever the formats. */
  searchText?: boolean;
}

/** Characters of searchText handed back at most: the index keeps fewer (SEARCH_INDEX_MAX_CHARS) after collapsing. */
export const SEARCH_TEXT_MAX_CHARS = 40_000;

export interface StructuredWork {
  /** Rules path (no model): fill this request from what the page states. */
  json?: JsonRequest;
  /** Rules path: an extractive summary of the content. */
  summary?: boolean;
  /** Model path: hand back the content the model reads, in this form; see modelContent. */
  modelSource?: { kind: 'markdown' | 'html'; budgetChars: number };
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
  /** Every image of the whole page (img src), absolute, without fragment, de-duplicated, in document order. */
  images?: string[];
  /** Rules path: the filled object (every schema property present, null where the page states nothing). */
  json?: Record<string, unknown>;
  /** Rules path: the extractive summary ('' when the page has no prose). */
  summary?: string;
  /**
   * Model path: the content (markdown or cleaned HTML, per only_main_content and the tag selectors). When that is
   * the whole page and longer than the budget, the main content comes first and the whole page after it, so that
   * cutting the tail keeps the main content.
   */
  modelContent?: string;
  /** Structured formats the rules could not produce on this page (a bug or a pathological page). */
  structuredFailed?: Array<'json' | 'summary'>;
  /** With ExtractInput.searchText: the text of the same content as `text`, cut at SEARCH_TEXT_MAX_CHARS. */
  searchText?: string;
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
  if (formats.includes('images')) result.images = [];
  return result;
}

export function extractPage(input: ExtractInput): ExtractResult {
  const formats = input.formats;
  const html = typeof input.html === 'string' ? input.html : '';
  const result: ExtractResult = emptyResult(formats);
  // Every step is guarded: a converter bug on one odd page must not fail the scrape, and what was
  // computed before the failure (metadata, links) is still returned.
  const work = input.structured;
  let page: Page;
  let base: string | undefined;
  let facts: PageFacts | undefined;
  try {
    page = parsePage(html);
    base = resolveBaseUrl(page, input.url);
    result.metadata = extractMetadata(page, base);
    // Links and the page's structured data cover the whole page, so they are read before anything is removed.
    if (formats.includes('links')) result.links = extractLinks(page, base);
    if (formats.includes('images')) result.images = extractImages(page, base);
    if (work?.json) facts = guarded(result, 'json', () => readPageFacts(page, base));
  } catch {
    markStructuredFailed(result, work);
    return result;
  }

  const model = work?.modelSource;
  const wantsHtml = formats.includes('html') || model?.kind === 'html';
  const wantsText = formats.includes('text');
  const wantsMarkdown = formats.includes('markdown') || work?.summary === true || model?.kind === 'markdown';
  const wantsSearch = input.searchText === true;
  if (!wantsHtml && !wantsText && !wantsMarkdown && !wantsSearch && !work?.json) return result;
  try {
    const root = readyRoot(page, html, input, result.metadata.title, base);
    const content = work?.json && facts ? guarded(result, 'json', () => readContentFacts(root)) : undefined;
    // The text is read first: the markdown conversion collapses whitespace in the tree, in place when nothing
    // reads the tree after it.
    const text = wantsText || wantsSearch ? toText(root) : undefined;
    const markdown = wantsMarkdown ? toMarkdown(root, !wantsHtml) : undefined;
    const cleanHtml = wantsHtml ? cleanHtmlOf(root) : undefined;
    if (formats.includes('markdown')) result.markdown = markdown;
    if (formats.includes('html')) result.html = cleanHtml;
    if (wantsText) result.text = text;
    if (wantsSearch && text !== undefined) result.searchText = text.slice(0, SEARCH_TEXT_MAX_CHARS);
    if (work?.json && facts && content) {
      const request = work.json;
      const filled = guarded(result, 'json', () => fillFromFacts(request, facts, content, result.metadata));
      if (filled !== undefined) result.json = filled;
    }
    if (work?.summary && markdown !== undefined) {
      const summary = guarded(result, 'summary', () =>
        summarizeMarkdown(markdown, result.metadata.language ? { language: result.metadata.language } : {}),
      );
      if (summary !== undefined) result.summary = summary;
    }
    if (model) {
      const whole = (model.kind === 'html' ? cleanHtml : markdown) ?? '';
      result.modelContent =
        !input.onlyMainContent && whole.length > model.budgetChars
          ? `${mainContentFirst(html, input, result.metadata.title, base, model.kind)}\n\n${whole}`
          : whole;
    }
  } catch {
    // Keep the empty strings set by emptyResult for the formats not produced.
    markStructuredFailed(result, work);
  }
  return result;
}

function markFailed(result: ExtractResult, format: 'json' | 'summary'): void {
  if (!result.structuredFailed?.includes(format)) (result.structuredFailed ??= []).push(format);
}

/** The structured formats asked for and not produced are failed. */
function markStructuredFailed(result: ExtractResult, work: StructuredWork | undefined): void {
  if (work?.json && result.json === undefined) markFailed(result, 'json');
  if (work?.summary && result.summary === undefined) markFailed(result, 'summary');
}

/** Runs one structured step; a failure marks the format failed and leaves the rest of the page alone. */
function guarded<T>(result: ExtractResult, format: 'json' | 'summary', step: () => T): T | undefined {
  try {
    return step();
  } catch {
    markFailed(result, format);
    return undefined;
  }
}

/** The content root, its lazy images promoted and its links and sources made absolute. */
function readyRoot(page: Page, html: string, input: ExtractInput, title: string, base: string | undefined): Element {
  const root = contentRoot(page, html, input, title);
  promoteLazyImages(root);
  absolutizeTree(root, base);
  return root;
}

function cleanHtmlOf(root: Element): string {
  return render(root.children, { encodeEntities: 'utf8', emptyAttrs: true }).trim();
}

/** The main content alone, from a fresh parse (the caller's tree is the whole page). */
function mainContentFirst(
  html: string,
  input: ExtractInput,
  title: string,
  base: string | undefined,
  kind: 'markdown' | 'html',
): string {
  const root = readyRoot(parsePage(html), html, { ...input, onlyMainContent: true }, title, base);
  return kind === 'html' ? cleanHtmlOf(root) : toMarkdown(root, true);
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
