// Comparison extractors for the benchmarks: plain Readability on linkedom, and a selector blacklist over the whole
// page.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { removeBoilerplate } from '../../src/scrape/extract/boilerplate.js';
import { removeNoise } from '../../src/scrape/extract/clean.js';
import { parsePage } from '../../src/scrape/extract/dom.js';
import { toText } from '../../src/scrape/extract/text.js';

/** Readability.js as documented: linkedom document in, textContent out ('' when it gives up). */
export function readabilityText(html: string): string {
  try {
    const { document } = parseHTML(html);
    return new Readability(document).parse()?.textContent ?? '';
  } catch {
    return '';
  }
}

/** The whole body minus scripts/styles and header/footer/nav/aside/form/banner selectors. */
export function blacklistText(html: string): string {
  const page = parsePage(html);
  removeNoise(page, { keepNoscript: false });
  removeBoilerplate(page.body);
  return toText(page.body);
}
