// Batch scrapes through the API: create, status, results and `next`, cancel, invalid and duplicate URLs, limits,
// per-page failures and the final status, retry, events, json by the built-in rules, isolation (SQLite).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readEvents } from '../../src/events/outbox.js';
import { sortUrls } from '../../src/batch/service.js';
import { type CrawlSite, type FixturePage, startCrawlSite, waitForCrawl } from '../fixtures/crawl-site.js';
import { OTHER_KEY, type TestApp, startTestApp } from '../helpers/test-app.js';
import { allResults, createBatch, pathOf, waitForBatch } from './helpers.js';

const PRODUCT_BODY = `<script type="application/ld+json">${JSON.stringify({
  '@context': 'https://schema.org',
  '@type': 'Product',
  name: 'Acme Anvil 3000',
  offers: { '@type': 'Offer', price: '149.99', priceCurrency: 'EUR' },
})}</script><p>The Acme Anvil 3000 is the heaviest anvil we have ever made. It is forged from a single block of steel
and rings like a bell when struck. Blacksmiths across the country use it every day for their finest work.</p>`;

describe('batch scrape API', () => {
  let t: TestApp;
  const sites: CrawlSite[] = [];
  before(async () => {
    t = await startTestApp({ env: { CRAWL_RETRY_BASE_MS: '20', CRAWL_LEASE_MS: '5000' } });
  });
  after(async () => {
    await t.close();
    await Promise.all(sites.map((s) => s.close()));
  });
  async function site(pages: Record<string, FixturePage>, robots?: string): Promise<CrawlSite> {
    const s = await startCrawlSite(pages, robots);
    sites.push(s);
    return s;
  }
  const eventsOf = async (jobId: string) => readEvents(t.app.db.kysely, { subjectId: jobId });

  it('scrapes the given URLs once each, saves a 404 with its status_code, fails an unreachable one, in events', async () => {
    const s = await site({ '/a': { links: ['/b'] }, '/b': {}, '/c': { title: 'Cee' } }, 'User-agent: *\nDisallow: /\n');
    const created = await createBatch(t, {
      urls: [`${s.url}/a`, `${s.url}/b`, `${s.url}/a#top`, `${s.url}/c`, `${s.url}/missing`, 'http://127.0.0.1:1/'],
      formats: ['markdown', 'links'],
    });
    assert.equal(created.total, 5, 'the fragment duplicate of /a is collapsed');
    assert.equal(created.invalid_urls, undefined);
    const status = await waitForBatch(t, created.job_id);
    assert.equal(status.status, 'completed');
    assert.equal(status.total, 5);
    assert.equal(status.completed, 4, 'the 404 page is a result');
    assert.equal(status.failed, 1, 'the unreachable URL');
    assert.equal(status.credits_used, 4);
    assert.equal('error' in status, false);
    assert.match(String(status.start_time), /Z$/);
    assert.ok(Date.parse(String(status.expires_at)) > Date.now());

    const { items, pages } = await allResults(t, created.job_id);
    assert.deepEqual(items.map(pathOf).sort(), ['/a', '/b', '/c', '/missing']);
    const byPath = new Map(items.map((i) => [pathOf(i), i]));
    assert.equal(byPath.get('/missing')?.metadata.status_code, 404);
    assert.equal(byPath.get('/a')?.metadata.status_code, 200);
    assert.equal(byPath.get('/c')?.title, 'Cee');
    assert.ok(Array.isArray(byPath.get('/a')?.links));
    assert.equal(pages[0]?.status, 'completed');
    assert.equal(pages[0]?.failed, 1);
    assert.equal(pages[0]?.next, undefined);
    // No discovery (/a links to /b, fetched once as given), no robots.txt (it disallows everything).
    for (const p of ['/a', '/b', '/c']) assert.equal(s.hits.get(p), 1, `${p} fetched once`);
    assert.equal(s.hits.get('/robots.txt'), undefined, 'a batch does not read robots.txt');

    const events = await eventsOf(created.job_id);
    assert.deepEqual(
      events.map((e) => e.type),
      ['scrape.created', 'scrape.started', 'scrape.completed'],
    );
    for (const e of events) assert.equal(e.payload.batch, true, `${e.type} is marked as a batch's`);
    assert.equal(events[0]?.payload.url, `${s.url}/a`);
    assert.deepEqual(
      { ...events[2]?.payload, created_at: 0, completed_at: 0 },
      {
        job_id: created.job_id,
        status: 'completed',
        url: `${s.url}/a`,
        total: 5,
        completed: 4,
        failed: 1,
        credits_used: 4,
        created_at: 0,
        completed_at: 0,
        batch: true,
      },
    );
  });

  it('fails a batch of which no page could be had, with the first failure as its error', async () => {
    const created = await createBatch(t, { urls: ['http://127.0.0.1:1/a', 'http://127.0.0.1:1/b'] });
    const status = await waitForBatch(t, created.job_id);
    assert.equal(status.status, 'failed');
    assert.equal(status.completed, 0);
    assert.equal(status.failed, 2);
    assert.equal((status.error as { code: string }).code, 'CONNECTION_REFUSED');
    const { items } = await allResults(t, created.job_id);
    assert.deepEqual(items, []);
    const events = await eventsOf(created.job_id);
    assert.deepEqual(
      events.map((e) => e.type),
      ['scrape.created', 'scrape.started', 'scrape.failed'],
    );
    const failed = events[2]?.payload ?? {};
    assert.equal(failed.error_code, 'CONNECTION_REFUSED');
    assert.equal(failed.batch, true);
    assert.equal(failed.total, 2);
    assert.equal(failed.failed, 2);
  });

  it('pages results 100 at a time with an absolute `next`, in the order pages finished', async () => {
    const pages: Record<string, FixturePage> = {};
    for (let i = 0; i < 150; i++) pages[`/p${i}`] = {};
    const s = await site(pages);
    const created = await createBatch(t, { urls: Object.keys(pages).map((p) => `${s.url}${p}`) });
    assert.equal(created.total, 150);
    await waitForBatch(t, created.job_id, 60_000);
    const first = (await t.request('GET', `/v1/batch/scrape/${created.job_id}`)).json();
    assert.equal(first.data.length, 100);
    assert.equal(first.next, `http://localhost:80/v1/batch/scrape/${created.job_id}?skip=100`);
    const { items } = await allResults(t, created.job_id);
    assert.equal(items.length, 150);
    assert.equal(new Set(items.map((i) => i.url)).size, 150);
    const bad = await t.request('GET', `/v1/batch/scrape/${created.job_id}?skip=-1`);
    assert.equal(bad.statusCode, 400);
  });

  it('retries a page with `retry`, and without it keeps the 503 as the page answered it', async () => {
    const s = await site({ '/flaky': { failFirst: { times: 2, status: 503 } }, '/down': { status: 503 } });
    const withRetry = await createBatch(t, { urls: [`${s.url}/flaky`], retry: true });
    await waitForBatch(t, withRetry.job_id);
    const retried = (await allResults(t, withRetry.job_id)).items;
    assert.equal(retried[0]?.metadata.status_code, 200);
    assert.equal(s.hits.get('/flaky'), 3);

    const without = await createBatch(t, { urls: [`${s.url}/down`] });
    const status = await waitForBatch(t, without.job_id);
    assert.equal(status.status, 'completed');
    assert.equal((await allResults(t, without.job_id)).items[0]?.metadata.status_code, 503);
    assert.equal(s.hits.get('/down'), 1);

    // With retry, the last answer stands once the retries are used up.
    const exhausted = await createBatch(t, { urls: [`${s.url}/down`], retry: true });
    await waitForBatch(t, exhausted.job_id);
    assert.equal((await allResults(t, exhausted.job_id)).items[0]?.metadata.status_code, 503);
    assert.equal(s.hits.get('/down'), 4, 'one try and two retries');
  });

  it('answers json by the built-in rules in every page', async () => {
    const s = await site({ '/1': { body: PRODUCT_BODY }, '/2': { body: PRODUCT_BODY.replaceAll('3000', '4000') } });
    const created = await createBatch(t, {
      urls: [`${s.url}/1`, `${s.url}/2`],
      formats: ['json'],
      json_options: { schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } } },
    });
    assert.equal((await waitForBatch(t, created.job_id)).status, 'completed');
    const { items } = await allResults(t, created.job_id);
    const names = items.map((i) => (i.json as { name: string }).name).sort();
    assert.deepEqual(names, ['Acme Anvil 3000', 'Acme Anvil 4000']);
    for (const i of items) {
      assert.equal((i.json as { price: number }).price, 149.99);
      assert.equal(i.metadata.extraction, 'rules');
      assert.equal(i.markdown, undefined, 'only the formats asked for');
    }
  });

  it('cancels a running batch: 200, then 409; scrape.cancelled; nothing saved after the answer', async () => {
    const pages: Record<string, FixturePage> = {};
    for (let i = 0; i < 40; i++) pages[`/slow${i}`] = { delayMs: 300 };
    const s = await site(pages);
    const created = await createBatch(t, { urls: Object.keys(pages).map((p) => `${s.url}${p}`) });
    const res = await t.request('DELETE', `/v1/batch/scrape/${created.job_id}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().data, { job_id: created.job_id, status: 'cancelled' });
    const again = await t.request('DELETE', `/v1/batch/scrape/${created.job_id}`);
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().error, 'Job already finished');
    const completedAtCancel = (await t.request('GET', `/v1/batch/scrape/${created.job_id}/status`)).json().data;
    assert.equal(completedAtCancel.status, 'cancelled');
    await new Promise((r) => setTimeout(r, 700));
    const { items } = await allResults(t, created.job_id);
    assert.equal(items.length, completedAtCancel.completed);
    assert.ok(items.length < 40);
    const events = await eventsOf(created.job_id);
    const types = events.map((e) => e.type);
    assert.equal(types.at(-1), 'scrape.cancelled');
    assert.deepEqual(
      types.filter((x) => x !== 'scrape.started'),
      ['scrape.created', 'scrape.cancelled'],
    );
    assert.equal(events.at(-1)?.payload.batch, true);
    assert.equal(events.at(-1)?.payload.status, 'cancelled');
    assert.equal(typeof events.at(-1)?.payload.cancelled_at, 'string');
  });

  it('lists invalid URLs and goes on, or refuses them naming each with ignore_invalid_urls false', async () => {
    const s = await site({ '/ok': {} });
    const urls = [`${s.url}/ok`, 'ftp://example.com/x', 'not a url', `${s.url}/ok`, '/relative', 'x'.repeat(9000)];
    const created = await createBatch(t, { urls });
    assert.equal(created.total, 1);
    assert.deepEqual(created.invalid_urls, ['ftp://example.com/x', 'not a url', '/relative', 'x'.repeat(9000)]);
    assert.equal((await waitForBatch(t, created.job_id)).status, 'completed');

    const refused = await t.request('POST', '/v1/batch/scrape', { body: { urls, ignore_invalid_urls: false } });
    assert.equal(refused.statusCode, 400, refused.body);
    const body = refused.json();
    assert.equal(body.error, 'Validation error');
    assert.deepEqual(
      body.data.issues.map((i: { field: string }) => i.field),
      ['urls.1', 'urls.2', 'urls.4', 'urls.5'],
    );

    const none = await t.request('POST', '/v1/batch/scrape', { body: { urls: ['nope', 'mailto:a@b.c'] } });
    assert.equal(none.statusCode, 400, 'no valid URL is left');
    assert.deepEqual(
      none.json().data.issues.map((i: { field: string }) => i.field),
      ['urls.0', 'urls.1'],
    );
  });

  it('checks the address guard literally when local targets are not allowed', () => {
    const sorted = sortUrls(
      ['http://127.0.0.1/a', 'http://[::1]/', 'http://localhost:3000/', 'https://example.com/'],
      false,
    );
    assert.deepEqual(sorted.valid, ['https://example.com/']);
    assert.deepEqual(
      sorted.invalid.map((i) => [i.issue.field, i.issue.code]),
      [
        ['urls.0', 'custom'],
        ['urls.1', 'custom'],
        ['urls.2', 'custom'],
      ],
    );
    assert.match(sorted.invalid[0]?.issue.message ?? '', /ALLOW_LOCAL_TARGETS/);
    assert.equal(sortUrls(['http://127.0.0.1/a'], true).valid.length, 1);
  });

  it('takes 10,000 URLs of 700 characters (a body over the 1 MiB of other routes), 413 past the batch body limit', async () => {
    const s = await site({ '/p': {} });
    const long = `${s.url}/p?q=${'x'.repeat(700 - `${s.url}/p?q=`.length)}`;
    const created = await t.request('POST', '/v1/batch/scrape', { body: { urls: Array(10_000).fill(long) } });
    assert.equal(created.statusCode, 200, created.body.slice(0, 300));
    assert.equal(created.json().data.total, 1, 'the copies of one URL are one page');
    await waitForBatch(t, created.json().data.job_id as string);
    // Past BATCH_BODY_LIMIT_BYTES (8 MiB): a 413 before the body is parsed.
    const huge = await t.request('POST', '/v1/batch/scrape', {
      body: { urls: Array(10_000).fill(`${long}${'y'.repeat(200)}`) },
    });
    assert.equal(huge.statusCode, 413, huge.body.slice(0, 300));
    // Other routes keep the general body limit.
    const scrape = await t.request('POST', '/v1/scrape', { body: { url: long, include_tags: Array(2000).fill(long) } });
    assert.equal(scrape.statusCode, 413, scrape.body.slice(0, 300));
  });

  it('refuses more than 10,000 URLs, an empty list, templates and options this deployment cannot serve', async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => `https://example.com/${i}`);
    const tooMany = await t.request('POST', '/v1/batch/scrape', { body: { urls: many } });
    assert.equal(tooMany.statusCode, 400);
    assert.deepEqual(
      tooMany.json().data.issues.map((i: { field: string; code: string }) => [i.field, i.code]),
      [['urls', 'too_big']],
    );
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ urls: [] }, 'urls'],
      [{}, 'urls'],
      [{ urls: ['https://example.com/'], formats: ['json'] }, 'json_options'],
      [{ urls: ['https://example.com/'], limit: 5 }, 'limit'],
      [{ urls: [42] }, 'urls.0'],
    ];
    for (const [body, field] of cases) {
      const res = await t.request('POST', '/v1/batch/scrape', { body });
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      assert.equal(res.json().data.issues[0].field, field, JSON.stringify(body));
    }
    // A template that is not this key's (test/templates has the rest).
    const unknown = await t.request('POST', '/v1/batch/scrape', {
      body: { urls: ['https://example.com/'], template_id: 'tpl' },
    });
    assert.equal(unknown.statusCode, 404, unknown.body);
    assert.equal(unknown.json().message, 'Template not found');
  });

  it('answers 400 for bad ids and skips, 404 for unknown or another key’s batch; a crawl id is not a batch', async () => {
    const s = await site({ '/x': {} });
    const created = await createBatch(t, { urls: [`${s.url}/x`] });
    await waitForBatch(t, created.job_id);
    for (const [method, path] of [
      ['GET', '/v1/batch/scrape/nope/status'],
      ['GET', '/v1/batch/scrape/nope'],
      ['DELETE', '/v1/batch/scrape/nope'],
    ] as const) {
      const res = await t.request(method, path);
      assert.equal(res.statusCode, 400, path);
      assert.equal(res.json().error, 'Invalid job ID');
    }
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [
      ['GET', `/v1/batch/scrape/${unknown}/status`],
      ['GET', `/v1/batch/scrape/${unknown}`],
      ['DELETE', `/v1/batch/scrape/${unknown}`],
    ] as const)
      assert.equal((await t.request(method, path)).statusCode, 404, path);
    for (const [method, path] of [
      ['GET', `/v1/batch/scrape/${created.job_id}/status`],
      ['GET', `/v1/batch/scrape/${created.job_id}`],
      ['DELETE', `/v1/batch/scrape/${created.job_id}`],
    ] as const)
      assert.equal((await t.request(method, path, { key: OTHER_KEY })).statusCode, 404, `${path} by another key`);
    // The kinds stay apart: a batch is not a crawl, a crawl is not a batch.
    assert.equal((await t.request('GET', `/v1/crawl/${created.job_id}/status`)).statusCode, 404);
    const crawl = await t.request('POST', '/v1/crawl', { body: { url: `${s.url}/x`, limit: 1 } });
    const crawlId = crawl.json().data.job_id as string;
    assert.equal((await t.request('GET', `/v1/batch/scrape/${crawlId}/status`)).statusCode, 404);
    assert.equal((await t.request('DELETE', `/v1/batch/scrape/${crawlId}`)).statusCode, 404);
    await waitForCrawl((u) => t.request('GET', u), crawlId);
  });

  it('runs a batch and a crawl side by side, each with its own events, the crawl unchanged', async () => {
    const pages: Record<string, FixturePage> = { '/': { links: Array.from({ length: 20 }, (_, i) => `/c${i}`) } };
    for (let i = 0; i < 20; i++) pages[`/c${i}`] = { delayMs: 20 };
    for (let i = 0; i < 30; i++) pages[`/b${i}`] = { delayMs: 20 };
    const s = await site(pages, 'User-agent: *\nDisallow: /c19\n');
    const crawl = await t.request('POST', '/v1/crawl', { body: { url: `${s.url}/` } });
    const crawlId = crawl.json().data.job_id as string;
    const batch = await createBatch(t, { urls: Array.from({ length: 30 }, (_, i) => `${s.url}/b${i}`) });
    const [crawlStatus, batchStatus] = await Promise.all([
      waitForCrawl((u) => t.request('GET', u), crawlId),
      waitForBatch(t, batch.job_id),
    ]);
    assert.equal(crawlStatus.status, 'completed');
    assert.equal(crawlStatus.total, 20);
    assert.equal(crawlStatus.completed, 20);
    assert.equal(s.hits.get('/c19'), undefined, 'robots.txt still applies to the crawl');
    assert.equal(s.hits.get('/robots.txt'), 1);
    assert.equal(batchStatus.completed, 30);
    assert.deepEqual(
      (await eventsOf(crawlId)).map((e) => e.type),
      ['crawl.created', 'crawl.started', 'crawl.completed'],
    );
    assert.deepEqual(
      (await eventsOf(batch.job_id)).map((e) => e.type),
      ['scrape.created', 'scrape.started', 'scrape.completed'],
    );
  });
});
