// Links are extracted for discovery only while they can be used: not once a crawl has admitted as many pages as its
// limit allows, nor at max_depth (unless the client asked for links).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { pino } from 'pino';
import { CrawlRunner } from '../../src/crawl/runner.js';
import { crawlRequestSchema } from '../../src/crawl/schema.js';
import { CrawlService, type CrawlStatus } from '../../src/crawl/service.js';
import { CrawlStore } from '../../src/crawl/store.js';
import type { ExtractInput } from '../../src/scrape/extract/index.js';
import { type Extractor, inProcessExtractor } from '../../src/scrape/extractor.js';
import { deploymentCapabilities } from '../../src/scrape/capabilities.js';
import { type Db, openDatabase } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrations.js';
import { systemClock } from '../../src/util/time.js';
import { type CrawlSite, type FixturePage, startCrawlSite } from '../fixtures/crawl-site.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { testPipeline } from '../helpers/pipeline.js';

const database = sqliteDatabase();
let db: Db;
let runner: CrawlRunner;
let service: CrawlService;
let site: CrawlSite;
/** What the crawl asked extraction for, page by page. */
const asked: Array<Pick<ExtractInput, 'url' | 'formats'>> = [];

before(async () => {
  // The seed links to ten pages, each of which links to five more: far more than a limit of 4.
  const pages: Record<string, FixturePage> = { '/': { links: Array.from({ length: 10 }, (_, i) => `/p${i}`) } };
  for (let i = 0; i < 10; i++) pages[`/p${i}`] = { links: Array.from({ length: 5 }, (_, j) => `/p${i}/q${j}`) };
  site = await startCrawlSite(pages);
  db = await openDatabase(database.target);
  await migrateToLatest(db.kysely);
  const store = new CrawlStore(db.kysely, db.dialect);
  const extractor: Extractor = {
    extract: (input) => {
      asked.push({ url: input.url, formats: [...input.formats] });
      return inProcessExtractor.extract(input);
    },
    waiting: () => inProcessExtractor.waiting(),
    close: async () => undefined,
  };
  runner = new CrawlRunner({
    store,
    pipeline: testPipeline(db.kysely, { extractor, userAgent: 'frontier-test' }),
    robots: undefined,
    clock: systemClock,
    logger: pino({ level: 'silent' }),
    // One page at a time: the seed is recorded before any other page is fetched.
    concurrency: 1,
    jobConcurrency: 1,
    hostConcurrency: 1,
    leaseMs: 30_000,
    retentionMs: 86_400_000,
    pollMs: 20,
  });
  service = new CrawlService({
    store,
    clock: systemClock,
    capabilities: deploymentCapabilities(false),
    retentionMs: 86_400_000,
    targets: { allowPrivate: true },
    onCreated: () => runner.notify(),
  });
  runner.start();
});

after(async () => {
  await runner.stop();
  await db.close();
  await database.drop();
  await site.close();
});

/** Runs a crawl of the site to its end; `asked` then holds what it asked extraction for. */
async function crawlToEnd(
  body: Record<string, unknown>,
): Promise<{ id: string; status: CrawlStatus; pages: string[] }> {
  asked.length = 0;
  const { job_id: id } = await service.create('owner', crawlRequestSchema.parse({ url: `${site.url}/`, ...body }));
  const deadline = Date.now() + 15_000;
  for (;;) {
    const status = await service.status('owner', id);
    if (status.status !== 'pending') return { id, status, pages: asked.map((a) => new URL(a.url).pathname) };
    assert.ok(Date.now() < deadline, `crawl still pending: ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A crawl with limit 4 ends completed with exactly 4 pages. */
function assertFourPages(status: CrawlStatus): void {
  assert.equal(status.status, 'completed');
  assert.equal(status.completed, 4);
  assert.equal(status.total, 4);
}

it('asks for links only until the limit is reached', async () => {
  const { status, pages } = await crawlToEnd({ limit: 4, formats: ['markdown'] });
  assertFourPages(status);
  assert.deepEqual(pages, ['/', '/p0', '/p1', '/p2'], 'the seed and the first three of its links');
  assert.deepEqual(asked[0]?.formats, ['markdown', 'links'], 'the seed is extracted with links for discovery');
  for (const a of asked.slice(1)) assert.deepEqual(a.formats, ['markdown'], `${a.url}: the limit was already reached`);
});

it('still gives links to a client that asked for them, on every page', async () => {
  const { id, status } = await crawlToEnd({ limit: 4, formats: ['markdown', 'links'] });
  assertFourPages(status);
  for (const a of asked) assert.deepEqual(a.formats, ['markdown', 'links']);
  const { data } = await service.results('owner', id, 0, 'http://api.test');
  assert.equal(data.length, 4);
  for (const item of data as Array<{ url: string; links?: string[] }>) {
    assert.ok(Array.isArray(item.links) && item.links.length > 0, `${item.url} has its links`);
  }
});

it('asks for no links at the depth limit either', async () => {
  // The limit is never reached (11 pages); the ten pages at depth 1 are at max_depth.
  const { status } = await crawlToEnd({ limit: 100, max_depth: 1, formats: ['markdown'] });
  assert.equal(status.status, 'completed');
  assert.equal(status.completed, 11, 'the seed and its ten links');
  assert.equal(asked.length, 11);
  assert.deepEqual(asked[0]?.formats, ['markdown', 'links'], 'the seed, at depth 0, is extracted with links');
  for (const a of asked.slice(1)) assert.deepEqual(a.formats, ['markdown'], `${a.url} is at max_depth`);
});
