// The browser engines through the API: rendering, auto's choice, waits, screenshots and their route, the guard.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CrawlStore } from '../../src/crawl/store.js';
import { sweepOnce } from '../../src/maintenance/sweeper.js';
import { PageCache } from '../../src/scrape/page-cache.js';
import { pngSize } from '../../src/screenshots/png.js';
import { OTHER_KEY, type TestApp, startTestApp } from '../helpers/test-app.js';
import { type JsSite, startJsSite } from '../fixtures/js-site.js';

const UUID_PATH = /^http:\/\/localhost(:\d+)?\/v1\/screenshots\/[0-9a-f-]{36}$/;

describe('browser engines over the API', () => {
  let t: TestApp;
  let site: JsSite;
  before(async () => {
    site = await startJsSite();
    t = await startTestApp({ env: { BROWSER_MAX_PAGES: '2' } });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const scrape = (body: Record<string, unknown>) => t.request('POST', '/v1/scrape', { body });
  const pathOf = (url: string) => new URL(url).pathname;

  for (const engine of ['playwright', 'puppeteer'] as const) {
    it(`${engine}: renders a JavaScript page, says which engine served it, and stores a viewport screenshot`, async () => {
      const res = await scrape({ url: `${site.url}/app/0`, engine, formats: ['markdown', 'links', 'screenshot'] });
      assert.equal(res.statusCode, 200, res.body);
      const data = res.json().data;
      assert.equal(data.metadata.engine, engine);
      assert.equal(data.metadata.status_code, 200);
      assert.match(data.markdown, /# App page 0/);
      assert.match(data.markdown, /written into the page by a script/);
      assert.deepEqual(data.links, [`${site.url}/app/1`, `${site.url}/app/2`]);
      assert.match(data.screenshot, UUID_PATH);

      const png = await t.request('GET', pathOf(data.screenshot));
      assert.equal(png.statusCode, 200);
      assert.equal(png.headers['content-type'], 'image/png');
      assert.deepEqual(pngSize(png.rawPayload), { width: 1280, height: 800 });
    });
  }

  it('takes a full-page screenshot as tall as the page (puppeteer)', async () => {
    const res = await scrape({ url: `${site.url}/tall`, engine: 'puppeteer', formats: ['screenshot@fullPage'] });
    assert.equal(res.statusCode, 200, res.body);
    const png = await t.request('GET', pathOf(res.json().data.screenshot));
    const size = pngSize(png.rawPayload);
    assert.equal(size?.width, 1280);
    assert.ok(size !== undefined && size.height >= 3000, `height ${size?.height}`);
  });

  it('serves a screenshot only to the key that made it; a bad id is a 400', async () => {
    const res = await scrape({ url: `${site.url}/static`, engine: 'playwright', formats: ['screenshot'] });
    const path = pathOf(res.json().data.screenshot);
    assert.equal((await t.request('GET', path, { key: OTHER_KEY })).statusCode, 404);
    assert.equal((await t.request('GET', path, { key: null })).statusCode, 401);
    assert.equal((await t.request('GET', '/v1/screenshots/not-a-uuid')).statusCode, 400);
    assert.equal((await t.request('GET', '/v1/screenshots/00000000-0000-4000-8000-000000000000')).statusCode, 404);
  });

  it('auto keeps the HTTP engine for a page with its content in the HTML', async () => {
    const res = await scrape({ url: `${site.url}/static`, formats: ['markdown'] });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.metadata.engine, 'cheerio');
    assert.match(res.json().data.markdown, /Server rendered/);
  });

  it('auto renders an app shell in the browser, keeping the URL asked for', async () => {
    const res = await scrape({ url: `${site.url}/app/3`, formats: ['markdown'], max_age: 0 });
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    assert.equal(data.metadata.engine, 'playwright');
    assert.equal(data.metadata.source_url, `${site.url}/app/3`);
    assert.match(data.markdown, /# App page 3/);
  });

  it('the cheerio engine returns the shell as it is', async () => {
    const res = await scrape({ url: `${site.url}/app/4`, engine: 'cheerio', formats: ['markdown'] });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.metadata.engine, 'cheerio');
    assert.doesNotMatch(res.json().data.markdown, /App page 4/);
  });

  it('auto sends a page with wait_for_selector straight to the browser and waits for the element', async () => {
    const res = await scrape({ url: `${site.url}/late`, formats: ['markdown'], wait_for_selector: '#late' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.metadata.engine, 'playwright');
    assert.match(res.json().data.markdown, /Late paragraph added by a timer/);
  });

  it('a selector that never appears fails the scrape with SELECTOR_TIMEOUT within its timeout', async () => {
    const started = Date.now();
    const res = await scrape({
      url: `${site.url}/late`,
      engine: 'puppeteer',
      wait_for_selector: [
        { selector: '#late', state: 'attached' },
        { selector: '#never', timeout: 700 },
      ],
    });
    assert.equal(res.statusCode, 504, res.body);
    assert.equal(res.json().code, 'SELECTOR_TIMEOUT');
    assert.match(res.json().message, /#never/);
    assert.ok(Date.now() - started < 10_000);
  });

  it("deletes a scrape job's screenshot with the job", async () => {
    const res = await scrape({ url: `${site.url}/static`, engine: 'playwright', formats: ['screenshot'] });
    const path = pathOf(res.json().data.screenshot);
    assert.equal((await t.request('GET', path)).statusCode, 200);
    const db = t.app.db;
    const later = new Date(Date.now() + 400 * 24 * 3600 * 1000);
    await sweepOnce({
      db: db.kysely,
      cache: new PageCache(db.kysely),
      crawls: new CrawlStore(db.kysely, db.dialect),
      clock: () => later,
      cacheTtlMs: 10 ** 12,
    });
    assert.equal((await t.request('GET', path)).statusCode, 404);
  });
});

describe('browser engines and the address guard', () => {
  let t: TestApp;
  let site: JsSite;
  before(async () => {
    site = await startJsSite();
    t = await startTestApp({ env: { ALLOW_LOCAL_TARGETS: 'false' } });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  for (const engine of ['playwright', 'puppeteer'] as const) {
    it(`${engine}: refuses a private address with BLOCKED_ADDRESS`, async () => {
      const res = await t.request('POST', '/v1/scrape', { body: { url: `${site.url}/app/0`, engine } });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().code, 'BLOCKED_ADDRESS');
      assert.equal(site.hits.get('/app/0') ?? 0, 0);
    });
  }
});
