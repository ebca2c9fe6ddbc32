// Finds the main content of a page: Readability with pre/post-processing, falling back to the page minus boilerplate.
import { Readability } from '@mozilla/readability';
import { removeBoilerplate } from './boilerplate.js';
import { collapseWhitespace, type DomDocument, type DomElement } from './dom.js';
import { postFilter } from './postfilter.js';

/** Below this much text Readability has probably picked a fragment (or a list page defeated it). */
const MIN_ARTICLE_CHARS = 250;

export interface MainContent {
  root: DomElement;
  method: 'readability' | 'fallback';
}

function words(s: string): string[] {
  return (
    collapseWhitespace(s)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Share of the heading's words that appear in the reference title (site names make titles longer, never shorter). */
function titleOverlap(heading: string, title: string): number {
  const h = words(heading);
  if (h.length === 0) return 0;
  const t = new Set(words(title));
  return h.filter((w) => t.has(w)).length / h.length;
}

/**
 * The page's h1 texts, captured before Readability runs because Readability drops headings that
 * duplicate the title.
 */
function pageHeadings(doc: DomDocument): string[] {
  return Array.from(doc.body.getElementsByTagName('h1'))
    .map((h1) => collapseWhitespace(h1.textContent ?? ''))
    .filter((text) => text.length > 0 && text.length <= 300);
}

/**
 * The article's headline: the h1 whose words best match one of the titles (<title>, og:title,
 * Readability's title, which also reads JSON-LD). Titles carry site names and SEO wording, so a
 * share of the h1's words is compared; the page's first h1 needs a little less evidence.
 */
function findHeadline(headings: ReadonlyArray<string>, titles: ReadonlyArray<string>): string | undefined {
  let best: { text: string; score: number } | undefined;
  headings.forEach((text, index) => {
    const score = Math.max(0, ...titles.map((t) => titleOverlap(text, t)));
    const needed = index === 0 ? 0.5 : 0.6;
    if (score >= needed && (!best || score > best.score)) best = { text, score };
  });
  return best?.text;
}

/** Readability turns the article's h1 into an h2; when that h2 is the headline it becomes h1 again. */
function restoreHeadlineLevel(root: DomElement, headline: string): void {
  const h = root.querySelector('h1, h2, h3');
  if (!h || h.nodeName === 'H1' || collapseWhitespace(h.textContent ?? '') !== headline) return;
  const h1 = root.ownerDocument.createElement('h1');
  while (h.firstChild) h1.appendChild(h.firstChild);
  h.replaceWith(h1);
}

function firstHeadingText(root: DomElement): string | undefined {
  const h = root.querySelector('h1, h2, h3');
  return h ? collapseWhitespace(h.textContent ?? '') : undefined;
}

/**
 * Readability wraps its output in <div id="readability-page-1" class="page"> and creates elements
 * with upper-case names, which linkedom serializes as <DIV>. Unwrap the page div and recreate those
 * elements in lower case so the html format is ordinary HTML.
 */
function tidyReadabilityMarkup(root: DomElement): void {
  for (const el of Array.from(root.querySelectorAll('*'))) {
    if (el.localName === el.localName.toLowerCase()) continue;
    const parent = el.parentNode;
    if (!parent) continue;
    if (el.id === 'readability-page-1') {
      while (el.firstChild) parent.insertBefore(el.firstChild, el);
      el.remove();
      continue;
    }
    const copy = el.ownerDocument.createElement(el.localName.toLowerCase());
    for (const attr of Array.from(el.attributes)) copy.setAttribute(attr.name, attr.value);
    while (el.firstChild) copy.appendChild(el.firstChild);
    el.replaceWith(copy);
  }
}

function textLength(el: DomElement): number {
  return collapseWhitespace(el.textContent ?? '').length;
}

/**
 * `doc` is consumed (Readability rewrites it). `freshDocument` returns a new, identically prepared
 * document; it is only called when the fallback is needed, so the common path parses once.
 */
export function extractMainContent(
  doc: DomDocument,
  pageTitle: string,
  freshDocument: () => DomDocument,
  opts: { keepChrome?: boolean } = {},
): MainContent {
  const ogTitle = doc.querySelector('meta[property="og:title"]')?.getAttribute('content') ?? '';
  const headings = pageHeadings(doc);

  let article: ReturnType<Readability<DomElement>['parse']>;
  try {
    // The node serializer hands back the content element itself: no HTML string round trip.
    const reader = new Readability<DomElement>(doc, {
      keepClasses: true,
      serializer: (n) => n as unknown as DomElement,
    });
    article = reader.parse();
  } catch {
    article = null;
  }

  const content = article?.content;
  if (content && textLength(content) >= MIN_ARTICLE_CHARS) {
    tidyReadabilityMarkup(content);
    postFilter(content);
    const titles = [pageTitle, ogTitle, article?.title ?? ''].filter(Boolean);
    const headline = findHeadline(headings, titles);
    if (headline) {
      restoreHeadlineLevel(content, headline);
      const first = firstHeadingText(content);
      const firstText = collapseWhitespace(content.textContent ?? '').slice(0, headline.length + 50);
      if (first !== headline && !firstText.startsWith(headline)) {
        const h1 = content.ownerDocument.createElement('h1');
        h1.textContent = headline;
        content.prepend(h1);
      }
    }
    return { root: content, method: 'readability' };
  }

  const fresh = freshDocument();
  const body = fresh.body;
  if (!opts.keepChrome) removeBoilerplate(body);
  return { root: body, method: 'fallback' };
}
