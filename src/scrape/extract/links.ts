// Lists every http(s) link of the whole page: absolute, without fragment, de-duplicated, in document order.
import { toAbsoluteUrl } from './absolutize.js';
import { LINK_TAGS, getAttr, isTag, parsedTags, type Element, type Page } from './dom.js';

/** In the body, and not in <template> content (which is not part of the page). */
export function inPageBody(el: Element, page: Page): boolean {
  for (let n = el.parent; n; n = n.parent) {
    if (n === page.body) return true;
    if (isTag(n) && n.name === 'template') return false;
  }
  return false;
}

/**
 * Adds `raw` to `out` made absolute against `base`, without its fragment, when it is http(s) and not seen yet. True
 * when `raw` is an http(s) address (added now or before).
 */
export function addPageUrl(raw: string | null, base: string | undefined, seen: Set<string>, out: string[]): boolean {
  const abs = toAbsoluteUrl(raw, base);
  if (!abs || !(abs.startsWith('http://') || abs.startsWith('https://'))) return false;
  const hash = abs.indexOf('#');
  const url = hash === -1 ? abs : abs.slice(0, hash);
  if (seen.has(url)) return true;
  seen.add(url);
  out.push(url);
  return true;
}

export function extractLinks(page: Page, base: string | undefined): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const el of parsedTags(page, LINK_TAGS)) {
    if (getAttr(el, 'href') === null || !inPageBody(el, page)) continue;
    addPageUrl(getAttr(el, 'href'), base, seen, out);
  }
  return out;
}
