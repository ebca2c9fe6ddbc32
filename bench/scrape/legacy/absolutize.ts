// Resolves the page's base URL and rewrites href/src/srcset inside extracted content to absolute URLs.
import type { DomDocument, DomElement } from './dom.js';

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
export function resolveBaseUrl(doc: DomDocument, pageUrl: string): string | undefined {
  const page = toAbsoluteUrl(pageUrl, undefined);
  const baseEl = doc.querySelector('base[href]');
  const fromTag = baseEl ? toAbsoluteUrl(baseEl.getAttribute('href'), page) : undefined;
  return fromTag ?? page;
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
      url = url.replace(/,+$/, '');
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

const URL_ATTRS: ReadonlyArray<readonly [string, string]> = [
  ['a', 'href'],
  ['area', 'href'],
  ['img', 'src'],
  ['source', 'src'],
  ['video', 'src'],
  ['video', 'poster'],
  ['audio', 'src'],
  ['track', 'src'],
  ['iframe', 'src'],
  ['embed', 'src'],
  ['object', 'data'],
  ['blockquote', 'cite'],
  ['q', 'cite'],
  ['ins', 'cite'],
  ['del', 'cite'],
];
const SELECTOR = URL_ATTRS.map(([tag, attr]) => `${tag}[${attr}]`).join(',') + ',img[srcset],source[srcset]';

/**
 * Makes every URL attribute under `root` absolute. Fragment-only and non-navigational schemes are left
 * alone when they cannot be resolved; `javascript:` links are turned into plain text holders by dropping href.
 */
export function absolutizeTree(root: DomElement, base: string | undefined): void {
  for (const el of Array.from(root.querySelectorAll(SELECTOR))) {
    const tag = el.localName;
    for (const [t, attr] of URL_ATTRS) {
      if (t !== tag) continue;
      const value = el.getAttribute(attr);
      if (value == null) continue;
      if (/^\s*javascript:/i.test(value)) {
        el.removeAttribute(attr);
        continue;
      }
      const abs = toAbsoluteUrl(value, base);
      if (abs !== undefined) el.setAttribute(attr, abs);
    }
    const srcset = el.getAttribute('srcset');
    if (srcset) el.setAttribute('srcset', absolutizeSrcset(srcset, base));
  }
}
