// Crawls with browser engines: links come from the rendered DOM, screenshots are kept per page and go with the job.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CrawlStore } from '../../src/crawl/store.js';
import { sweepOnce } from '../../src/maintenance/sweeper.js';
import { PageCache } from '../../src/scrape/page-cache.js';
import { pngSize } from '../../src/screenshots/png.js';
import { waitForCrawl } from '../fixtures/crawl-site.js';
import { type JsSite, startJsSite } from '../fixtures/js-site.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

interface Item {
  url: string;
  markdown: string;
  screenshot?: string;
  metadata: { engine: string };
}

describe('crawls with browser engines', () => {
  let t: TestApp;
  let site: JsSite;
  before(async () => {
    site = await startJsSite(15);
    t = await startTestApp({ env: { BROWSER_MAX_PAGES: '3', RESPECT_ROBOTS_TXT: 'false' } });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const get = (url: string) => t.request('GET', url);

  async function crawl(
    body: Record<string, unknown>,
  ): Promise<{ jobId: string; status: Record<string, unknown>; items: Item[] }> {
    const created = await t.request('POST', '/v1/crawl', { body });
    assert.equal(created.statusCode, 200, created.body);
    const jobId = created.json().data.job_id as string;
    const status = await waitForCrawl(get, jobId, 60_000);
    const items = (await get(`/v1/crawl/${jobId}?skip=0`)).json().data as Item[];
    return { jobId, status, items };
  }

  it('playwright: follows links that only exist in the rendered DOM and screenshots every page', async () => {
    const { jobId, status, items } = await crawl({
      url: `${site.url}/app/0`,
      engine: 'playwright',
      limit: 7,
      formats: ['markdown', 'screenshot'],
    });
    assert.equal(status.status, 'completed');
    assert.equal(status.completed, 7);
    // Which 7 pages depends on which renders end first (3 at once); every one beyond /app/0 was
    // found through a link that exists only in a rendered DOM.
    const urls = items.map((i) => i.url);
    assert.equal(new Set(urls).size, 7);
    assert.ok(urls.includes(`${site.url}/app/0`));
    assert.ok(
      urls.every((u) => /\/app\/\d+$/.test(u.slice(site.url.length))),
      urls.join(' '),
    );
    assert.ok(
      urls.some((u) => Number(u.split('/').pop()) >= 3),
      'pages two links deep were reached',
    );
    for (const item of items) {
      const n = item.url.split('/').pop();
      assert.match(item.markdown, new RegExp(`# App page ${n}`));
      assert.equal(item.metadata.engine, 'playwright');
      assert.match(item.screenshot ?? '', /^http:\/\/localhost(:\d+)?\/v1\/screenshots\/[0-9a-f-]{36}$/);
    }
    // One context per crawl job, reused page after page: 7 pages over at most 3 at once.
    const sessions = t.app.browser.stats().sessions;
    assert.ok(sessions.opened <= 3, `contexts opened: ${sessions.opened}`);
    assert.ok(sessions.reused >= 4, `contexts reused: ${sessions.reused}`);
    const first = items[0]?.screenshot ?? '';
    const png = await get(new URL(first).pathname);
    assert.equal(png.statusCode, 200);
    assert.deepEqual(pngSize(png.rawPayload), { width: 1280, height: 800 });

    // Expiry deletes the results and, with them, the screenshots.
    const db = t.app.db;
    const later = new Date(Date.now() + 400 * 24 * 3600 * 1000);
    await sweepOnce({
      db: db.kysely,
      cache: new PageCache(db.kysely),
      crawls: new CrawlStore(db.kysely, db.dialect),
      clock: () => later,
      cacheTtlMs: 10 ** 12,
    });
    assert.equal((await get(`/v1/crawl/${jobId}/status`)).statusCode, 404);
    assert.equal((await get(new URL(first).pathname)).statusCode, 404);
    assert.equal(
      Number(
        (
          await db.kysely
            .selectFrom('screenshots')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
      0,
    );
  });

  it('auto: renders the app shells it meets and crawls through them', async () => {
    const { status, items } = await crawl({ url: `${site.url}/app/0`, limit: 5, formats: ['markdown'], max_depth: 2 });
    assert.equal(status.status, 'completed');
    assert.equal(items.length, 5);
    for (const item of items) {
      assert.equal(item.metadata.engine, 'playwright');
      assert.match(item.markdown, /# App page \d+/);
    }
  });

  it('puppeteer: the same crawl with the other engine', async () => {
    const { status, items } = await crawl({
      url: `${site.url}/app/0`,
      engine: 'puppeteer',
      limit: 4,
      formats: ['markdown', 'links'],
    });
    assert.equal(status.status, 'completed');
    assert.equal(items.length, 4);
    for (const item of items) assert.equal(item.metadata.engine, 'puppeteer');
  });
});
