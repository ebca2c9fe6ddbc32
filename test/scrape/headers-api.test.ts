// The `headers` page option through /v1: sent by both kinds of engine to the page's origin only, never cached, checked
// at the API, and hidden from job listings.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type JsSite, startJsSite } from '../fixtures/js-site.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

interface Issue {
  field: string;
  message: string;
}

const HEADERS = { Authorization: 'Bearer target-token', Cookie: 'session=abc', 'X-Trace': 'trace-1' };

describe('request headers over /v1', () => {
  let t: TestApp;
  let site: JsSite;
  let other: JsSite;
  before(async () => {
    site = await startJsSite(6);
    other = await startJsSite(1);
    t = await startTestApp({ env: { BROWSER_MAX_PAGES: '2', RESPECT_ROBOTS_TXT: 'false' } });
  });
  after(async () => {
    await t.close();
    await Promise.all([site.close(), other.close()]);
  });

  const scrape = (body: Record<string, unknown>) => t.request('POST', '/v1/scrape', { body });
  const issuesOf = (res: { json(): { data: { issues: Issue[] } } }) => res.json().data.issues;

  it('the HTTP engine sends them (names case-insensitive); a page fetched with them is not cached', async () => {
    const first = await scrape({ url: `${site.url}/echo-headers`, engine: 'cheerio', headers: HEADERS });
    assert.equal(first.statusCode, 200, first.body);
    const markdown = first.json().data.markdown as string;
    assert.match(markdown, /authorization=Bearer target-token/);
    assert.match(markdown, /cookie=session=abc/);
    assert.match(markdown, /x-trace=trace-1/);
    const again = await scrape({ url: `${site.url}/echo-headers`, engine: 'cheerio', headers: HEADERS });
    assert.equal(again.json().data.metadata.cache_state, 'miss');
    const plain = await scrape({ url: `${site.url}/echo-headers`, engine: 'cheerio' });
    assert.equal(plain.json().data.metadata.cache_state, 'miss', 'nothing was kept for others to read');
    assert.doesNotMatch(plain.json().data.markdown, /target-token/);
  });

  it('a user-agent header replaces the service’s own', async () => {
    const res = await scrape({ url: `${site.url}/ua`, engine: 'cheerio', headers: { 'User-Agent': 'MyBot/2.0' } });
    assert.match(res.json().data.markdown, /Agent: MyBot\/2\.0/);
  });

  for (const engine of ['playwright', 'puppeteer'] as const) {
    it(`${engine}: sent with the page and its own-origin requests, never to another origin`, async () => {
      const probe = `${other.url}/static?from=${engine}`;
      const sameOrigin = `${site.url}/static?from=${engine}`;
      const res = await scrape({
        url: `${site.url}/echo-headers?probe=${encodeURIComponent(probe)}&engine=${engine}`,
        engine,
        headers: HEADERS,
        actions: [
          { type: 'execute_javascript', script: `await fetch(${JSON.stringify(sameOrigin)}); return true;` },
          { type: 'wait', milliseconds: 200 },
        ],
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.json().data.markdown, /authorization=Bearer target-token/);
      assert.match(res.json().data.markdown, /x-trace=trace-1/);
      const own = site.headersOf.get(`/static?from=${engine}`);
      assert.equal(own?.['x-trace'], 'trace-1', 'a same-origin fetch carries them');
      const elsewhere = await until('the probe', async () => other.headersOf.get(`/static?from=${engine}`));
      assert.equal(elsewhere['x-trace'], undefined);
      assert.equal(elsewhere.authorization, undefined);
      assert.equal(elsewhere.cookie, undefined);
    });
  }

  it('refuses headers the service or the connection sets, bad names and values, and too many', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ Host: 'elsewhere.example' }, /set by the service or the connection/],
      [{ 'Accept-Encoding': 'zstd' }, /set by the service or the connection/],
      [{ 'Proxy-Authorization': 'Basic x' }, /set by the service or the connection/],
      [{ 'bad name': 'x' }, /Not a header name/],
      [{ 'X-Split': 'a\r\nInjected: yes' }, /line breaks/],
      [{ 'x-a': '1', 'X-A': '2' }, /named twice/],
      [Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`x-h${i}`, 'v'])), /At most 32 headers/],
      [{ 'x-big': 'v'.repeat(4097) }, /./],
    ];
    for (const [headers, message] of cases) {
      const res = await scrape({ url: `${site.url}/static`, headers });
      assert.equal(res.statusCode, 400, `${Object.keys(headers)[0]}: ${res.body.slice(0, 200)}`);
      const issue = issuesOf(res)[0]!;
      assert.match(issue.field, /^headers/);
      assert.match(issue.message, message);
    }
  });

  it('a crawl sends them with every page', async () => {
    const created = await t.request('POST', '/v1/crawl', {
      // auto: the pages are app shells, fetched over HTTP and then rendered; both carry the headers.
      body: { url: `${site.url}/app/0`, limit: 3, scrape_options: { headers: { 'X-Crawl': 'c1' } } },
    });
    assert.equal(created.statusCode, 200, created.body);
    const jobId = created.json().data.job_id as string;
    const status = await until(
      'the crawl',
      async () => {
        const data = (await t.request('GET', `/v1/crawl/${jobId}/status`)).json().data;
        return data.status === 'pending' ? undefined : data;
      },
      60_000,
    );
    assert.equal(status.completed, 3, JSON.stringify(status));
    for (const path of ['/app/0', '/app/1', '/app/2']) assert.equal(site.headersOf.get(path)?.['x-crawl'], 'c1', path);
  });
});
