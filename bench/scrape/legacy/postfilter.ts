// Removes boilerplate that article extractors keep inside the content: navigation, captions, datelines,
// share/related/newsletter blocks.
import { collapseWhitespace, type DomElement } from './dom.js';

/** Page chrome that can sit inside an <article>: breadcrumbs, header band (byline/date), captions, sidebars. */
const STRUCTURAL =
  'nav, aside, footer, form, dialog, [role="navigation"], [role="complementary"], [role="contentinfo"], figcaption, header';

/**
 * Class/id words of in-article widgets. Matched as whole words of the class (see classWords), so
 * "share-bar" and "c-related__list" match while "shared-content" or "unrelated" do not.
 */
const WIDGET_WORDS = new Set([
  'share',
  'sharing',
  'social',
  'sharebar',
  'related',
  'recirc',
  'recirculation',
  'newsletter',
  'subscribe',
  'subscription',
  'signup',
  'promo',
  'byline',
  'dateline',
  'timestamp',
  'breadcrumb',
  'breadcrumbs',
  'tags',
  'caption',
  'credit',
  'credits',
  'teaser',
  'outbrain',
  'taboola',
  'advert',
  'advertisement',
  'sponsored',
  'readmore',
  'rail',
  'disclaimer',
  'bio',
  'author',
  'comments',
  'print',
  'copyright',
]);

/** Words of class and id, split on space, "-", "_" and camelCase ("imageCaption" -> image, caption). */
function classWords(el: DomElement): string[] {
  const marker = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`;
  return marker
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean);
}

function textLen(el: DomElement): number {
  return collapseWhitespace(el.textContent ?? '').length;
}

function wordCount(s: string): number {
  return (s.match(/[\p{L}\p{N}]+/gu) ?? []).length;
}

function linkTextLen(el: DomElement): number {
  let n = 0;
  for (const a of Array.from(el.getElementsByTagName('a'))) n += collapseWhitespace(a.textContent ?? '').length;
  return n;
}

/** Removes candidates unless they hold a large share of the content (then the marker is a false positive). */
function removeSmall(candidates: Iterable<DomElement>, total: number, maxShare: number): void {
  for (const el of Array.from(candidates)) {
    if (!el.parentNode) continue;
    if (textLen(el) <= total * maxShare) el.remove();
  }
}

export interface PostFilterOptions {
  /** Disable single rules (benchmark experiments). */
  skip?: ReadonlySet<string>;
}

export function postFilter(root: DomElement, opts: PostFilterOptions = {}): void {
  const skip = opts.skip ?? new Set<string>();
  const total = Math.max(1, textLen(root));

  if (!skip.has('structural')) removeSmall(root.querySelectorAll(STRUCTURAL), total, 0.3);

  if (!skip.has('classes')) {
    const hits: DomElement[] = [];
    for (const el of Array.from(root.querySelectorAll('[class], [id]'))) {
      const words = classWords(el);
      // Embedded posts (tweets, Instagram) sit in "social-embed" wrappers but are quoted content.
      if (words.includes('embed') || el.querySelector('blockquote')) continue;
      if (words.some((w) => WIDGET_WORDS.has(w))) hits.push(el);
    }
    removeSmall(hits, total, 0.15);
  }

  if (!skip.has('datelines')) {
    for (const time of Array.from(root.querySelectorAll('time'))) {
      // The smallest block around a <time> that is still short: a dateline, not a sentence mentioning a date.
      let block: DomElement = time;
      while (
        block.parentElement &&
        block.parentElement !== root &&
        wordCount(block.parentElement.textContent ?? '') <= 25
      ) {
        block = block.parentElement;
      }
      if (block.parentNode && wordCount(block.textContent ?? '') <= 25) block.remove();
    }
  }

  if (!skip.has('linkdense')) {
    for (const el of Array.from(root.querySelectorAll('ul, ol, p, div, section, dl, table'))) {
      if (!el.parentNode) continue;
      const len = textLen(el);
      if (len === 0) continue;
      const density = linkTextLen(el) / len;
      const words = wordCount(el.textContent ?? '');
      const isList = el.nodeName === 'UL' || el.nodeName === 'OL' || el.nodeName === 'DL';
      // Lists of links (related stories, breadcrumbs) and link-only paragraphs ("READ MORE: ...").
      if ((isList && density >= 0.7) || (density >= 0.8 && (words <= 40 || el.nodeName !== 'P'))) {
        if (len <= total * 0.3) el.remove();
      }
    }
  }

  if (!skip.has('cards')) removeCardLists(root, total);
  if (!skip.has('edges')) trimEdges(root);
}

/**
 * Recirculation rails: three or more sibling items with the same class, each a link plus a short
 * headline. Real article text is not laid out as uniform linked cards.
 */
function removeCardLists(root: DomElement, total: number): void {
  for (const container of Array.from(root.querySelectorAll('div, ul, section'))) {
    if (!container.parentNode) continue;
    const kids = Array.from(container.children);
    if (kids.length < 3) continue;
    const cls = kids[0]?.getAttribute('class');
    if (!cls || !kids.every((k) => k.getAttribute('class') === cls)) continue;
    const cardLike = kids.every((k) => k.querySelector('a[href]') !== null && wordCount(k.textContent ?? '') <= 30);
    if (cardLike && textLen(container) <= total * 0.3) container.remove();
  }
}

/** [pattern, max words]: bylines/datelines/credits are short; calls to action a little longer. */
const EDGE_PATTERNS: ReadonlyArray<readonly [RegExp, number]> = [
  [
    /^(?:by|von|par|por|posted|published|updated|last (?:modified|updated)|filed under|source|image|photo|credit)\b/i,
    15,
  ],
  [/\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}\b.*\b\d{1,2}[:.]\d{2}\b/i, 15],
  [
    /\b(?:you (?:may|might) also like|related (?:articles|stories|posts|news)|read more|see also|more from|recommended|sign up|subscribe|newsletter|follow (?:us|me|him|her)|share this|all rights reserved|copyright|©)\b/i,
    30,
  ],
];

function lastBlock(root: DomElement, fromEnd: boolean): DomElement | null {
  let el: DomElement | null = fromEnd ? root.lastElementChild : root.firstElementChild;
  // Descend through wrappers to the first/last leaf-ish block.
  while (el && el.children.length > 0 && !/^(?:P|H[1-6]|LI|BLOCKQUOTE|PRE|TABLE|FIGURE)$/.test(el.nodeName)) {
    el = fromEnd ? el.lastElementChild : el.firstElementChild;
  }
  return el;
}

/** Short blocks at the very start or end that read like bylines, datelines, credits or calls to action. */
function trimEdges(root: DomElement): void {
  for (const fromEnd of [false, true]) {
    for (let i = 0; i < 6; i++) {
      const block = lastBlock(root, fromEnd);
      if (!block || block === root) break;
      const text = collapseWhitespace(block.textContent ?? '');
      const words = wordCount(text);
      const isHeading = /^H[1-6]$/.test(block.nodeName);
      if (block.nodeName === 'IMG' || block.nodeName === 'FIGURE' || block.querySelector('img')) {
        if (words === 0) break; // images at the edges are content
      }
      const empty = words === 0 && !block.querySelector('img, video, iframe, picture');
      const boiler = words > 0 && EDGE_PATTERNS.some(([re, max]) => words <= max && re.test(text));
      const danglingHeading = fromEnd && isHeading && words <= 12;
      if (!(empty || boiler || danglingHeading)) break;
      // Remove the block and any wrappers it leaves empty.
      let target: DomElement = block;
      while (target.parentElement && target.parentElement !== root && target.parentElement.children.length === 1) {
        target = target.parentElement;
      }
      target.remove();
    }
  }
}
