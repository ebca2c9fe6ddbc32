// Kill the service with SIGKILL in the middle of a batch scrape, start it again: the batch resumes from the store's
// frontier and ends with every URL in the results exactly once and exact counts (as test/e2e/crawl-resume.test.ts).
// SQLite here; test/batch/batch-gaps.test.ts does the same on PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type CrawlSite, type FixturePage, startCrawlSite } from '../fixtures/crawl-site.js';
import { tempDir } from '../helpers/databases.js';
import { batchThroughSigkill } from './helpers.js';

const COUNT = 80;
let site: CrawlSite;
before(async () => {
  const pages: Record<string, FixturePage> = {};
  for (let i = 0; i < COUNT; i++) pages[`/u${i}`] = { delayMs: 60 };
  site = await startCrawlSite(pages);
});
after(async () => {
  await site.close();
});

it('resumes a batch after SIGKILL with every URL in the results exactly once and exact counts', async () => {
  const urls = Array.from({ length: COUNT }, (_, i) => `${site.url}/u${i}`);
  const run = await batchThroughSigkill(
    {
      DATA_DIR: tempDir(),
      API_KEYS: 'batch-resume-key',
      ALLOW_LOCAL_TARGETS: 'true',
      CRAWL_CONCURRENCY: '4',
      CRAWL_JOB_CONCURRENCY: '4',
    },
    urls,
    15,
  );
  // From the restart: how long a process takes to start on a loaded machine is not what is measured here. The pages
  // in flight at the kill wait out their lease (CRAWL_LEASE_MS, 10 s), then the rest take about a second.
  assert.ok(run.afterRestartMs < 25_000, `the batch completed ${run.afterRestartMs} ms after the restart`);
  assert.equal(run.status.status, 'completed');
  assert.equal(run.status.total, COUNT);
  assert.equal(run.status.completed, COUNT);
  assert.equal(run.status.failed, 0);
  assert.equal(run.status.credits_used, COUNT);
  assert.equal(run.seen.length, COUNT, 'each URL is in the results once');
  assert.deepEqual([...new Set(run.seen)].sort(), [...urls].sort());
  // Fetched twice: only pages the killed worker had in flight (at most its 4 slots).
  const refetched = [...site.hits].filter(([, hits]) => hits > 1);
  assert.ok(refetched.length <= 4, `fetched more than once: ${JSON.stringify(refetched)}`);
});
