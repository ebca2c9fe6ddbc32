// Lists every image of the whole page: <img> sources (src, else a lazy-loading data-src, else the first srcset
// candidate), absolute http(s) URLs without fragment, de-duplicated, in document order. `data:` images are left out.
import { getAttr, parsedTags, type Page } from './dom.js';
import { addPageUrl, inPageBody } from './links.js';

/** Images listed per page at most: a crafted page may hold millions of <img> tags. */
export const MAX_IMAGES = 10_000;

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
    // The first source that is a real address: a lazy-loading page puts a data: placeholder in src.
    for (const raw of [getAttr(el, 'src'), getAttr(el, 'data-src'), firstCandidate(getAttr(el, 'srcset'))]) {
      if (raw && !/^\s*data:/i.test(raw) && addPageUrl(raw, base, seen, out)) break;
    }
  }
  return out;
}
