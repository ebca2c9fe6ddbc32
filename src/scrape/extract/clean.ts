// Removes markup that never carries page content (scripts, styles, comments, hidden elements, form controls).
import { holdsArticle } from './boilerplate.js';
import {
  createText,
  getAttr,
  hasAttr,
  isTag,
  removeNode,
  replaceNode,
  textContent,
  type ChildNode,
  type Element,
  type Page,
} from './dom.js';

/** Never content in any mode. noscript is separate: Readability unwraps lazy-image fallbacks from it. */
const NOISE_TAGS = new Set([
  'script',
  'style',
  'template',
  'link',
  'meta',
  'base',
  'svg',
  'canvas',
  'object',
  'embed',
  'applet',
  'input',
  'select',
  'textarea',
  'button',
  'option',
  'datalist',
]);
const HIDDEN_STYLE = /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

/** Utility classes of text that is visible only to screen readers or on paper, never on screen. */
const HIDDEN_CLASS =
  /(?:^|\s)(?:sr-only|visually-hidden|visuallyhidden|screen-reader-text|screen-reader-only|off-screen|offscreen|print-only|show-for-print|hidden-print-only)(?:\s|$)/i;

function isHidden(el: Element): boolean {
  if (hasAttr(el, 'hidden')) return true;
  const style = getAttr(el, 'style');
  if (style !== null && HIDDEN_STYLE.test(style)) return true;
  const cls = getAttr(el, 'class');
  return cls !== null && HIDDEN_CLASS.test(cls);
}

/**
 * One walk over the tree instead of a selector query: css-select evaluating a long selector list
 * (with attribute-substring parts) over a 100 KB page cost about 4 ms; this walk costs a fraction.
 */
export interface NoiseOptions {
  keepNoscript: boolean;
  /**
   * Also drop site chrome (nav, footer, aside, dialogs and their ARIA roles) unless it holds the
   * article itself. Done before the main-content scoring: it then sees fewer candidates and cannot
   * pull a footer or sidebar into the article.
   */
  stripChrome?: boolean;
}

const CHROME_TAGS = new Set(['nav', 'footer', 'aside', 'dialog', 'header']);
const CHROME_ROLES = new Set(['navigation', 'contentinfo', 'complementary', 'dialog', 'alertdialog']);

/** Where a <header> is the article's own (title, byline) rather than the site's banner, per HTML's sectioning. */
const ARTICLE_SECTIONS = new Set(['article', 'main']);

function isChrome(el: Element, inArticle: boolean): boolean {
  if (inArticle && el.name === 'header') return false;
  const role = getAttr(el, 'role');
  const chrome =
    CHROME_TAGS.has(el.name) ||
    (role !== null && CHROME_ROLES.has(role.trim().toLowerCase())) ||
    getAttr(el, 'aria-modal') === 'true';
  return chrome && !holdsArticle(el);
}

/**
 * Browsers cap the DOM depth their parser builds (Chromium at 512). Deeper trees only come from broken
 * or hostile pages, and the scoring and the converters cost O(nodes x depth) or recurse on them (20,000
 * nested divs took 18 s); below this depth an element is replaced by its text.
 */
export const MAX_DEPTH = 256;

/** The element children of `node` become their text. */
function flatten(node: Element): void {
  for (const el of node.children.slice()) {
    if (isTag(el)) replaceNode(el, createText(` ${textContent(el)} `));
  }
}

/**
 * The depth cap alone, for the head: the parser does not move misplaced body markup out of <head>,
 * and the scoring walks the whole document. Nothing else in the head is touched (its metadata is read
 * again by the scoring).
 */
function capDepth(root: Element): void {
  const stack: Array<[Element, number]> = [[root, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop() as [Element, number];
    if (depth >= MAX_DEPTH) {
      flatten(node);
      continue;
    }
    for (const c of node.children) if (isTag(c) && c.children.length) stack.push([c, depth + 1]);
  }
}

export function removeNoise(page: Page, opts: NoiseOptions): void {
  capDepth(page.head);
  // Each entry carries whether it is inside an <article> or <main>: one walk, no ancestor searches.
  const stack: Array<[Element, number, boolean]> = [[page.body, 0, false]];
  while (stack.length) {
    const [node, depth, inArticle] = stack.pop() as [Element, number, boolean];
    if (depth >= MAX_DEPTH) {
      flatten(node);
      continue;
    }
    const childInArticle = inArticle || ARTICLE_SECTIONS.has(node.name) || getAttr(node, 'role') === 'main';
    let child: ChildNode | null = node.children[0] ?? null;
    while (child) {
      const next: ChildNode | null = child.next;
      if (child.type === 'comment' || child.type === 'directive') {
        removeNode(child);
      } else if (isTag(child)) {
        const el = child;
        const name = el.name;
        if (
          NOISE_TAGS.has(name) ||
          (name === 'noscript' && !opts.keepNoscript) ||
          isHidden(el) ||
          (opts.stripChrome && isChrome(el, childInArticle))
        ) {
          removeNode(el);
        } else if (el.children.length) stack.push([el, depth + 1, childInArticle]);
      }
      child = next;
    }
  }
}
