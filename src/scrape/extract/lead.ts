// The article's lead (headline and byline): read from the page before the scoring drops it, put back at the start of
// the main content.
import { findByline, lineText } from './byline.js';
import {
  appendChild,
  collapsedTextLength,
  collapseWhitespace,
  createElement,
  createText,
  firstElementChild,
  insertBefore,
  isTag,
  moveChildren,
  replaceNode,
  tagsUnder,
  textContent,
  type Element,
  type Page,
  type Text,
} from './dom.js';
import { chooseHeadline, type HeadlineTitles } from './headline.js';

export interface ArticleLead {
  headline?: string;
  byline?: string;
}

/**
 * Reads the headline and the byline. Called on the page as the noise removal left it, before the
 * scoring, which removes the heading that repeats the title, byline-like elements and headers.
 */
export function readLead(page: Page, titles: HeadlineTitles): ArticleLead {
  const headline = chooseHeadline(page, titles);
  let byline: string | undefined;
  if (headline?.element) {
    byline = findByline(headline.element, false);
  } else {
    // A headline from og:title has no place on the page: the byline is looked for from the article's start.
    const article = tagsUnder(page, 'article', page.body)[0] ?? tagsUnder(page, 'main', page.body)[0];
    if (article) byline = findByline(article, true);
  }
  return { headline: headline?.text, byline };
}

const TITLE_HEADINGS = new Set(['h1', 'h2', 'h3']);
/** Headings of the content looked at for the headline: it is among the first ones when it is there. */
const HEADINGS_LOOKED_AT = 3;

/** The first h1–h3 headings of `root`, in document order, at most `max`. */
function firstHeadings(root: Element, max: number): Element[] {
  const out: Element[] = [];
  const walk = (parent: Element): boolean => {
    for (const c of parent.children) {
      if (!isTag(c)) continue;
      if (TITLE_HEADINGS.has(c.name)) {
        out.push(c);
        if (out.length >= max) return false;
      } else if (c.children.length && !walk(c)) return false;
    }
    return true;
  };
  walk(root);
  return out;
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

/** The first element, going down the content's first children, whose whole text is `text`. */
function leadingElementWithText(root: Element, text: string): Element | null {
  for (let el = firstElementChild(root); el; el = firstElementChild(el)) {
    // Bounded read: wrappers of the whole article are longer than a headline.
    const len = collapsedTextLength(el, text.length);
    if (len === text.length && collapseWhitespace(textContent(el)) === text) return el;
    if (len < text.length) return null;
  }
  return null;
}

/** A plain <h1> with the element's children, in its place (attributes of the old heading are not kept). */
function asH1(el: Element): Element {
  if (el.name === 'h1') return el;
  const h1 = createElement('h1');
  moveChildren(el, h1);
  replaceNode(el, h1);
  return h1;
}

/**
 * Makes the headline the content's first line, as an h1:
 *  - when one of the content's first three h1–h3 is the headline (Readability turns h1s into h2s;
 *    a "Breaking News" heading may precede it), that heading becomes the h1 and moves first;
 *  - when the content's text already starts with it (a title shown in a <p> or <div>), that element
 *    becomes the h1;
 *  - otherwise an h1 is inserted. Returns the h1, for the byline to follow.
 */
function placeHeadline(content: Element, headline: string): Element | null {
  const heading = firstHeadings(content, HEADINGS_LOOKED_AT).find(
    (h) => collapseWhitespace(textContent(h)) === headline,
  );
  if (heading) {
    const h1 = asH1(heading);
    if (content.children[0] !== h1) insertBefore(content, h1, content.children[0] ?? null);
    return h1;
  }
  if (textStart(content, headline.length + 50).startsWith(headline)) {
    const el = leadingElementWithText(content, headline);
    return el && (el.name === 'p' || el.name === 'div') ? asH1(el) : el;
  }
  const h1 = createElement('h1');
  appendChild(h1, createText(headline));
  insertBefore(content, h1, content.children[0] ?? null);
  return h1;
}

/**
 * Puts the lead back at the start of `content` (after the post-filter, which removes bylines): the
 * headline first, then the byline, unless the content holds that line already.
 */
export function placeLead(content: Element, lead: ArticleLead): void {
  const after = lead.headline ? placeHeadline(content, lead.headline) : null;
  const byline = lead.byline;
  if (!byline || lineText(content).includes(byline)) return;
  const p = createElement('p');
  appendChild(p, createText(byline));
  if (after?.parent) insertBefore(after.parent, p, after.next);
  else insertBefore(content, p, content.children[0] ?? null);
}
