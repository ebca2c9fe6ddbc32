// Finds the main content of a page: Readability-grade scoring with pre/post-processing, falling back to the page minus boilerplate.
import { removeBoilerplate } from './boilerplate.js';
import {
  appendChild,
  collapsedTextLength,
  collapseWhitespace,
  createElement,
  createText,
  findFirst,
  getAttr,
  insertBefore,
  isTag,
  moveChildren,
  removeNode,
  replaceNode,
  tagsUnder,
  textContent,
  type Element,
  type Page,
  type Text,
} from './dom.js';
import { postFilter } from './postfilter.js';
import { readArticle } from './readability.js';

/** Below this much text the scoring has probably picked a fragment (or a list page defeated it). */
const MIN_ARTICLE_CHARS = 250;

export interface MainContent {
  root: Element;
  method: 'readability' | 'fallback';
}

function words(s: string): string[] {
  return collapseWhitespace(s).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Share of the heading's words that appear in the reference title (site names make titles longer, never shorter). */
function titleOverlap(heading: string, title: string): number {
  const h = words(heading);
  if (h.length === 0) return 0;
  const t = new Set(words(title));
  return h.filter((w) => t.has(w)).length / h.length;
}

/**
 * The page's h1 texts, captured before the scoring runs because it drops headings that duplicate
 * the title.
 */
function pageHeadings(page: Page): string[] {
  return tagsUnder(page, 'h1', page.body)
    .map((h1) => collapseWhitespace(textContent(h1)))
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

const HEADING_123 = new Set(['h1', 'h2', 'h3']);

/** Readability turns the article's h1 into an h2; when that h2 is the headline it becomes h1 again. */
function restoreHeadlineLevel(root: Element, headline: string): void {
  const h = findFirst(root, (e) => HEADING_123.has(e.name));
  if (!h || h.name === 'h1' || collapseWhitespace(textContent(h)) !== headline) return;
  const h1 = createElement('h1');
  moveChildren(h, h1);
  replaceNode(h, h1);
}

function firstHeadingText(root: Element): string | undefined {
  const h = findFirst(root, (e) => HEADING_123.has(e.name));
  return h ? collapseWhitespace(textContent(h)) : undefined;
}

/** Readability wraps its output in <div id="readability-page-1" class="page">: unwrapped. */
function unwrap(el: Element): void {
  const parent = el.parent;
  if (!parent) return;
  moveChildren(el, parent, el);
  removeNode(el);
}

/** The start of the content's rendered text, enough to hold `chars` characters. */
function textStart(el: Element, chars: number): string {
  const parts: string[] = [];
  let collected = 0;
  const walk = (parent: Element): boolean => {
    for (const c of parent.children) {
      if (c.type === 'text') {
        const data = (c as Text).data;
        parts.push(data);
        collected += data.length;
        // Whitespace collapses, so raw text twice as long as needed (plus a margin) is plenty.
        if (collected > 2 * chars + 64 && collapseWhitespace(parts.join('')).length > chars) return false;
      } else if (isTag(c) && c.children.length && !walk(c)) return false;
    }
    return true;
  };
  walk(el);
  return collapseWhitespace(parts.join('')).slice(0, chars);
}

/**
 * `page` is consumed (the scoring rewrites it). `freshPage()` returns the page parsed again and
 * prepared for the fallback (without the pre-strip); it is only called when the scoring finds too
 * little, so the common path parses once.
 */
export function extractMainContent(
  page: Page,
  pageTitle: string,
  freshPage: () => Page,
  opts: { keepChrome?: boolean } = {},
): MainContent {
  const ogMeta = tagsUnder(page, 'meta').find((e) => getAttr(e, 'property') === 'og:title');
  const ogTitle = (ogMeta && getAttr(ogMeta, 'content')) ?? '';
  const headings = pageHeadings(page);

  let article: ReturnType<typeof readArticle> = null;
  try {
    article = readArticle(page);
  } catch {
    article = null;
  }

  const content = article?.content;
  if (article && content && collapsedTextLength(content, MIN_ARTICLE_CHARS) >= MIN_ARTICLE_CHARS) {
    unwrap(article.pageDiv);
    postFilter(content);
    const titles = [pageTitle, ogTitle, article.title].filter(Boolean);
    const headline = findHeadline(headings, titles);
    if (headline) {
      restoreHeadlineLevel(content, headline);
      const first = firstHeadingText(content);
      const firstText = textStart(content, headline.length + 50);
      if (first !== headline && !firstText.startsWith(headline)) {
        const h1 = createElement('h1');
        appendChild(h1, createText(headline));
        insertBefore(content, h1, content.children[0] ?? null);
      }
    }
    return { root: content, method: 'readability' };
  }

  const fresh = freshPage();
  if (!opts.keepChrome) removeBoilerplate(fresh.body);
  return { root: fresh.body, method: 'fallback' };
}
