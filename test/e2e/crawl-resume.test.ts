// Kill the service with SIGKILL in the middle of a crawl, start it again: the crawl resumes and ends exact,
// and with the default lease (CRAWL_LEASE_MS) the dead worker's pages are taken again within seconds.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type CrawlSite, type FixturePage, startCrawlSite } from '../fixtures/crawl-site.js';
import { tempDir } from '../helpers/databases.js';
import { startService } from '../helpers/process.js';

const KEY = 'resume-key';
let site: CrawlSite;
before(async () => {
  const pages: Record<string, FixturePage> = { '/': { links: Array.from({ length: 20 }, (_, i) => `/s${i}`) } };
  for (let i = 0; i < 20; i++) {
    pages[`/s${i}`] = { links: [`/s${i}/a`, `/s${i}/b`, '/'], delayMs: 60 };
    pages[`/s${i}/a`] = { links: [`/s${(i + 1) % 20}/a`], delayMs: 60 };
    pages[`/s${i}/b`] = { delayMs: 60 };
  }
  site = await startCrawlSite(pages);
});
after(async () => {
  await site.close();
});

interface ApiAnswer {
  data: Record<string, unknown> & { job_id?: string; status?: string; completed?: number };
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

it('resumes a crawl after SIGKILL with every page exactly once and exact counts, well within 20 s of the kill', async () => {
  // The default lease (10 s): the pages in flight at the kill wait for it to run out.
  const env = {
    DATA_DIR: tempDir(),
    API_KEYS: KEY,
    ALLOW_LOCAL_TARGETS: 'true',
    CRAWL_CONCURRENCY: '4',
    CRAWL_JOB_CONCURRENCY: '4',
  };
  const first = await startService(env);
  const created = await api(first.url, 'POST', '/v1/crawl', { url: `${site.url}/`, limit: 100 });
  const jobId = created.data.job_id as string;

  // Kill once some pages are done and others are in flight.
  for (;;) {
    const status = await api(first.url, 'GET', `/v1/crawl/${jobId}/status`);
    if ((status.data.completed ?? 0) >= 15) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  first.child.kill('SIGKILL');
  const killedAt = Date.now();
  await first.exited;

  const second = await startService(env);
  try {
    let status: ApiAnswer['data'];
    const deadline = Date.now() + 60_000;
    for (;;) {
      status = (await api(second.url, 'GET', `/v1/crawl/${jobId}/status`)).data;
      if (status.status !== 'pending') break;
      assert.ok(Date.now() < deadline, `crawl did not finish: ${JSON.stringify(status)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // The second process starts (a few seconds), queued pages go on at once, the dead worker's
    // in-flight pages once their lease is over (at most 10 s after its last heartbeat, then a
    // heartbeat of the new worker). With the former 30 s lease this took 39-42 s.
    const afterKillMs = Date.now() - killedAt;
    assert.ok(afterKillMs < 20_000, `the crawl completed ${afterKillMs} ms after the kill`);
    assert.equal(status.status, 'completed');
    assert.equal(status.total, 61);
    assert.equal(status.completed, 61);
    assert.equal(status.failed, 0);
    assert.equal(status.credits_used, 61);

    const urls: string[] = [];
    let next: string | undefined = `/v1/crawl/${jobId}?skip=0`;
    while (next) {
      const page = await api(second.url, 'GET', next.replace(/^https?:\/\/[^/]+/, ''));
      urls.push(...(page.data as unknown as Array<{ url: string }>).map((r) => r.url));
      next = page.next;
    }
    assert.equal(urls.length, 61, 'each page is in the results once');
    assert.equal(new Set(urls).size, 61);
    // Fetched twice: only pages the killed worker had in flight (at most its 4 slots).
    const refetched = [...site.hits].filter(([path, hits]) => path !== '/robots.txt' && hits > 1);
    assert.ok(refetched.length <= 4, `fetched more than once: ${JSON.stringify(refetched)}`);
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
});
