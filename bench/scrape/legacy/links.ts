// Lists every http(s) link of the whole page: absolute, without fragment, de-duplicated, in document order.
import { toAbsoluteUrl } from './absolutize.js';
import type { DomDocument } from './dom.js';

export function extractLinks(doc: DomDocument, base: string | undefined): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const el of Array.from(doc.body.querySelectorAll('a[href], area[href]'))) {
    const abs = toAbsoluteUrl(el.getAttribute('href'), base);
    if (!abs || !(abs.startsWith('http://') || abs.startsWith('https://'))) continue;
    const hash = abs.indexOf('#');
    const url = hash === -1 ? abs : abs.slice(0, hash);
    if (seen.has(url)) continue;
    seen.add(url);
    out.push(url);
  }
  return out;
}
