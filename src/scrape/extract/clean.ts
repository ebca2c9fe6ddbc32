// Removes markup that never carries page content (scripts, styles, comments, hidden elements, form controls).
import { COMMENT_NODE, type DomDocument, type DomElement, type DomNode } from './dom.js';

/** Never content in any mode. noscript is handled separately: Readability unwraps lazy-image fallbacks from it. */
const NOISE_SELECTOR = [
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
  '[hidden]',
  '[aria-hidden="true"][style*="display"]',
  '[style*="display:none"]',
  '[style*="display: none"]',
  '[style*="visibility:hidden"]',
  '[style*="visibility: hidden"]',
].join(',');

function removeComments(root: DomNode): void {
  const stack: DomNode[] = [root];
  while (stack.length) {
    const node = stack.pop() as DomNode;
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === COMMENT_NODE) child.remove();
      else if (child.childNodes.length) stack.push(child);
    }
  }
}

export function removeNoise(doc: DomDocument, opts: { keepNoscript: boolean }): void {
  const body: DomElement = doc.body;
  for (const el of Array.from(body.querySelectorAll(NOISE_SELECTOR))) el.remove();
  if (!opts.keepNoscript) for (const el of Array.from(body.getElementsByTagName('noscript'))) el.remove();
  removeComments(body);
}
