// On PostgreSQL, end to end: pages indexed by a scrape and by a batch scrape leave the search index when their jobs
// expire and the sweeper runs, and POST /v1/search stops finding them, while a younger job's page stays findable.
// test/maintenance/sweeper.test.ts checks the sweep on SQLite with rows written directly.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { CrawlStore } from '../../src/crawl/store.js';
import { sweepOnce } from '../../src/maintenance/sweeper.js';
import { PageCache } from '../../src/scrape/page-cache.js';
import { type CrawlSite, startCrawlSite } from '../fixtures/crawl-site.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';
import { waitForBatch } from '../batch/helpers.js';

const HOUR = 3600_000;
const RETENTION_MS = 24 * HOUR;
const article = (words: string) =>
  `<p>${words} The marmoset paragraph gives the extractor enough real sentences to see an article here, and it goes on for a while so that it is clearly the main content.</p><p>Another paragraph follows it.</p>`;

let t: TestApp;
let site: CrawlSite;
// The app's clock, moved by the test: jobs expire JOB_RETENTION_MS after they end by this clock.
let now = new Date(Date.now() + 1000);
before(async () => {
  site = await startCrawlSite({
    '/scraped-old': { title: 'Old scrape', body: article('Axolotl habitat notes.') },
    '/batch-a': { title: 'Batch A', body: article('Pangolin scales notes.') },
    '/batch-b': { title: 'Batch B', body: article('Pangolin diet notes.') },
    '/scraped-new': { title: 'New scrape', body: article('Narwhal tusk notes.') },
  });
  t = await startTestApp({ backend: 'postgres', clock: () => now, env: { JOB_RETENTION_MS: String(RETENTION_MS) } });
});
after(async () => {
  await t.close();
  await site.close();
});

async function search(query: string): Promise<Array<{ url: string; indexed_by_job?: string }>> {
  const res = await t.request('POST', '/v1/search', { body: { query, engine: 'index', limit: 20 } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
}
const urlsOf = (hits: Array<{ url: string }>) => hits.map((h) => h.url).sort();

it('removes the pages of expired jobs from the index when the sweeper runs; a search no longer finds them', async () => {
  assert.equal(t.app.db.dialect, 'postgres');
  const old = await t.request('POST', '/v1/scrape', { body: { url: `${site.url}/scraped-old` } });
  assert.equal(old.statusCode, 200, old.body);
  const batch = await t.request('POST', '/v1/batch/scrape', {
    body: { urls: [`${site.url}/batch-a`, `${site.url}/batch-b`] },
  });
  assert.equal(batch.statusCode, 200, batch.body);
  const batchId = batch.json().data.job_id as string;
  assert.equal((await waitForBatch(t, batchId)).status, 'completed');

  // Half a retention later, a second scrape: it expires half a retention after the others.
  now = new Date(now.getTime() + RETENTION_MS / 2);
  const young = await t.request('POST', '/v1/scrape', { body: { url: `${site.url}/scraped-new` } });
  assert.equal(young.statusCode, 200, young.body);
  const youngId = young.json().data.job_id as string;

  const all = [
    `${site.url}/batch-a`,
    `${site.url}/batch-b`,
    `${site.url}/scraped-new`,
    `${site.url}/scraped-old`,
  ].sort();
  assert.deepEqual(urlsOf(await search('marmoset')), all, 'every page is indexed before the sweep');

  const sweep = (at: Date) =>
    sweepOnce({
      db: t.app.db.kysely,
      cache: new PageCache(t.app.db.kysely),
      crawls: new CrawlStore(t.app.db.kysely, t.app.db.dialect),
      clock: () => at,
      cacheTtlMs: 7 * 24 * HOUR,
    });
  // Before anything has expired, a sweep keeps every page.
  await sweep(new Date(now.getTime() + HOUR));
  assert.deepEqual(urlsOf(await search('marmoset')), all);

  // Past the first jobs' expiry, before the young scrape's.
  now = new Date(now.getTime() + RETENTION_MS / 2 + HOUR);
  const swept = await sweep(now);
  assert.ok(swept.jobs >= 1, `the old scrape was swept: ${JSON.stringify(swept)}`);
  assert.ok(swept.crawls >= 1, `the batch was swept: ${JSON.stringify(swept)}`);

  const left = await search('marmoset');
  assert.deepEqual(urlsOf(left), [`${site.url}/scraped-new`]);
  assert.equal(left[0]?.indexed_by_job, youngId);
  assert.deepEqual(await search('axolotl'), [], "the expired scrape's page");
  assert.deepEqual(await search('pangolin'), [], "the expired batch's pages");
  assert.deepEqual(urlsOf(await search('narwhal')), [`${site.url}/scraped-new`]);
  const rows = await t.app.db.kysely.selectFrom('search_documents').select('job_id').execute();
  assert.deepEqual(
    rows.map((r) => r.job_id),
    [youngId],
    'the rows are gone, not only hidden from searches',
  );
  assert.equal((await t.request('GET', `/v1/batch/scrape/${batchId}/status`)).statusCode, 404);
});
