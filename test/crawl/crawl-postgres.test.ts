// Crawls on PostgreSQL: two worker processes' worth of runners on one database share a crawl without overlap.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type CrawlSite, type FixturePage, startCrawlSite, waitForCrawl } from '../fixtures/crawl-site.js';
import { postgresDatabase, type TestDatabase } from '../helpers/databases.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

let site: CrawlSite;
let database: TestDatabase;
let a: TestApp;
let b: TestApp;
before(async () => {
  const pages: Record<string, FixturePage> = { '/': { links: Array.from({ length: 60 }, (_, i) => `/p${i}`) } };
  for (let i = 0; i < 60; i++) pages[`/p${i}`] = { links: [`/p${(i + 7) % 60}`], delayMs: 10 };
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

it('splits one crawl over two workers on PostgreSQL, each page fetched and saved once', async () => {
  const res = await a.request('POST', '/v1/crawl', { body: { url: `${site.url}/` } });
  assert.equal(res.statusCode, 200, res.body);
  const jobId = res.json().data.job_id;
  b.app.runner?.notify();
  const status = await waitForCrawl((url) => b.request('GET', url), jobId, 60_000);
  assert.equal(status.status, 'completed');
  assert.equal(status.completed, 61);
  assert.equal(status.total, 61);
  for (const [path, hits] of site.hits) if (path !== '/robots.txt') assert.equal(hits, 1, path);
  const first = (await a.request('GET', `/v1/crawl/${jobId}?skip=0`)).json();
  const second = (await a.request('GET', `/v1/crawl/${jobId}?skip=100`)).json();
  const urls = [...first.data, ...second.data].map((r: { url: string }) => r.url);
  assert.equal(new Set(urls).size, 61);
  assert.equal(urls.length, 61);
  const owners = await a.app.db.kysely
    .selectFrom('crawl_pages')
    .select('lease_owner')
    .where('job_id', '=', jobId)
    .execute();
  assert.ok(
    owners.every((o) => o.lease_owner === null),
    'no lease left behind',
  );
});
