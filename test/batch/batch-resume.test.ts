// Kill the service with SIGKILL in the middle of a batch scrape, start it again: the batch resumes from the store's
// frontier and ends with every URL in the results exactly once and exact counts (as test/e2e/crawl-resume.test.ts).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type CrawlSite, type FixturePage, startCrawlSite } from '../fixtures/crawl-site.js';
import { tempDir } from '../helpers/databases.js';
import { startService } from '../helpers/process.js';

const KEY = 'batch-resume-key';
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

interface ApiAnswer {
  data: Record<string, unknown> & { job_id?: string; status?: string; completed?: number; total?: number };
  next?: string;
}

async function api(base: string, method: string, path: string, body?: unknown): Promise<ApiAnswer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as ApiAnswer;
}

it('resumes a batch after SIGKILL with every URL in the results exactly once and exact counts', async () => {
  const env = {
    DATA_DIR: tempDir(),
    API_KEYS: KEY,
    ALLOW_LOCAL_TARGETS: 'true',
    CRAWL_CONCURRENCY: '4',
    CRAWL_JOB_CONCURRENCY: '4',
  };
  const urls = Array.from({ length: COUNT }, (_, i) => `${site.url}/u${i}`);
  const first = await startService(env);
  const created = await api(first.url, 'POST', '/v1/batch/scrape', { urls, engine: 'cheerio' });
  const jobId = created.data.job_id as string;
  assert.equal(created.data.total, COUNT);

  // Kill once some pages are done and others are in flight.
  for (;;) {
    const status = await api(first.url, 'GET', `/v1/batch/scrape/${jobId}/status`);
    if ((status.data.completed ?? 0) >= 15) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  first.child.kill('SIGKILL');
  const killedAt = Date.now();
  await first.exited;

  const second = await startService(env);
  // From the restart: how long a process takes to start on a loaded machine is not what is measured here.
  const restartedAt = Date.now();
  try {
    let status: ApiAnswer['data'];
    const deadline = Date.now() + 60_000;
    for (;;) {
      status = (await api(second.url, 'GET', `/v1/batch/scrape/${jobId}/status`)).data;
      if (status.status !== 'pending') break;
      assert.ok(Date.now() < deadline, `batch did not finish: ${JSON.stringify(status)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const afterKillMs = Date.now() - killedAt;
    const afterRestartMs = Date.now() - restartedAt;
    // The pages in flight at the kill wait out their lease (CRAWL_LEASE_MS, 10 s), then the rest take about a second.
    assert.ok(
      afterRestartMs < 25_000,
      `the batch completed ${afterRestartMs} ms after the restart (${afterKillMs} ms after the kill)`,
    );
    assert.equal(status.status, 'completed');
    assert.equal(status.total, COUNT);
    assert.equal(status.completed, COUNT);
    assert.equal(status.failed, 0);
    assert.equal(status.credits_used, COUNT);

    const seen: string[] = [];
    let next: string | undefined = `/v1/batch/scrape/${jobId}?skip=0`;
    while (next) {
      const page = await api(second.url, 'GET', next.replace(/^https?:\/\/[^/]+/, ''));
      seen.push(...(page.data as unknown as Array<{ url: string }>).map((r) => r.url));
      next = page.next;
    }
    assert.equal(seen.length, COUNT, 'each URL is in the results once');
    assert.deepEqual([...new Set(seen)].sort(), [...urls].sort());
    // Fetched twice: only pages the killed worker had in flight (at most its 4 slots).
    const refetched = [...site.hits].filter(([, hits]) => hits > 1);
    assert.ok(refetched.length <= 4, `fetched more than once: ${JSON.stringify(refetched)}`);
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
});
