// Finds the main content of a page: Readability-grade scoring with pre/post-processing, falling back to the page minus
// boilerplate.
import { removeBoilerplate } from './boilerplate.js';
import { collapsedTextLength, getAttr, moveChildren, removeNode, tagsUnder, type Element, type Page } from './dom.js';
import { placeLead, readLead, type ArticleLead } from './lead.js';
import { postFilter } from './postfilter.js';
import { readArticle } from './readability.js';

/** Below this much text the scoring has probably picked a fragment (or a list page defeated it). */
const MIN_ARTICLE_CHARS = 250;

export interface MainContent {
  root: Element;
}

/** Readability wraps its output in <div id="readability-page-1" class="page">: unwrapped. */
function unwrap(el: Element): void {
  const parent = el.parent;
  if (!parent) return;
  moveChildren(el, parent, el);
  removeNode(el);
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

  let lead: ArticleLead = {};
  let article: ReturnType<typeof readArticle>;
  try {
    article = readArticle(page, (articleTitle) => {
      lead = readLead(page, { page: pageTitle, og: ogTitle, article: articleTitle });
    });
  } catch {
    article = null;
  }

  const content = article?.content;
  if (article && content && collapsedTextLength(content, MIN_ARTICLE_CHARS) >= MIN_ARTICLE_CHARS) {
    unwrap(article.pageDiv);
    postFilter(content);
    placeLead(content, lead);
    return { root: content };
  }

  const fresh = freshPage();
  if (!opts.keepChrome) removeBoilerplate(fresh.body);
  return { root: fresh.body };
}
