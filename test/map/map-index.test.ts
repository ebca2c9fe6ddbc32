// POST /v1/map with use_index: the URLs the key's own crawls, batch scrapes and scrapes saved are added, another key's
// never are; on both databases.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { html, type MapSite, startMapSite } from '../fixtures/map-site.js';
import { OTHER_KEY, TEST_KEY, type TestApp, startTestApp } from '../helpers/test-app.js';

async function waitForCrawl(t: TestApp, jobId: string, key: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.request('GET', `/v1/crawl/${jobId}/status`, { key });
    const status = res.json().data.status as string;
    if (status !== 'pending') {
      assert.equal(status, 'completed', res.body);
      return;
    }
    if (Date.now() > deadline) throw new Error(`crawl ${jobId} still pending`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`POST /v1/map with use_index (${backend})`, () => {
    let t: TestApp;
    let site: MapSite;
    before(async () => {
      t = await startTestApp({ backend });
      site = await startMapSite({
        '/robots.txt': () => ({ body: '' }),
        '/': html('Root', ['/hub']),
        '/hub': html('Hub', ['/deep/1', '/deep/2']),
        '/deep/1': html('Deep 1', []),
        '/deep/2': html('Deep 2', []),
      });
    });
    after(async () => {
      await t.close();
      await site.close();
    });

    it('adds the URLs the key’s batch scrapes and single scrapes saved too', async () => {
      const other = await startMapSite({
        '/robots.txt': () => ({ body: '' }),
        '/': html('Root', []),
        '/b1': html('Batch 1', []),
        '/b2': html('Batch 2', []),
        '/s': html('Scraped', []),
      });
      try {
        const u = other.url;
        const batch = await t.request('POST', '/v1/batch/scrape', {
          body: { urls: [`${u}/b1`, `${u}/b2`], engine: 'cheerio' },
        });
        assert.equal(batch.statusCode, 200, batch.body);
        const jobId = batch.json().data.job_id as string;
        const deadline = Date.now() + 30_000;
        while ((await t.request('GET', `/v1/batch/scrape/${jobId}/status`)).json().data.status === 'pending') {
          assert.ok(Date.now() < deadline, 'the batch ends');
          await new Promise((r) => setTimeout(r, 50));
        }
        const scrape = await t.request('POST', '/v1/scrape', { body: { url: `${u}/s`, engine: 'cheerio' } });
        assert.equal(scrape.statusCode, 200, scrape.body);

        const map = await t.request('POST', '/v1/map', { body: { url: `${u}/`, use_index: true } });
        assert.equal(map.statusCode, 200, map.body);
        const urls = (map.json().data as Array<{ url: string }>).map((l) => l.url);
        assert.equal(urls[0], `${u}/`);
        assert.deepEqual(urls.slice(1).sort(), [`${u}/b1`, `${u}/b2`, `${u}/s`]);
        assert.deepEqual(map.json().sources.index, { urls: 3 });
      } finally {
        await other.close();
      }
    });

    it('adds the URLs of the key’s own crawls of the site after the others, and never another key’s', async () => {
      const u = site.url;
      const crawl = await t.request('POST', '/v1/crawl', {
        body: { url: `${u}/`, limit: 10, engine: 'cheerio' },
        key: OTHER_KEY,
      });
      assert.equal(crawl.statusCode, 200, crawl.body);
      await waitForCrawl(t, crawl.json().data.job_id as string, OTHER_KEY);

      const own = await t.request('POST', '/v1/map', { body: { url: `${u}/`, use_index: true }, key: OTHER_KEY });
      assert.equal(own.statusCode, 200, own.body);
      const body = own.json();
      const urls = (body.data as Array<{ url: string }>).map((l) => l.url);
      assert.deepEqual(urls.slice(0, 2), [`${u}/`, `${u}/hub`]);
      // The crawl saved its pages in the order they finished.
      assert.deepEqual(urls.slice(2).sort(), [`${u}/deep/1`, `${u}/deep/2`]);
      assert.deepEqual(body.sources.index, { urls: 2 });

      const withoutIndex = await t.request('POST', '/v1/map', { body: { url: `${u}/` }, key: OTHER_KEY });
      assert.equal(withoutIndex.json().sources.index, undefined);
      assert.equal(withoutIndex.json().data.length, 2);

      const stranger = await t.request('POST', '/v1/map', { body: { url: `${u}/`, use_index: true }, key: TEST_KEY });
      assert.equal(stranger.statusCode, 200, stranger.body);
      assert.deepEqual(
        (stranger.json().data as Array<{ url: string }>).map((l) => l.url),
        [`${u}/`, `${u}/hub`],
      );
      assert.deepEqual(stranger.json().sources.index, { urls: 0 });
    });
  });
}
