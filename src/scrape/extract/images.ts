// Lists every image of the whole page: <img> sources (src, else a lazy-loading data-src, else the first srcset
// candidate), absolute http(s) URLs without fragment, de-duplicated, in document order. `data:` images are left out.
import { toAbsoluteUrl } from './absolutize.js';
import { getAttr, isTag, parsedTags, type Element, type Page } from './dom.js';

/** Images listed per page at most: a crafted page may hold millions of <img> tags. */
export const MAX_IMAGES = 10_000;

function inPageBody(el: Element, page: Page): boolean {
  for (let n = el.parent; n; n = n.parent) {
    if (n === page.body) return true;
    if (isTag(n) && n.name === 'template') return false;
  }
  return false;
}

/** The first URL of a srcset ("a.png 1x, b.png 2x" -> "a.png"). */
function firstCandidate(srcset: string | null): string | null {
  if (srcset === null) return null;
  const first = srcset.trim().split(',')[0]?.trim().split(/\s+/)[0];
  return first !== undefined && first !== '' ? first : null;
}

export function extractImages(page: Page, base: string | undefined): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const el of parsedTags(page, 'img')) {
    if (out.length >= MAX_IMAGES) break;
    if (!inPageBody(el, page)) continue;
    const raw = getAttr(el, 'src') || getAttr(el, 'data-src') || firstCandidate(getAttr(el, 'srcset'));
    if (!raw) continue;
    const abs = toAbsoluteUrl(raw, base);
    if (!abs || !(abs.startsWith('http://') || abs.startsWith('https://'))) continue;
    const hash = abs.indexOf('#');
    const url = hash === -1 ? abs : abs.slice(0, hash);
    if (seen.has(url)) continue;
    seen.add(url);
    out.push(url);
  }
  return out;
}
