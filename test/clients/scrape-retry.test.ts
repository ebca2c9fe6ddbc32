// `retry` on /v1/scrape, as AnyCrawl accepts it: a page failing on a 5xx, 429 or network error is tried again, up to 2
// more times.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CrawlSite, startCrawlSite } from '../fixtures/crawl-site.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

describe('retry on scrape', () => {
  let t: TestApp;
  let site: CrawlSite;
  before(async () => {
    site = await startCrawlSite({
      '/flaky': { failFirst: { times: 2, status: 503 } },
      '/busy': { failFirst: { times: 1, status: 429 } },
      '/down': { status: 500 },
      '/missing': { status: 404 },
      '/flaky-no-retry': { failFirst: { times: 1, status: 503 } },
    });
    t = await startTestApp({ env: { CRAWL_RETRY_BASE_MS: '20' } });
  });
  after(async () => {
    await t.close();
    await site.close();
  });
  const scrape = (path: string, retry?: boolean) =>
    t.request('POST', '/v1/scrape', {
      body: { url: `${site.url}${path}`, max_age: 0, ...(retry === undefined ? {} : { retry }) },
    });

  it('tries a 503 page twice more and answers with the page once it works', async () => {
    const res = await scrape('/flaky', true);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.metadata.status_code, 200);
    assert.equal(site.hits.get('/flaky'), 3);
  });

  it('tries a 429 page again', async () => {
    const res = await scrape('/busy', true);
    assert.equal(res.json().data.metadata.status_code, 200);
    assert.equal(site.hits.get('/busy'), 2);
  });

  it('gives up after 2 retries and answers with the last answer; 4xx other than 429 is not retried', async () => {
    const down = await scrape('/down', true);
    assert.equal(down.json().data.metadata.status_code, 500);
    assert.equal(site.hits.get('/down'), 3);
    await scrape('/missing', true);
    assert.equal(site.hits.get('/missing'), 1);
  });

  it('does not retry without retry: true', async () => {
    const res = await scrape('/flaky-no-retry');
    assert.equal(res.json().data.metadata.status_code, 503);
    assert.equal(site.hits.get('/flaky-no-retry'), 1);
  });
});
