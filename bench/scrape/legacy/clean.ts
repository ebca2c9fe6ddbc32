// Removes markup that never carries page content (scripts, styles, comments, hidden elements, form controls).
import { COMMENT_NODE, ELEMENT_NODE, type DomDocument, type DomElement, type DomNode } from './dom.js';

/** Never content in any mode. noscript is separate: Readability unwraps lazy-image fallbacks from it. */
const NOISE_TAGS = new Set([
  'SCRIPT',
  'STYLE',
  'TEMPLATE',
  'LINK',
  'META',
  'BASE',
  'SVG',
  'CANVAS',
  'OBJECT',
  'EMBED',
  'APPLET',
  'INPUT',
  'SELECT',
  'TEXTAREA',
  'BUTTON',
  'OPTION',
  'DATALIST',
]);
const HIDDEN_STYLE = /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

/** Utility classes of text that is visible only to screen readers or on paper, never on screen. */
const HIDDEN_CLASS =
  /(?:^|\s)(?:sr-only|visually-hidden|visuallyhidden|screen-reader-text|screen-reader-only|off-screen|offscreen|print-only|show-for-print|hidden-print-only)(?:\s|$)/i;

function isHidden(el: DomElement): boolean {
  if (el.hasAttribute('hidden')) return true;
  const style = el.getAttribute('style');
  if (style !== null && HIDDEN_STYLE.test(style)) return true;
  const cls = el.getAttribute('class');
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
   * article itself. Done before Readability: its scoring then sees fewer candidates (about 30% faster
   * on the benchmark pages) and cannot pull a footer or sidebar into the article.
   */
  stripChrome?: boolean;
}

const CHROME_TAGS = new Set(['NAV', 'FOOTER', 'ASIDE', 'DIALOG', 'HEADER']);
const CHROME_ROLES = new Set(['navigation', 'contentinfo', 'complementary', 'dialog', 'alertdialog']);

function isChrome(el: DomElement): boolean {
  const role = el.getAttribute('role');
  const chrome =
    CHROME_TAGS.has(el.nodeName) ||
    (role !== null && CHROME_ROLES.has(role.trim().toLowerCase())) ||
    el.getAttribute('aria-modal') === 'true';
  return chrome && el.querySelector('article, main, [role="main"], h1') === null;
}

/**
 * Browsers cap the DOM depth their parser builds (Chromium at 512). Deeper trees only come from broken
 * or hostile pages, and Readability and the converters cost O(nodes x depth) or recurse on them (20,000
 * nested divs took 18 s); below this depth an element is replaced by its text.
 */
export const MAX_DEPTH = 256;

export function removeNoise(doc: DomDocument, opts: NoiseOptions): void {
  const stack: Array<[DomNode, number]> = [[doc.body, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop() as [DomNode, number];
    if (depth >= MAX_DEPTH) {
      for (const el of Array.from(node.childNodes)) {
        if (el.nodeType === ELEMENT_NODE)
          (el as DomElement).replaceWith(doc.createTextNode(` ${el.textContent ?? ''} `));
      }
      continue;
    }
    let child = node.firstChild;
    while (child) {
      const next = child.nextSibling;
      if (child.nodeType === COMMENT_NODE) {
        child.remove();
      } else if (child.nodeType === ELEMENT_NODE) {
        const el = child as DomElement;
        const name = el.nodeName;
        if (
          NOISE_TAGS.has(name) ||
          (name === 'NOSCRIPT' && !opts.keepNoscript) ||
          isHidden(el) ||
          (opts.stripChrome && isChrome(el))
        ) {
          el.remove();
        } else if (el.firstChild) stack.push([el, depth + 1]);
      }
      child = next;
    }
  }
}
