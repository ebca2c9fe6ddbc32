// A crawl while the SQLite store fills up and is freed again: it must end, every page exactly once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { type CrawlSite, startCrawlSite, treeSitePages } from '../fixtures/crawl-site.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const PAGES = 120;

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

describe('a crawl across a full disk (SQLite)', () => {
  let site: CrawlSite;
  let t: TestApp;
  before(async () => {
    site = await startCrawlSite(treeSitePages(PAGES, 20));
    t = await startTestApp({ env: { CRAWL_RETRY_BASE_MS: '50', RESPECT_ROBOTS_TXT: 'false' } });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  it('pauses while the disk is full and finishes complete and exact once space is back', async () => {
    const created = await t.request('POST', '/v1/crawl', {
      body: { url: `${site.url}/`, limit: PAGES, formats: ['markdown'], max_depth: 20 },
    });
    assert.equal(created.statusCode, 200, created.body);
    const id = (created.json() as { data: { job_id: string } }).data.job_id;
    const status = async () =>
      (await t.request('GET', `/v1/crawl/${id}/status`)).json() as {
        data: { status: string; total: number; completed: number; failed: number };
      };

    for (let waited = 0; (await status()).data.completed < 10; waited += 20) {
      assert.ok(waited < 20_000, 'the crawl got going');
      await sleep(20);
    }
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(t.app.db.kysely);
    await sql.raw(`pragma max_page_count = ${rows[0]?.page_count ?? 1}`).execute(t.app.db.kysely);
    await sleep(3000);
    await sql.raw('pragma max_page_count = 1073741823').execute(t.app.db.kysely);

    const deadline = Date.now() + 60_000;
    let last = await status();
    while (last.data.status === 'pending') {
      assert.ok(Date.now() < deadline, `the crawl ended: ${JSON.stringify(last.data)}`);
      await sleep(100);
      last = await status();
    }
    assert.equal(last.data.status, 'completed', JSON.stringify(last.data));
    assert.equal(last.data.total, PAGES);
    assert.equal(last.data.completed + last.data.failed, PAGES, JSON.stringify(last.data));
    assert.equal(last.data.failed, 0, "a full disk is not the pages' fault");
    const urls: string[] = [];
    for (let skip = 0; ; skip += 100) {
      const page = (await t.request('GET', `/v1/crawl/${id}?skip=${skip}`)).json() as {
        data: Array<{ url: string }>;
        next?: string;
      };
      urls.push(...page.data.map((r) => r.url));
      if (!page.next) break;
    }
    assert.equal(urls.length, PAGES);
    assert.equal(new Set(urls).size, PAGES, 'no page twice');
  });
});
