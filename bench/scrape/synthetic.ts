// The synthetic crawl site's pages (bench/crawl/site.ts) as extraction inputs, chosen the way bench/crawl measures
// "extraction in-process".
import { renderPage } from '../crawl/site.js';

export interface SyntheticPage {
  html: string;
  url: string;
}

/**
 * `sampleSize` pages of a site of `siteSize` pages, spread over the ids; bench/crawl/index.ts measures extraction on
 * these too.
 */
export function syntheticPages(sampleSize = 200, siteSize = 5000): SyntheticPage[] {
  const ids = Array.from({ length: sampleSize }, (_, k) => 9 + ((k * 29) % (siteSize - 9)));
  return ids.map((i) => ({ html: renderPage(i, siteSize), url: `http://127.0.0.1/${i}` }));
}
