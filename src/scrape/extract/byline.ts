// Finds the article's byline ("By Jane Doe · March 3, 2026") next to its headline, before the scoring and the
// post-filter drop it.
import {
  closest,
  collapsedTextLength,
  collapseWhitespace,
  contains,
  findFirst,
  firstElementChild,
  getAttr,
  isTag,
  nextElementSibling,
  parentElement,
  textContent,
  wordCountOf,
  type Element,
} from './dom.js';
import { isDateOnly } from './dateline.js';
import { toText } from './text.js';

/** Elements looked at after the headline: a byline is among the first few; hostile pages get no more. */
const MAX_SCANNED = 60;
/**
 * Words of text blocks passed on the way (a standfirst, a short first paragraph): past this the article text has begun.
 */
const MAX_PASSED_WORDS = 60;
/** A byline is a short line. */
const MAX_WORDS = 20;
const MAX_CHARS = 150;
/** A line that is a byline only by its wording, without markup saying so, is shorter still. */
const MAX_PLAIN_WORDS = 12;
/** Levels climbed from the marked element to the whole line ("Posted by <a>Sam</a>" + " on <time>"). */
const MAX_CLIMB = 3;

/** Class/id words of author and byline markup (whole words, split on "-", "_" and camelCase). */
const BYLINE_WORDS = new Set(['byline', 'bylines', 'author', 'authors', 'writtenby']);
/** "By Jane Doe", "Posted by ...", in the languages of the usual themes; a name follows, capitalised. */
const BYLINE_TEXT = /^(?:(?:posted|written|words|story|text|reporting)\s+by|by|von|par|por|door)\s+\p{Lu}/iu;
const BLOCKS_OF_TEXT = new Set(['p', 'li', 'blockquote', 'pre', 'dd', 'td']);
/** What a byline line never holds: lists of links (share bars), headings, forms, media players, tables. */
const NOT_IN_BYLINE = new Set([
  'ul',
  'ol',
  'nav',
  'form',
  'button',
  'select',
  'table',
  'iframe',
  'video',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);
/** Containers are never the byline line itself. */
const CONTAINERS = new Set(['body', 'html', 'article', 'main', 'section', 'header', 'footer', 'aside', 'nav']);
const ARTICLE = new Set(['article']);

/** Text of an element as it reads: one space where blocks meet ("Columnists" and "21:17" not glued together). */
export function lineText(el: Element): string {
  return collapseWhitespace(toText(el).replace(/\n/g, ' '));
}

function classWords(el: Element): string[] {
  return `${getAttr(el, 'class') ?? ''} ${getAttr(el, 'id') ?? ''}`
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean);
}

function listHas(value: string | null, word: string): boolean {
  return value !== null && value.toLowerCase().split(/\s+/).includes(word);
}

/** Author markup: <address>, rel=author, itemprop=author, or byline/author class words. */
function markedAsByline(el: Element): boolean {
  return (
    el.name === 'address' ||
    listHas(getAttr(el, 'rel'), 'author') ||
    listHas(getAttr(el, 'itemprop'), 'author') ||
    classWords(el).some((w) => BYLINE_WORDS.has(w))
  );
}

function isShortLine(el: Element, maxWords: number): boolean {
  const n = wordCountOf(el, maxWords);
  return n >= 1 && n <= maxWords && collapsedTextLength(el, MAX_CHARS) <= MAX_CHARS;
}

function holdsNonByline(el: Element): boolean {
  return findFirst(el, (e) => NOT_IN_BYLINE.has(e.name)) !== null;
}

/** Blocks a line is made of: one at most (a wrapper of a byline and a standfirst is two lines). */
const LINE_BLOCKS = new Set(['p', 'div', 'address', 'li', 'dl', 'blockquote', 'section']);

function holdsLines(el: Element): boolean {
  let blocks = 0;
  for (const c of el.children) if (isTag(c) && LINE_BLOCKS.has(c.name) && ++blocks > 1) return true;
  return false;
}

function isByline(el: Element): boolean {
  if (CONTAINERS.has(el.name) || NOT_IN_BYLINE.has(el.name) || holdsLines(el)) return false;
  if (markedAsByline(el)) return isShortLine(el, MAX_WORDS) && !holdsNonByline(el);
  if (!isShortLine(el, MAX_PLAIN_WORDS) || holdsNonByline(el)) return false;
  const text = collapseWhitespace(textContent(el));
  // "By the river, the dough rose." is a sentence: a byline does not end like one.
  return BYLINE_TEXT.test(text) && !/[.!?]$/.test(text);
}

/** Inline elements: an author link or span is part of a line, a <p> or <div> is the line. */
const INLINE = new Set([
  'a',
  'span',
  'em',
  'strong',
  'b',
  'i',
  'small',
  'time',
  'abbr',
  'cite',
  'font',
  'label',
  'u',
  'bdi',
]);

/**
 * From the marked element up to the whole short line it sits in: an author link or span climbs to
 * its block ("Posted by <a>Sam</a>" + " on <time>"); a block is the line (its neighbours, a
 * standfirst say, are not). Never up to the headline.
 */
function wholeLine(el: Element, headline: Element): Element {
  let line = el;
  for (let i = 0; i < MAX_CLIMB && INLINE.has(line.name); i++) {
    const parent = parentElement(line);
    if (!parent || CONTAINERS.has(parent.name) || NOT_IN_BYLINE.has(parent.name) || contains(parent, headline)) break;
    if (!isShortLine(parent, MAX_WORDS) || holdsNonByline(parent)) break;
    line = parent;
  }
  return line;
}

/** The element after `el` in document order, its descendants included or not. */
function nextInOrder(el: Element, intoChildren: boolean): Element | null {
  if (intoChildren) {
    const first = firstElementChild(el);
    if (first) return first;
  }
  for (let n: Element | null = el; n; n = parentElement(n)) {
    const next = nextElementSibling(n);
    if (next) return next;
  }
  return null;
}

/**
 * The byline's text, looked for from the headline onwards in document order (or from the start of
 * the article when the headline is not a heading of the page): the first short line marked as author
 * markup or worded as a byline. The search ends at the next h1/h2, at the end of the article, once
 * the text passed reads as the article itself, or after 60 elements, so it costs the same on any page.
 */
export function findByline(start: Element, fromInside: boolean): string | undefined {
  const article = closest(start, ARTICLE);
  let passedWords = 0;
  let el = nextInOrder(start, fromInside);
  for (let scanned = 0; el && scanned < MAX_SCANNED; scanned++) {
    if (article && !contains(article, el)) return undefined;
    if (el.name === 'h1' || el.name === 'h2') return undefined;
    if (isByline(el)) {
      // Author markup around the date alone ("20 Nov 2019 08:00 GMT" in the author block) names
      // nobody: it is a dateline, not the byline, and the search goes on.
      const line = lineText(wholeLine(el, start));
      if (!isDateOnly(line)) return line;
    }
    let intoChildren = true;
    if (BLOCKS_OF_TEXT.has(el.name)) {
      const n = wordCountOf(el, MAX_PASSED_WORDS + 1);
      passedWords += n;
      if (passedWords > MAX_PASSED_WORDS) return undefined;
      // A long block of text is the article's, not a line holding a byline.
      intoChildren = n <= MAX_WORDS;
    }
    el = nextInOrder(el, intoChildren);
  }
  return undefined;
}
