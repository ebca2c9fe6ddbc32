// A page with a flood of links: discovery considers at most MAX_LINKS_PER_PAGE of them and lets the event loop breathe.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_LINKS_PER_PAGE } from '../../src/crawl/runner.js';
import { type CrawlSite, startCrawlSite } from '../fixtures/crawl-site.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const LINKS = 12_000;

describe('a page with more links than discovery considers', () => {
  let site: CrawlSite;
  let t: TestApp;
  before(async () => {
    const links = Array.from({ length: LINKS }, (_, i) => `/p${i}`);
    site = await startCrawlSite({ '/': { links } });
    t = await startTestApp({ env: { RESPECT_ROBOTS_TXT: 'false', CRAWL_CONCURRENCY: '2' } });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  it(`admits the first ${MAX_LINKS_PER_PAGE} links of the seed, not all ${LINKS}`, async () => {
    const created = await t.request('POST', '/v1/crawl', {
      body: { url: `${site.url}/`, limit: 100_000, max_depth: 1, formats: ['markdown'] },
    });
    assert.equal(created.statusCode, 200, created.body);
    const id = created.json().data.job_id as string;
    let total = 0;
    for (const deadline = Date.now() + 30_000; total <= 1;) {
      assert.ok(Date.now() < deadline, 'the seed was discovered');
      await new Promise((r) => setTimeout(r, 50));
      total = (await t.request('GET', `/v1/crawl/${id}/status`)).json().data.total as number;
    }
    // The seed's own nav link to itself is one of the links considered.
    assert.ok(total >= MAX_LINKS_PER_PAGE && total <= MAX_LINKS_PER_PAGE + 1, `total ${total}`);
    assert.equal((await t.request('DELETE', `/v1/crawl/${id}`)).statusCode, 200);
  });
});
