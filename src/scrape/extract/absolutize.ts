// Resolves the page's base URL and rewrites href/src/srcset inside extracted content to absolute URLs.
import { getAttr, parsedTags, removeAttr, setAttr, type Element, type Page } from './dom.js';

/** Returns undefined for values no browser would follow (empty, unparsable). */
export function toAbsoluteUrl(ref: string | null | undefined, base: string | undefined): string | undefined {
  if (ref == null) return undefined;
  // Browsers strip leading/trailing C0 controls and spaces, and tabs/newlines anywhere, from URL attributes.
  const cleaned = ref.replace(/[\t\n\r]/g, '').trim();
  if (!cleaned) return undefined;
  try {
    return new URL(cleaned, base).href;
  } catch {
    return undefined;
  }
}

/** A `<base href>` in the page wins over the page URL (itself resolved against the page URL), as in browsers. */
export function resolveBaseUrl(page: Page, pageUrl: string): string | undefined {
  const pageBase = toAbsoluteUrl(pageUrl, undefined);
  const baseEl = parsedTags(page, 'base').find((el) => getAttr(el, 'href') !== null);
  const fromTag = baseEl ? toAbsoluteUrl(getAttr(baseEl, 'href'), pageBase) : undefined;
  return fromTag ?? pageBase;
}

/**
 * Rewrites each candidate of a srcset ("url 2x, url 300w") and keeps its descriptor. Follows the HTML
 * parsing rules: a URL runs to the next whitespace (so CDN URLs with commas survive), a trailing comma
 * ends a candidate without descriptor, otherwise the descriptor runs to the next comma.
 */
export function absolutizeSrcset(srcset: string, base: string | undefined): string {
  const out: string[] = [];
  const n = srcset.length;
  let i = 0;
  const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
  while (i < n) {
    while (i < n && (isSpace(srcset[i]) || srcset[i] === ',')) i++;
    if (i >= n) break;
    let start = i;
    while (i < n && !isSpace(srcset[i])) i++;
    let url = srcset.slice(start, i);
    let descriptor = '';
    if (url.endsWith(',')) {
      // A loop, not /,+$/: that regex is quadratic on a long run of commas inside the URL.
      let end = url.length;
      while (end > 0 && url.charCodeAt(end - 1) === 0x2c) end--;
      url = url.slice(0, end);
    } else {
      start = i;
      while (i < n && srcset[i] !== ',') i++;
      descriptor = srcset.slice(start, i).trim();
    }
    const abs = toAbsoluteUrl(url, base) ?? url;
    out.push(descriptor ? `${abs} ${descriptor}` : abs);
  }
  return out.join(', ');
}

const URL_ATTRS = new Map<string, readonly string[]>([
  ['a', ['href']],
  ['area', ['href']],
  ['img', ['src']],
  ['source', ['src']],
  ['video', ['src', 'poster']],
  ['audio', ['src']],
  ['track', ['src']],
  ['iframe', ['src']],
  ['embed', ['src']],
  ['object', ['data']],
  ['blockquote', ['cite']],
  ['q', ['cite']],
  ['ins', ['cite']],
  ['del', ['cite']],
]);

/**
 * Makes every URL attribute under `root` absolute. Fragment-only and non-navigational schemes are left
 * alone when they cannot be resolved; `javascript:` links are turned into plain text holders by dropping href.
 */
export function absolutizeTree(root: Element, base: string | undefined): void {
  const walk = (parent: Element): void => {
    for (const el of parent.children) {
      if (el.type !== 'tag' && el.type !== 'script' && el.type !== 'style') continue;
      const attrs = URL_ATTRS.get(el.name);
      if (attrs) {
        for (const attr of attrs) {
          const value = getAttr(el, attr);
          if (value == null) continue;
          if (/^\s*javascript:/i.test(value)) {
            removeAttr(el, attr);
            continue;
          }
          const abs = toAbsoluteUrl(value, base);
          if (abs !== undefined) setAttr(el, attr, abs);
        }
      }
      if (el.name === 'img' || el.name === 'source') {
        const srcset = getAttr(el, 'srcset');
        if (srcset) setAttr(el, 'srcset', absolutizeSrcset(srcset, base));
      }
      if (el.children.length) walk(el);
    }
  };
  walk(root);
}
