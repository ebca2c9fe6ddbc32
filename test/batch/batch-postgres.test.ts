// Batch scrapes on PostgreSQL: two apps' workers on one database share a batch, each URL fetched and saved once;
// results paging, events, cancel and expiry by the sweeper.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { readEvents } from '../../src/events/outbox.js';
import { CrawlStore } from '../../src/crawl/store.js';
import { type CrawlSite, type FixturePage, startCrawlSite } from '../fixtures/crawl-site.js';
import { postgresDatabase, type TestDatabase } from '../helpers/databases.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';
import { allResults, createBatch, waitForBatch } from './helpers.js';

let site: CrawlSite;
let database: TestDatabase;
let a: TestApp;
let b: TestApp;
before(async () => {
  const pages: Record<string, FixturePage> = {};
  for (let i = 0; i < 120; i++) pages[`/p${i}`] = { delayMs: 5 };
  pages['/gone'] = { status: 404 };
  for (let i = 0; i < 20; i++) pages[`/slow${i}`] = { delayMs: 400 };
  site = await startCrawlSite(pages);
  database = postgresDatabase();
  a = await startTestApp({ database, env: { CRAWL_CONCURRENCY: '4' } });
  b = await startTestApp({ database, env: { CRAWL_CONCURRENCY: '4' } });
});
after(async () => {
  await a.close();
  await b.close();
  await database.drop();
  await site.close();
});

it('splits a batch over two workers on PostgreSQL, each URL fetched and saved once, then sweeps it when expired', async () => {
  const urls = [...Array.from({ length: 120 }, (_, i) => `${site.url}/p${i}`), `${site.url}/gone`, `${site.url}/p0`];
  const created = await createBatch(a, { urls });
  assert.equal(created.total, 121);
  b.app.runner?.notify();
  const status = await waitForBatch(b, created.job_id, 60_000);
  assert.equal(status.status, 'completed');
  assert.equal(status.completed, 121);
  assert.equal(status.failed, 0);
  assert.equal(status.credits_used, 121);
  for (const [path, hits] of site.hits) assert.equal(hits, 1, path);
  const { items, pages } = await allResults(a, created.job_id);
  assert.equal(pages.length, 2);
  assert.equal(new Set(items.map((i) => i.url)).size, 121);
  const gone = items.find((i) => i.url.endsWith('/gone'));
  assert.equal(gone?.metadata.status_code, 404);
  assert.deepEqual(
    (await readEvents(a.app.db.kysely, { subjectId: created.job_id })).map((e) => e.type),
    ['scrape.created', 'scrape.started', 'scrape.completed'],
  );

  // Expired (its retention after the end has passed): the sweeper's delete takes its pages and results too.
  const store = new CrawlStore(a.app.db.kysely, a.app.db.dialect);
  const deleted = await store.deleteExpired(new Date(Date.now() + 2 * 24 * 3600_000).toISOString());
  assert.ok(deleted >= 1);
  assert.equal((await a.request('GET', `/v1/batch/scrape/${created.job_id}/status`)).statusCode, 404);
  const left = await a.app.db.kysely
    .selectFrom('crawl_pages')
    .select('id')
    .where('job_id', '=', created.job_id)
    .execute();
  assert.deepEqual(left, []);
});

it('cancels a batch on PostgreSQL with scrape.cancelled', async () => {
  const created = await createBatch(a, { urls: Array.from({ length: 20 }, (_, i) => `${site.url}/slow${i}`) });
  const res = await a.request('DELETE', `/v1/batch/scrape/${created.job_id}`);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal((await a.request('DELETE', `/v1/batch/scrape/${created.job_id}`)).statusCode, 409);
  const types = (await readEvents(a.app.db.kysely, { subjectId: created.job_id })).map((e) => e.type);
  assert.equal(types[0], 'scrape.created');
  assert.equal(types.at(-1), 'scrape.cancelled');
});
