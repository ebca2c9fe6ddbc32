// Browser actions and `mobile` through /v1: a scrape that types and clicks before it is read, what the actions give
// (screenshots at their route), never cached, refused where they cannot run, limits, a crawl's pages, and phones.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pngSize } from '../../src/screenshots/png.js';
import { waitForCrawl } from '../fixtures/crawl-site.js';
import { type JsSite, startJsSite } from '../fixtures/js-site.js';
import { OTHER_KEY, type TestApp, startTestApp } from '../helpers/test-app.js';

interface Issue {
  field: string;
  message: string;
}

describe('browser actions over /v1', () => {
  let t: TestApp;
  let site: JsSite;
  before(async () => {
    site = await startJsSite(6);
    t = await startTestApp({ env: { BROWSER_MAX_PAGES: '2', RESPECT_ROBOTS_TXT: 'false' } });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const scrape = (body: Record<string, unknown>) => t.request('POST', '/v1/scrape', { body });
  const issuesOf = (res: { json(): { data: { issues: Issue[] } } }) => res.json().data.issues;
  const SEARCH = [
    { type: 'click', selector: '#q' },
    { type: 'write', text: 'otters' },
    { type: 'click', selector: '#go' },
    { type: 'execute_javascript', script: "return document.getElementById('result').textContent;" },
    { type: 'screenshot' },
    { type: 'scrape' },
  ];

  it('auto renders, runs the actions, and reads the page they leave; their outputs come back', async () => {
    const res = await scrape({ url: `${site.url}/form`, formats: ['markdown'], actions: SEARCH });
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    assert.equal(data.metadata.engine, 'playwright');
    assert.match(data.markdown, /Results for otters/);
    assert.deepEqual(data.actions.javascript_returns, [{ type: 'string', value: 'Results for otters' }]);
    assert.equal(data.actions.scrapes.length, 1);
    assert.equal(data.actions.scrapes[0].url, `${site.url}/form`);
    assert.match(data.actions.scrapes[0].html, /Results for otters/);
    assert.equal(data.actions.screenshots.length, 1);
    const shot = new URL(data.actions.screenshots[0] as string);
    assert.match(shot.pathname, /^\/v1\/screenshots\/[0-9a-f-]{36}$/);
    const png = await t.request('GET', shot.pathname);
    assert.equal(png.statusCode, 200);
    assert.deepEqual(pngSize(png.rawPayload), { width: 1280, height: 800 });
    assert.equal((await t.request('GET', shot.pathname, { key: OTHER_KEY })).statusCode, 404);
  });

  it('puppeteer runs the same actions', async () => {
    const res = await scrape({ url: `${site.url}/form`, engine: 'puppeteer', actions: SEARCH.slice(0, 4) });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.json().data.markdown, /Results for otters/);
  });

  it('a page with actions is neither answered from the cache nor kept in it', async () => {
    const body = { url: `${site.url}/form`, actions: [{ type: 'wait', milliseconds: 1 }] };
    const first = await scrape(body);
    const second = await scrape(body);
    assert.equal(first.json().data.metadata.cache_state, 'miss');
    assert.equal(second.json().data.metadata.cache_state, 'miss');
    const plain = await scrape({ url: `${site.url}/form`, engine: 'playwright' });
    assert.equal(plain.json().data.metadata.cache_state, 'miss', 'the actions left nothing in the cache');
    assert.doesNotMatch(plain.json().data.markdown, /Results for/);
  });

  it('an action the page cannot do is a 400 ACTION_FAILED naming it', async () => {
    const res = await scrape({
      url: `${site.url}/form`,
      actions: [{ type: 'execute_javascript', script: 'return missing.value;' }],
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().code, 'ACTION_FAILED');
    assert.match(res.json().message, /^actions\.0 \(execute_javascript\) failed: .*missing is not defined/);
  });

  it('refuses actions with the HTTP engine, and waits longer than the timeout', async () => {
    const cheerio = await scrape({ url: `${site.url}/form`, engine: 'cheerio', actions: [{ type: 'scrape' }] });
    assert.equal(cheerio.statusCode, 400, cheerio.body);
    assert.equal(issuesOf(cheerio)[0]?.field, 'actions');
    assert.match(issuesOf(cheerio)[0]!.message, /need a browser engine/);
    const long = await scrape({
      url: `${site.url}/form`,
      timeout: 5_000,
      actions: [
        { type: 'wait', milliseconds: 3_000 },
        { type: 'wait', milliseconds: 3_000 },
      ],
    });
    assert.equal(long.statusCode, 400, long.body);
    assert.match(issuesOf(long)[0]!.message, /add up to 6000 ms, more than the page's timeout of 5000 ms/);
  });

  it('validates every action: type, fields, selectors, keys, sizes and counts', async () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [{ type: 'hover', selector: 'a' }, 'actions.0.type', /./],
      [{ type: 'wait' }, 'actions.0', /either milliseconds or a selector/],
      [{ type: 'wait', milliseconds: 5, selector: 'a' }, 'actions.0', /either milliseconds or a selector/],
      [{ type: 'click', selector: 'a[' }, 'actions.0.selector', /Not a valid CSS selector/],
      [{ type: 'press', key: 'Hyper' }, 'actions.0.key', /Not a key/],
      [{ type: 'press', key: '\u00e9' }, 'actions.0.key', /Not a key/],
      [{ type: 'write', text: 'x'.repeat(10_001) }, 'actions.0.text', /./],
      [{ type: 'execute_javascript', script: 'x'.repeat(100_001) }, 'actions.0.script', /./],
      [{ type: 'scroll', direction: 'left' }, 'actions.0.direction', /./],
      [{ type: 'scrape', extra: 1 }, 'actions.0.extra', /Unrecognized key/],
    ];
    for (const [action, field, message] of cases) {
      const res = await scrape({ url: `${site.url}/form`, actions: [action] });
      assert.equal(res.statusCode, 400, `${JSON.stringify(action).slice(0, 80)}: ${res.body.slice(0, 300)}`);
      const issue = issuesOf(res)[0]!;
      assert.equal(issue.field, field, JSON.stringify(issue));
      assert.match(issue.message, message);
    }
    const many = await scrape({ url: `${site.url}/form`, actions: Array(51).fill({ type: 'scrape' }) });
    assert.equal(many.statusCode, 400);
    const shots = await scrape({ url: `${site.url}/form`, actions: Array(6).fill({ type: 'screenshot' }) });
    assert.equal(shots.statusCode, 400);
    assert.match(issuesOf(shots)[0]!.message, /At most 5 screenshot actions/);
  });

  it('presses keys by name whatever their case (ENTER)', async () => {
    const res = await scrape({
      url: `${site.url}/form`,
      actions: [
        { type: 'click', selector: '#q' },
        { type: 'press', key: 'a' },
        { type: 'press', key: 'BACKSPACE' },
        { type: 'write', text: 'ok' },
        { type: 'press', key: 'enter' },
        { type: 'execute_javascript', script: "return document.getElementById('q').value;" },
      ],
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().data.actions.javascript_returns, [{ type: 'string', value: 'ok' }]);
  });

  it('every page of a crawl runs the actions, and its results keep what they gave', async () => {
    const created = await t.request('POST', '/v1/crawl', {
      body: {
        url: `${site.url}/app/0`,
        limit: 3,
        scrape_options: {
          formats: ['markdown'],
          actions: [{ type: 'execute_javascript', script: 'return location.pathname;' }, { type: 'screenshot' }],
        },
      },
    });
    assert.equal(created.statusCode, 200, created.body);
    const jobId = created.json().data.job_id as string;
    const status = await waitForCrawl((url) => t.request('GET', url), jobId, 60_000);
    assert.equal(status.status, 'completed', JSON.stringify(status));
    const items = (await t.request('GET', `/v1/crawl/${jobId}?skip=0`)).json().data as Array<{
      url: string;
      actions: { javascript_returns: Array<{ value: string }>; screenshots: string[] };
    }>;
    assert.equal(items.length, 3);
    for (const item of items) {
      assert.equal(item.actions.javascript_returns[0]!.value, new URL(item.url).pathname);
      const png = await t.request('GET', new URL(item.actions.screenshots[0]!).pathname);
      assert.equal(png.statusCode, 200);
    }
  });

  it('mobile: a phone user agent over HTTP, a phone viewport in a browser', async () => {
    const http = await scrape({ url: `${site.url}/ua`, engine: 'cheerio', mobile: true, max_age: 0 });
    assert.equal(http.statusCode, 200, http.body);
    assert.match(
      http.json().data.markdown,
      /Agent: CrawlService\/\S+ \(\+https:\/\/github\.com\/crawlservice\) Mobile/,
    );
    const desktop = await scrape({ url: `${site.url}/ua`, engine: 'cheerio', max_age: 0 });
    assert.doesNotMatch(desktop.json().data.markdown, /Mobile/);
    const browser = await scrape({ url: `${site.url}/ua`, engine: 'puppeteer', mobile: true, formats: ['screenshot'] });
    assert.equal(browser.statusCode, 200, browser.body);
    const png = await t.request('GET', new URL(browser.json().data.screenshot).pathname);
    assert.deepEqual(pngSize(png.rawPayload), { width: 780, height: 1688 });
  });
});
