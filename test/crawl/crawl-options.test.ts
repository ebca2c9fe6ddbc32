// Crawl options at work: proxy, per-page timeout, scrape_options precedence, fairness between crawls.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type CrawlSite, type FixturePage, startCrawlSite, waitForCrawl } from '../fixtures/crawl-site.js';
import { startProxy } from '../fixtures/proxy-server.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

let t: TestApp;
const sites: CrawlSite[] = [];
before(async () => {
  t = await startTestApp({ env: { CRAWL_CONCURRENCY: '4', CRAWL_JOB_CONCURRENCY: '4' } });
});
after(async () => {
  await t.close();
  await Promise.all(sites.map((s) => s.close()));
});
async function site(pages: Record<string, FixturePage>): Promise<CrawlSite> {
  const s = await startCrawlSite(pages);
  sites.push(s);
  return s;
}
const get = (url: string) => t.request('GET', url);
async function crawl(body: Record<string, unknown>): Promise<string> {
  const res = await t.request('POST', '/v1/crawl', { body });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data.job_id;
}

it('routes every fetch of the crawl through its proxy', async () => {
  const s = await site({ '/': { links: ['/a', '/b'] }, '/a': {}, '/b': {} });
  const proxy = await startProxy();
  try {
    const jobId = await crawl({ url: `${s.url}/`, proxy: proxy.url });
    const status = await waitForCrawl(get, jobId);
    assert.equal(status.completed, 3);
    const viaProxy = proxy.forwarded.map((u) => new URL(u).pathname).sort();
    assert.deepEqual(viaProxy, ['/', '/a', '/b', '/robots.txt']);
  } finally {
    await proxy.close();
  }
});

it('fails a page that exceeds the per-page timeout and goes on with the rest', async () => {
  const s = await site({ '/': { links: ['/slow', '/fast'] }, '/slow': { delayMs: 3000 }, '/fast': {} });
  const jobId = await crawl({ url: `${s.url}/`, timeout: 500 });
  const status = await waitForCrawl(get, jobId);
  assert.equal(status.status, 'completed');
  assert.equal(status.completed, 2);
  assert.equal(status.failed, 1);
});

it('lets scrape_options win over top-level page options, field by field', async () => {
  const s = await site({ '/': { links: ['/a'] }, '/a': {} });
  const jobId = await crawl({
    url: `${s.url}/`,
    formats: ['markdown'],
    only_main_content: false,
    scrape_options: { formats: ['text', 'links'] },
  });
  await waitForCrawl(get, jobId);
  const results = (await get(`/v1/crawl/${jobId}`)).json().data as Array<Record<string, unknown>>;
  assert.equal(results.length, 2);
  for (const r of results) {
    assert.equal(r.markdown, undefined, 'formats came from scrape_options');
    assert.equal(typeof r.text, 'string');
    assert.ok(Array.isArray(r.links));
    assert.match(String(r.text), /Footer/, 'only_main_content: false from the top level still applies');
  }
});

it('shares the worker between crawls: a small crawl started after a big one finishes first', async () => {
  const bigPages: Record<string, FixturePage> = { '/': { links: Array.from({ length: 60 }, (_, i) => `/b${i}`) } };
  for (let i = 0; i < 60; i++) bigPages[`/b${i}`] = { delayMs: 100 };
  const big = await site(bigPages);
  const small = await site({ '/': { links: ['/x', '/y'] }, '/x': { delayMs: 100 }, '/y': { delayMs: 100 } });
  const bigId = await crawl({ url: `${big.url}/` });
  await new Promise((r) => setTimeout(r, 300));
  const smallId = await crawl({ url: `${small.url}/` });
  const smallStatus = await waitForCrawl(get, smallId);
  assert.equal(smallStatus.completed, 3);
  const bigNow = (await get(`/v1/crawl/${bigId}/status`)).json().data;
  assert.equal(bigNow.status, 'pending', `the big crawl is still running (${bigNow.completed} done)`);
  await waitForCrawl(get, bigId, 60_000);
});

it('follows links to another port by strategy: same-hostname and all yes, same-origin no', async () => {
  const other = await site({ '/': {}, '/there': {} });
  const home = await site({ '/': { links: [`${other.url}/there`, '/here'] }, '/here': {} });
  const expectations: Array<[string, number]> = [
    // The other site's page links to its own root (the fixture's nav), which is in scope too.
    ['same-origin', 2],
    ['same-hostname', 4],
    ['same-domain', 4],
    ['all', 4],
  ];
  for (const [strategy, pages] of expectations) {
    const jobId = await crawl({ url: `${home.url}/`, strategy });
    const status = await waitForCrawl(get, jobId);
    assert.equal(status.completed, pages, strategy);
  }
  assert.equal(
    other.hits.get('/there'),
    3,
    `fetched once by each crawl that may go there: ${JSON.stringify([...other.hits])}`,
  );
});
