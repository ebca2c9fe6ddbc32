// The page pipeline's dependencies for tests that build a crawl runner by hand: in-process extraction, local targets
// allowed, no browser.
import type { Kysely } from 'kysely';
import { inProcessExtractor } from '../../src/scrape/extractor.js';
import { PageCache } from '../../src/scrape/page-cache.js';
import type { PipelineDeps } from '../../src/scrape/pipeline.js';
import { ScreenshotStore } from '../../src/screenshots/store.js';
import type { Database } from '../../src/store/schema.js';

export function testPipeline(db: Kysely<Database>, overrides: Partial<PipelineDeps> = {}): PipelineDeps {
  return {
    cache: new PageCache(db),
    extractor: inProcessExtractor,
    now: () => new Date(),
    userAgent: 'crawlservice-test',
    maxBytes: 10_000_000,
    maxRedirects: 5,
    allowPrivateAddresses: true,
    defaultMaxAgeMs: 0,
    autoBrowserEngine: 'playwright',
    screenshots: new ScreenshotStore(db),
    ...overrides,
  };
}
