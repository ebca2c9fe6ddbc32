// The published AnyCrawl SDK (@anycrawl/js-sdk 0.0.3, a dev dependency) against the service on a real port: every
// method it has.
//
// 0.0.3's methods: healthCheck (GET /health), scrape (POST /v1/scrape), createCrawl (POST /v1/crawl),
// getCrawlStatus (GET /v1/crawl/{id}/status), getCrawlResults (GET /v1/crawl/{id}?skip=N),
// cancelCrawl (DELETE /v1/crawl/{id}), crawl (create, poll the status, then every results page),
// search (POST /v1/search: the index engine here, no SearXNG) and setAuthFailureCallback (no request).
// Its errors are `Error`s whose message is `Request error: API Error <status>: <body.error>`
// (its axios interceptor wraps the answer once, each method's catch a second time).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AnyCrawlClient } from '@anycrawl/js-sdk';
import { type CrawlSite, type FixturePage, startCrawlSite, treeSitePages } from '../fixtures/crawl-site.js';
import { type TestApp, TEST_KEY, startTestApp } from '../helpers/test-app.js';

// The SDK's axios follows HTTP_PROXY/HTTPS_PROXY from the environment; the service is on loopback.
process.env.no_proxy = '*';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UNKNOWN_JOB = '00000000-0000-4000-8000-000000000000';
/** Pages linked from the hub: with the hub, one more than a results page (100) holds. */
const HUB_LINKS = 104;

function hubPages(): Record<string, FixturePage> {
  const pages: Record<string, FixturePage> = {
    '/': { title: 'Hub', links: Array.from({ length: HUB_LINKS }, (_, i) => `/p${i}`) },
  };
  for (let i = 0; i < HUB_LINKS; i++) pages[`/p${i}`] = {};
  return pages;
}

/** Asserts that `promise` rejects with an Error whose message is exactly `message`. */
async function rejectsWith(promise: Promise<unknown>, message: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof Error);
    assert.equal(error.message, message);
    return true;
  });
}

describe('@anycrawl/js-sdk 0.0.3 against the service', () => {
  let t: TestApp;
  let site: CrawlSite;
  let hub: CrawlSite;
  let slow: CrawlSite;
  let base: string;
  let client: AnyCrawlClient;
  let authFailures = 0;

  before(async () => {
    site = await startCrawlSite({
      '/flaky': { title: 'Flaky page', failFirst: { times: 2, status: 503 } },
      '/flaky-once': { failFirst: { times: 1, status: 503 } },
      '/rendered': { title: 'Rendered page' },
      '/small': { title: 'Small site', links: ['/small/a', '/small/b'] },
      '/small/a': { title: 'Page A' },
      '/small/b': { title: 'Page B' },
      '/gone': { status: 404 },
      '/product': {
        title: 'Anvil',
        body: '<script type="application/ld+json">{"@type":"Product","name":"Acme Anvil","offers":{"price":"149.99","priceCurrency":"EUR"}}</script><p>The Acme Anvil is forged from one block of steel and rings like a bell when struck by a hammer.</p>',
      },
    });
    hub = await startCrawlSite(hubPages());
    slow = await startCrawlSite(treeSitePages(15, 1000));
    t = await startTestApp({ env: { CRAWL_RETRY_BASE_MS: '20' } });
    base = await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    client = new AnyCrawlClient(TEST_KEY, base, () => authFailures++);
  });
  after(async () => {
    await t.close();
    await Promise.all([site.close(), hub.close(), slow.close()]);
  });

  it('healthCheck: GET /health answers the readiness body', async () => {
    assert.deepEqual(await client.healthCheck(), { success: true, status: 'ok' });
  });

  it('scrape with retry: true and formats: a page failing twice with 503 is fetched a third time, markdown and html come back', async () => {
    const result = await client.scrape({
      url: `${site.url}/flaky`,
      engine: 'cheerio',
      retry: true,
      formats: ['markdown', 'html'],
      timeout: 10_000,
      exclude_tags: ['ul'],
    });
    assert.equal(site.hits.get('/flaky'), 3);
    assert.equal(result.status, 'completed');
    assert.ok(result.status === 'completed');
    assert.equal(result.url, `${site.url}/flaky`);
    assert.equal(result.title, 'Flaky page');
    assert.match(result.markdown, /^# Flaky page\n\nThis is the page at \/flaky\. It has enough words/);
    assert.match(result.html, /<h1>Flaky page<\/h1><p>This is the page at \/flaky\./);
    assert.doesNotMatch(result.html, /<ul>/, 'exclude_tags reached the service');
    assert.equal('rawHtml' in result, false, 'only the requested formats');
    const metadata = result.metadata as unknown as Record<string, unknown>;
    assert.equal(metadata.status_code, 200);
    assert.equal(metadata.engine, 'cheerio');
    // The service names the job `job_id` (docs/api.md) and, for AnyCrawl's clients, `jobId` too.
    const raw = result as unknown as Record<string, unknown>;
    assert.match(String(raw.job_id), UUID);
    assert.equal(result.jobId, raw.job_id);
  });

  it('scrape without retry: the 503 answer stands after one fetch', async () => {
    const result = await client.scrape({ url: `${site.url}/flaky-once`, engine: 'cheerio', formats: ['text'] });
    assert.equal(site.hits.get('/flaky-once'), 1);
    assert.ok(result.status === 'completed');
    assert.equal((result.metadata as unknown as Record<string, unknown>).status_code, 503);
    assert.equal((result as unknown as Record<string, unknown>).text, 'try again');
  });

  it('scrape with engine playwright (the SDK default when none is given) renders the page in Chromium', async () => {
    const result = await client.scrape({ url: `${site.url}/rendered`, engine: 'playwright', formats: ['markdown'] });
    assert.ok(result.status === 'completed');
    assert.equal((result.metadata as unknown as Record<string, unknown>).engine, 'playwright');
    assert.match(result.markdown, /^# Rendered page\n\nThis is the page at \/rendered\./);
  });

  it('scrape with json_options and the json format: the object the schema asks for (built-in rules)', async () => {
    const result = await client.scrape({
      url: `${site.url}/product`,
      engine: 'cheerio',
      formats: ['json'],
      json_options: {
        schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
        user_prompt: 'The product',
      },
    });
    assert.ok(result.status === 'completed');
    assert.deepEqual((result as unknown as Record<string, unknown>).json, { name: 'Acme Anvil', price: 149.99 });
    assert.equal((result.metadata as unknown as Record<string, unknown>).extraction, 'rules');
  });

  it("scrape errors: the SDK throws with the status and the body's error", async () => {
    // json_options with a schema that does not describe an object: 400.
    await rejectsWith(
      client.scrape({
        url: `${site.url}/small`,
        engine: 'cheerio',
        formats: ['json'],
        json_options: { schema: { type: 'array', items: { type: 'string' } } },
      }),
      'Request error: API Error 400: Validation error',
    );
    // A target that cannot be reached is a 502, not a `status: "failed"` result.
    await rejectsWith(
      client.scrape({ url: 'http://127.0.0.1:9/', engine: 'cheerio' }),
      'Request error: API Error 502: Connection refused',
    );
  });

  it('createCrawl, getCrawlStatus, getCrawlResults: a crawl of a small site, results read with skip', async () => {
    const job = await client.createCrawl({
      url: `${site.url}/small`,
      engine: 'cheerio',
      strategy: 'same-origin',
      max_depth: 1,
      limit: 10,
      include_paths: ['/small/**'],
      exclude_paths: ['/small/b'],
      retry: true,
      scrape_options: { formats: ['markdown', 'html'] },
    });
    assert.match(job.job_id, UUID);
    assert.equal(job.status, 'created');
    assert.equal(job.message, 'Crawl job has been queued for processing');

    let status = await client.getCrawlStatus(job.job_id);
    const deadline = Date.now() + 10_000;
    while (status.status === 'pending' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      status = await client.getCrawlStatus(job.job_id);
    }
    assert.equal(status.job_id, job.job_id);
    assert.equal(status.status, 'completed');
    assert.equal(status.total, 2, 'the seed and /small/a; /small/b is excluded');
    assert.equal(status.completed, 2);
    assert.equal(status.failed, 0);
    assert.equal(status.credits_used, 2);
    assert.ok(Date.parse(status.expires_at) > Date.parse(status.start_time));

    const first = await client.getCrawlResults(job.job_id);
    assert.equal(first.success, true);
    assert.equal(first.status, 'completed');
    assert.equal(first.total, 2);
    assert.equal(first.completed, 2);
    assert.equal(first.next, undefined);
    assert.deepEqual(
      first.data.map((item: { url: string }) => item.url),
      [`${site.url}/small`, `${site.url}/small/a`],
    );
    const seed = first.data[0] as { title: string; markdown: string; html: string };
    assert.equal(seed.title, 'Small site');
    assert.match(seed.markdown, /^# Small site\n/);
    assert.match(
      seed.html,
      /^<h1>Small site<\/h1>.*<p>This is the page at \/small\./,
      'scrape_options.formats reached the service',
    );
    // The service names it `credits_used`, as AnyCrawl's API does; 0.0.3's type says `creditsUsed`.
    assert.equal((first as unknown as Record<string, unknown>).credits_used, 2);
    assert.equal(first.creditsUsed, undefined);

    const second = await client.getCrawlResults(job.job_id, 1);
    assert.deepEqual(
      second.data.map((item: { url: string }) => item.url),
      [`${site.url}/small/a`],
    );
    assert.match((second.data[0] as { markdown: string }).markdown, /^# Page A\n\nThis is the page at \/small\/a\./);
    const past = await client.getCrawlResults(job.job_id, 2);
    assert.deepEqual(past.data, []);
  });

  it('crawl (wait mode): creates the crawl, polls until it completes, and gathers every results page; getCrawlResults pages by 100', async () => {
    const result = await client.crawl(
      { url: `${hub.url}/`, engine: 'cheerio', limit: 200, scrape_options: { formats: ['markdown'] } },
      0.05,
      20_000,
    );
    assert.match(result.job_id, UUID);
    assert.equal(result.status, 'completed');
    assert.equal(result.total, HUB_LINKS + 1);
    assert.equal(result.completed, HUB_LINKS + 1);
    assert.equal(result.data.length, HUB_LINKS + 1, 'both results pages, following `next`');
    const byUrl = new Map(result.data.map((item: { url: string; markdown: string }) => [item.url, item.markdown]));
    assert.equal(byUrl.size, HUB_LINKS + 1, 'no page twice');
    for (let i = 0; i < HUB_LINKS; i++)
      assert.match(byUrl.get(`${hub.url}/p${i}`) ?? '', new RegExp(`This is the page at /p${i}\\.`));
    // 0.0.3 reads `creditsUsed` from the results page, which says `credits_used`: it always reports 0.
    assert.equal(result.creditsUsed, 0);
    assert.equal((await client.getCrawlStatus(result.job_id)).credits_used, HUB_LINKS + 1);

    // The same pages by hand: `next` on the first page, none on the last.
    const first = await client.getCrawlResults(result.job_id, 0);
    assert.equal(first.data.length, 100);
    assert.equal(first.next, `${base}/v1/crawl/${result.job_id}?skip=100`);
    const last = await client.getCrawlResults(result.job_id, 100);
    assert.equal(last.data.length, HUB_LINKS + 1 - 100);
    assert.equal(last.next, undefined);
    assert.deepEqual(
      [...first.data, ...last.data].map((item: { url: string }) => item.url),
      result.data.map((item: { url: string }) => item.url),
    );
  });

  it('crawl (wait mode) throws when the crawl fails', async () => {
    let jobId = '';
    await assert.rejects(
      client.crawl({ url: `${site.url}/gone`, engine: 'cheerio' }, 0.05, 10_000),
      (error: unknown) => {
        assert.ok(error instanceof Error);
        const match = /^Crawl failed \(job_id=(.+)\)$/.exec(error.message);
        assert.ok(match, error.message);
        jobId = match[1] ?? '';
        return true;
      },
    );
    const status = (await client.getCrawlStatus(jobId)) as unknown as { status: string; error: { code: string } };
    assert.equal(status.status, 'failed');
    assert.equal(status.error.code, 'HTTP_ERROR');
  });

  it('cancelCrawl stops a running crawl; a second cancel is the 409', async () => {
    const job = await client.createCrawl({ url: `${slow.url}/`, engine: 'cheerio', limit: 15 });
    assert.equal((await client.getCrawlStatus(job.job_id)).status, 'pending');
    assert.deepEqual(await client.cancelCrawl(job.job_id), { job_id: job.job_id, status: 'cancelled' });
    const status = await client.getCrawlStatus(job.job_id);
    assert.equal(status.status, 'cancelled');
    assert.ok(status.completed < 15);
    assert.equal((await client.getCrawlResults(job.job_id)).status, 'cancelled');
    await rejectsWith(client.cancelCrawl(job.job_id), 'Request error: API Error 409: Job already finished');
  });

  it('crawl (wait mode) returns when the crawl is cancelled while it waits (0.0.3 then reports status "completed")', async () => {
    const waiting = new AnyCrawlClient(TEST_KEY, base);
    let created: (id: string) => void = () => {};
    const jobId = new Promise<string>((resolve) => (created = resolve));
    const createCrawl = waiting.createCrawl.bind(waiting);
    // crawl() calls this.createCrawl: capture the id it gets, to cancel the job while crawl() polls.
    waiting.createCrawl = async (input) => {
      const job = await createCrawl(input);
      created(job.job_id);
      return job;
    };
    const result = waiting.crawl({ url: `${slow.url}/`, engine: 'cheerio', limit: 15 }, 0.05, 20_000);
    const id = await jobId;
    await client.cancelCrawl(id);
    const done = await result;
    assert.equal(done.job_id, id);
    assert.equal((await client.getCrawlStatus(id)).status, 'cancelled');
    assert.equal(done.status, 'completed', "0.0.3 hard-codes it; the newer SDK reports the job's status");
    assert.equal(done.data.length, done.completed);
  });

  it('crawl methods on an unknown or malformed job id throw the 404 or the 400', async () => {
    await rejectsWith(client.getCrawlStatus(UNKNOWN_JOB), 'Request error: API Error 404: Not found');
    await rejectsWith(client.getCrawlResults(UNKNOWN_JOB), 'Request error: API Error 404: Not found');
    await rejectsWith(client.cancelCrawl(UNKNOWN_JOB), 'Request error: API Error 404: Not found');
    await rejectsWith(client.getCrawlStatus('not-a-job'), 'Request error: API Error 400: Invalid job ID');
  });

  it("search: the key's own scraped pages (the index engine, the default without SearXNG), results scraped with scrape_options", async () => {
    // The product page was scraped above, so it is in this key's index.
    const results = await client.search({
      query: 'acme anvil',
      limit: 5,
      safeSearch: 1,
      scrape_options: { engine: 'cheerio', formats: ['markdown'] },
    });
    assert.equal(results.length, 1);
    const [hit] = results;
    assert.equal(hit?.url, `${site.url}/product`);
    assert.equal(hit?.source, 'index');
    assert.match(hit?.description ?? '', /Anvil/);
    assert.match(hit?.markdown ?? '', /forged from one block of steel/);
    assert.deepEqual(await client.search({ query: 'nothing matches this zyzzyva' }), []);
  });

  it("search: AnyCrawl's google engine is not offered here, a 400", async () => {
    await rejectsWith(
      client.search({ query: 'crawl service', engine: 'google', limit: 5 }),
      'Request error: API Error 400: Validation error',
    );
  });

  it('a wrong key: health still answers, any /v1 call is "Authentication failed" and calls the auth-failure callback', async () => {
    const before = authFailures;
    let replaced = 0;
    const wrong = new AnyCrawlClient('wrong-key-0000000000', base, () => authFailures++);
    assert.deepEqual(await wrong.healthCheck(), { success: true, status: 'ok' });
    await rejectsWith(
      wrong.scrape({ url: `${site.url}/small`, engine: 'cheerio' }),
      'Request error: Authentication failed: Invalid API key',
    );
    assert.equal(authFailures, before + 1);
    wrong.setAuthFailureCallback(() => replaced++);
    await rejectsWith(wrong.getCrawlStatus(UNKNOWN_JOB), 'Request error: Authentication failed: Invalid API key');
    assert.equal(replaced, 1);
    assert.equal(authFailures, before + 1);
  });
});
