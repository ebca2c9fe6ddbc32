// Crawl jobs through the API: lifecycle, scope, limits, duplicates, robots, retry, cancel, paging, isolation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readEvents } from '../../src/events/outbox.js';
import { type CrawlSite, type FixturePage, startCrawlSite, waitForCrawl } from '../fixtures/crawl-site.js';
import { OTHER_KEY, type TestApp, startTestApp } from '../helpers/test-app.js';

describe('crawl API', () => {
  let t: TestApp;
  const sites: CrawlSite[] = [];
  before(async () => {
    t = await startTestApp({ env: { CRAWL_RETRY_BASE_MS: '50', CRAWL_LEASE_MS: '5000' } });
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
  const get = (url: string, key?: string) => t.request('GET', url, key ? { key } : {});
  async function crawl(body: Record<string, unknown>): Promise<string> {
    const res = await t.request('POST', '/v1/crawl', { body });
    assert.equal(res.statusCode, 200, res.body);
    const json = res.json();
    assert.equal(json.success, true);
    assert.equal(json.data.status, 'created');
    return json.data.job_id;
  }
  async function allResults(jobId: string): Promise<Array<Record<string, unknown>>> {
    const out: Array<Record<string, unknown>> = [];
    let next: string | undefined = `/v1/crawl/${jobId}?skip=0`;
    while (next) {
      const res = await get(next.replace(/^https?:\/\/[^/]+/, ''));
      assert.equal(res.statusCode, 200, res.body);
      const json = res.json();
      out.push(...json.data);
      next = json.next;
    }
    return out;
  }
  const paths = (results: Array<Record<string, unknown>>) => results.map((r) => new URL(String(r.url)).pathname).sort();

  it('crawls a small site, with exact counts, results and events', async () => {
    const s = await site({
      '/': { links: ['/a', '/b', 'https://elsewhere.example/x', '/image.png'] },
      '/a': { links: ['/c', '/', '/a#section'] },
      '/b': { links: ['/c'] },
      '/c': { links: [] },
    });
    const jobId = await crawl({ url: `${s.url}/`, formats: ['markdown', 'links'] });
    const status = await waitForCrawl(get, jobId);
    assert.equal(status.status, 'completed');
    assert.equal(status.total, 4);
    assert.equal(status.completed, 4);
    assert.equal(status.failed, 0);
    assert.equal(status.credits_used, 4);
    assert.equal('error' in status, false, 'only a failed crawl has an error');
    assert.match(String(status.start_time), /Z$/);
    assert.ok(Date.parse(String(status.expires_at)) > Date.now());
    const results = await allResults(jobId);
    assert.deepEqual(paths(results), ['/', '/a', '/b', '/c']);
    for (const r of results) {
      assert.match(String(r.markdown), /^# Page/);
      assert.ok(Array.isArray(r.links));
      assert.equal((r.metadata as { status_code: number }).status_code, 200);
    }
    for (const p of ['/', '/a', '/b', '/c']) assert.equal(s.hits.get(p), 1, `${p} fetched once`);
    assert.equal(s.hits.get('/image.png'), undefined, 'non-HTML links are not fetched');
    const events = await readEvents(t.app.db.kysely, { subjectId: jobId });
    assert.deepEqual(
      events.map((e) => e.type),
      ['crawl.created', 'crawl.started', 'crawl.completed'],
    );
    assert.equal(events[2]?.payload.completed, 4);
  });

  it('never exceeds limit, even with many pages in flight, and limit 1 visits only the seed', async () => {
    const many: Record<string, FixturePage> = { '/': { links: Array.from({ length: 40 }, (_, i) => `/p${i}`) } };
    for (let i = 0; i < 40; i++) many[`/p${i}`] = { links: [`/q${i}`], delayMs: 20 };
    const s = await site(many);
    const jobId = await crawl({ url: `${s.url}/`, limit: 7 });
    const status = await waitForCrawl(get, jobId);
    assert.equal(status.total, 7);
    assert.equal(status.completed, 7);
    const fetched = [...s.hits.keys()].filter((p) => p !== '/robots.txt');
    assert.equal(fetched.length, 7);

    const one = await crawl({ url: `${s.url}/`, limit: 1 });
    const st = await waitForCrawl(get, one);
    assert.equal(st.completed, 1);
    assert.deepEqual(paths(await allResults(one)), ['/']);
  });

  it('honours max_depth from seed depth 0', async () => {
    const s = await site({ '/': { links: ['/1'] }, '/1': { links: ['/2'] }, '/2': { links: ['/3'] }, '/3': {} });
    const zero = await crawl({ url: `${s.url}/`, max_depth: 0 });
    await waitForCrawl(get, zero);
    assert.deepEqual(paths(await allResults(zero)), ['/']);
    const two = await crawl({ url: `${s.url}/`, max_depth: 2 });
    await waitForCrawl(get, two);
    assert.deepEqual(paths(await allResults(two)), ['/', '/1', '/2']);
  });

  it('applies exclude_paths, then include_paths for visits, and scrape_paths for saving', async () => {
    const s = await site({
      '/': { links: ['/blog/a', '/blog/b', '/blog/private/x', '/shop/1', '/docs/1'] },
      '/blog/a': { links: ['/blog/a/deep'] },
      '/blog/a/deep': {},
      '/blog/b': {},
      '/blog/private/x': {},
      '/shop/1': {},
      '/docs/1': {},
    });
    const jobId = await crawl({
      url: `${s.url}/`,
      include_paths: ['/blog/**'],
      exclude_paths: ['/blog/private/*'],
      scrape_paths: ['/blog/*'],
    });
    const status = await waitForCrawl(get, jobId);
    assert.deepEqual(
      paths(await allResults(jobId)),
      ['/blog/a', '/blog/b'],
      'the seed and deep page are visited, not saved',
    );
    assert.equal(s.hits.get('/blog/a/deep'), 1);
    assert.equal(s.hits.get('/blog/private/x'), undefined);
    assert.equal(s.hits.get('/shop/1'), undefined);
    assert.equal(status.completed, 2);
    assert.equal(status.credits_used, 2);
  });

  it('visits each page once despite fragments and redirects', async () => {
    const s = await site({
      '/': { links: ['/old', '/new', '/new#top', '/NEW'.toLowerCase(), `/./new`] },
      '/old': { redirect: '/new' },
      '/new': {},
    });
    const jobId = await crawl({ url: `${s.url}/` });
    await waitForCrawl(get, jobId);
    const results = await allResults(jobId);
    const fetchedNew = s.hits.get('/new') ?? 0;
    assert.equal(fetchedNew, 1, 'the redirect target is fetched once');
    assert.equal(results.length, 2);
  });

  it('honours robots.txt disallow rules', async () => {
    const s = await site(
      { '/': { links: ['/public', '/private/x'] }, '/public': {}, '/private/x': {} },
      'User-agent: *\nDisallow: /private/\n',
    );
    const jobId = await crawl({ url: `${s.url}/` });
    await waitForCrawl(get, jobId);
    assert.deepEqual(paths(await allResults(jobId)), ['/', '/public']);
    assert.equal(s.hits.get('/private/x'), undefined);
  });

  it('fails the crawl when the seed cannot be fetched', async () => {
    const s = await site({ '/': { status: 404 } });
    const jobId = await crawl({ url: `${s.url}/missing` });
    const status = await waitForCrawl(get, jobId);
    assert.equal(status.status, 'failed');
    assert.equal(status.failed, 1);
    assert.equal(status.completed, 0);
    assert.deepEqual(status.error, { code: 'HTTP_ERROR', message: 'The page answered HTTP 404' });
    const events = await readEvents(t.app.db.kysely, { subjectId: jobId });
    assert.equal(events.at(-1)?.type, 'crawl.failed');
    assert.equal(events.at(-1)?.payload.error_code, 'HTTP_ERROR');

    // A seed that cannot be reached at all: the status names the network error.
    const closed = await startCrawlSite({});
    await closed.close();
    const refused = await waitForCrawl(get, await crawl({ url: `${closed.url}/` }));
    assert.equal(refused.status, 'failed');
    assert.equal((refused.error as { code: string }).code, 'CONNECTION_REFUSED');
  });

  it('retries a flaky page with retry: true and fails it without', async () => {
    const s = await site({ '/': { links: ['/flaky'] }, '/flaky': { failFirst: { times: 1, status: 503 } } });
    const jobId = await crawl({ url: `${s.url}/`, retry: true });
    const status = await waitForCrawl(get, jobId);
    assert.equal(status.completed, 2);
    assert.equal(s.hits.get('/flaky'), 2);

    const s2 = await site({ '/': { links: ['/flaky'] }, '/flaky': { failFirst: { times: 1, status: 503 } } });
    const noRetry = await crawl({ url: `${s2.url}/` });
    const st2 = await waitForCrawl(get, noRetry);
    assert.equal(st2.completed, 1);
    assert.equal(st2.failed, 1);
  });

  it('cancels a running crawl; nothing is added after, and a second cancel is a 409', async () => {
    const pages: Record<string, FixturePage> = { '/': { links: Array.from({ length: 30 }, (_, i) => `/slow${i}`) } };
    for (let i = 0; i < 30; i++) pages[`/slow${i}`] = { delayMs: 300 };
    const s = await site(pages);
    const jobId = await crawl({ url: `${s.url}/` });
    await new Promise((r) => setTimeout(r, 400));
    const cancel = await t.request('DELETE', `/v1/crawl/${jobId}`);
    assert.equal(cancel.statusCode, 200, cancel.body);
    assert.deepEqual(cancel.json().data, { job_id: jobId, status: 'cancelled' });
    const atCancel = (await get(`/v1/crawl/${jobId}`)).json();
    await new Promise((r) => setTimeout(r, 800));
    const later = (await get(`/v1/crawl/${jobId}`)).json();
    assert.equal(later.status, 'cancelled');
    assert.equal(later.data.length, atCancel.data.length, 'no result added after the cancel answer');
    assert.equal(later.completed, atCancel.completed);
    const again = await t.request('DELETE', `/v1/crawl/${jobId}`);
    assert.equal(again.statusCode, 409);
    assert.deepEqual(again.json(), {
      success: false,
      error: 'Job already finished',
      message: 'Finished jobs cannot be cancelled',
    });
    const events = await readEvents(t.app.db.kysely, { subjectId: jobId });
    assert.equal(events.at(-1)?.type, 'crawl.cancelled');
  });

  it('pages results 100 at a time with next pointing at the real route', async () => {
    const pages: Record<string, FixturePage> = { '/': { links: Array.from({ length: 149 }, (_, i) => `/n${i}`) } };
    for (let i = 0; i < 149; i++) pages[`/n${i}`] = {};
    const s = await site(pages);
    const jobId = await crawl({ url: `${s.url}/`, limit: 150 });
    await waitForCrawl(get, jobId, 60_000);
    const first = (await get(`/v1/crawl/${jobId}?skip=0`)).json();
    assert.equal(first.data.length, 100);
    assert.equal(first.next, `http://localhost:80/v1/crawl/${jobId}?skip=100`);
    const second = (await get(`/v1/crawl/${jobId}?skip=100`)).json();
    assert.equal(second.data.length, 50);
    assert.equal(second.next, undefined);
    assert.equal(first.completed, 150);
    const urls = new Set([...first.data, ...second.data].map((r: { url: string }) => r.url));
    assert.equal(urls.size, 150);
  });

  it('answers 400 for bad ids and skips, 404 for unknown or foreign jobs', async () => {
    const s = await site({ '/': {} });
    const jobId = await crawl({ url: `${s.url}/` });
    await waitForCrawl(get, jobId);
    for (const path of ['/v1/crawl/not-a-uuid', '/v1/crawl/not-a-uuid/status']) {
      const res = await get(path);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), { success: false, error: 'Invalid job ID', message: 'Job ID must be a valid UUID' });
    }
    assert.equal((await t.request('DELETE', '/v1/crawl/nope')).statusCode, 400);
    for (const skip of ['-1', 'abc', '1.5']) {
      const res = await get(`/v1/crawl/${jobId}?skip=${skip}`);
      assert.equal(res.statusCode, 400, skip);
      assert.equal(res.json().data.issues[0].field, 'skip');
    }
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [
      ['GET', `/v1/crawl/${unknown}`],
      ['GET', `/v1/crawl/${unknown}/status`],
      ['DELETE', `/v1/crawl/${unknown}`],
    ] as const) {
      const res = await t.request(method, path);
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), { success: false, error: 'Not found', message: 'Job not found' });
    }
    for (const [method, path] of [
      ['GET', `/v1/crawl/${jobId}`],
      ['GET', `/v1/crawl/${jobId}/status`],
      ['DELETE', `/v1/crawl/${jobId}`],
    ] as const) {
      const res = await t.request(method, path, { key: OTHER_KEY });
      assert.equal(res.statusCode, 404, `${method} ${path} by another key`);
    }
  });

  it('validates the create body as the interface says', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ url: 'https://example.com', strategy: 'bogus' }, 'strategy', 'invalid_enum_value'],
      [{ url: 'https://example.com', limit: 0 }, 'limit', 'too_small'],
      [{ url: 'https://example.com', max_depth: -1 }, 'max_depth', 'too_small'],
      [
        { url: 'https://example.com', scrape_options: { formats: ['nope'] } },
        'scrape_options.formats.0',
        'invalid_enum_value',
      ],
      [{ url: 'https://example.com', scrape_options: { bogus: 1 } }, 'scrape_options.bogus', 'unrecognized_keys'],
      [{ url: 'https://example.com', engine: 'cheerio', formats: ['screenshot'] }, 'formats.0', 'custom'],
      [{}, 'url', 'invalid_type'],
    ];
    for (const [body, field, code] of cases) {
      const res = await t.request('POST', '/v1/crawl', { body });
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.ok(
        res.json().data.issues.some((i: { field: string; code: string }) => i.field === field && i.code === code),
        `${JSON.stringify(body)} -> ${res.body}`,
      );
    }
    // A template that is not this key's is a 404 (test/templates has the rest).
    const tpl = await t.request('POST', '/v1/crawl', { body: { url: 'https://example.com', template_id: 'tpl-1' } });
    assert.equal(tpl.statusCode, 404, tpl.body);
    assert.equal(tpl.json().message, 'Template not found');
  });
});
