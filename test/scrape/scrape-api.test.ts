// POST /v1/scrape end to end: a local fixture site on port 0, the real fetcher, extractor, cache and outbox.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { readEvents } from '../../src/events/outbox.js';
import { LATIN1_TEXT, type SiteServer, startSiteServer } from '../fixtures/site-server.js';
import { OTHER_KEY, type TestApp, startTestApp } from '../helpers/test-app.js';

const PAGES = new URL('../fixtures/pages/', import.meta.url);

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('POST /v1/scrape', () => {
  let site: SiteServer;
  let t: TestApp;
  before(async () => {
    site = await startSiteServer();
    t = await startTestApp({ env: { SCRAPE_MAX_BYTES: String(1024 * 1024) } });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const scrape = (body: Record<string, unknown>, key?: string) =>
    t.request('POST', '/v1/scrape', { body, ...(key ? { key } : {}) });

  it('returns the exact markdown of an article page, its metadata and a job id', async () => {
    const url = `${site.url}/pages/article.html`;
    const res = await scrape({ url, max_age: 0 });
    assert.equal(res.statusCode, 200, res.body);
    const { success, data } = res.json();
    assert.equal(success, true);
    assert.match(data.job_id, /^[0-9a-f-]{36}$/);
    assert.equal(data.status, 'completed');
    assert.equal(data.url, url);
    // The expected file was written for http://site.test; here the site is on a local port.
    const expected = fs
      .readFileSync(new URL('article.md', PAGES), 'utf8')
      .trimEnd()
      .replaceAll('http://site.test', site.url);
    assert.equal(data.markdown, expected);
    assert.ok(data.markdown.startsWith('# '), 'the article keeps its h1');
    assert.equal(data.html, undefined, 'only the requested formats are returned');
    assert.ok(data.title.length > 0);
    assert.equal(data.metadata.status_code, 200);
    assert.equal(data.metadata.content_type, 'text/html');
    assert.equal(data.metadata.source_url, url);
    assert.equal(data.metadata.final_url, url);
    assert.equal(data.metadata.cache_state, 'miss');
    assert.match(data.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('returns every content format on request', async () => {
    const url = `${site.url}/pages/article.html`;
    const res = await scrape({ url, max_age: 0, formats: ['markdown', 'html', 'rawHtml', 'text', 'links'] });
    assert.equal(res.statusCode, 200, res.body);
    const { data } = res.json();
    assert.equal(data.rawHtml, fs.readFileSync(new URL('article.html', PAGES), 'utf8'));
    assert.ok(!/<script|<nav/i.test(data.html), 'cleaned html has no scripts or navigation');
    assert.ok(!/(href|src)="\/(?!\/)/.test(data.html), 'links in html are absolute');
    assert.ok(data.text.length > 50 && !data.text.includes('<'));
    assert.ok(Array.isArray(data.links) && data.links.length > 0);
    for (const link of data.links) assert.match(link, /^https?:\/\//);
    assert.equal(new Set(data.links).size, data.links.length, 'links are de-duplicated');
  });

  it("returns the page's images with the images format", async () => {
    const url = `${site.url}/pages/article.html`;
    const res = await scrape({ url, formats: ['images'] });
    assert.equal(res.statusCode, 200, res.body);
    const { data } = res.json();
    assert.deepEqual(data.images, [`${site.url}/pages/images/lens.jpg`]);
    assert.equal(data.markdown, undefined);
  });

  it('follows redirects and reports source and final URLs', async () => {
    const res = await scrape({ url: `${site.url}/redirect/2`, max_age: 0 });
    assert.equal(res.statusCode, 200, res.body);
    const { data } = res.json();
    assert.equal(data.metadata.source_url, `${site.url}/redirect/2`);
    assert.equal(data.metadata.final_url, `${site.url}/pages/article.html`);
  });

  it('answers 200 with the status code of a target 404 or 500', async () => {
    for (const code of [404, 500]) {
      const res = await scrape({ url: `${site.url}/status/${code}`, max_age: 0 });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.metadata.status_code, code);
    }
  });

  it('decodes a latin-1 page correctly', async () => {
    for (const path of ['/latin1', '/latin1-meta']) {
      const res = await scrape({ url: `${site.url}${path}`, max_age: 0, formats: ['markdown', 'text'] });
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(res.json().data.text.includes(LATIN1_TEXT), `${path}: ${res.json().data.text}`);
    }
  });

  it('fails clearly, with a code and a job id, when the page cannot be had', async () => {
    const port = await closedPort();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ url: `${site.url}/file.pdf` }, 400, 'UNSUPPORTED_CONTENT_TYPE'],
      [{ url: `${site.url}/hang`, timeout: 800 }, 504, 'TIMEOUT'],
      [{ url: `${site.url}/huge?mb=3` }, 502, 'TOO_LARGE'],
      [{ url: `http://127.0.0.1:${port}/` }, 502, 'CONNECTION_REFUSED'],
      [{ url: 'http://no-such-host.invalid/' }, 502, 'DNS_FAILURE'],
      [{ url: `${site.url}/redirect-loop` }, 502, 'TOO_MANY_REDIRECTS'],
    ];
    for (const [body, status, code] of cases) {
      const started = Date.now();
      const res = await scrape({ ...body, max_age: 0 });
      assert.equal(res.statusCode, status, `${JSON.stringify(body)}: ${res.body}`);
      const json = res.json();
      assert.equal(json.success, false);
      assert.equal(json.code, code);
      assert.ok(json.error.length > 0 && json.message.length > 0);
      assert.equal(json.data.status, 'failed');
      assert.match(json.data.job_id, /^[0-9a-f-]{36}$/);
      if (code === 'TIMEOUT') assert.ok(Date.now() - started < 3000, 'the timeout is honoured');
    }
  });

  it('serves from the cache within max_age, fetches with max_age 0, and applies options per request', async () => {
    const url = `${site.url}/pages/table.html?cache-test`;
    const before = new Date().toISOString();
    const first = await scrape({ url });
    assert.equal(first.json().data.metadata.cache_state, 'miss');
    const hitsAfterFirst = site.hits.get('/pages/table.html');

    const second = await scrape({ url, formats: ['markdown', 'links'] });
    assert.equal(second.statusCode, 200);
    const data = second.json().data;
    assert.equal(data.metadata.cache_state, 'hit');
    // cached_at is when the page was fetched: during the first request.
    assert.ok(
      data.metadata.cached_at >= before && data.metadata.cached_at <= first.json().data.timestamp,
      data.metadata.cached_at,
    );
    assert.equal(data.markdown, first.json().data.markdown);
    assert.ok(Array.isArray(data.links));
    assert.equal(site.hits.get('/pages/table.html'), hitsAfterFirst, 'a hit does not touch the site');

    // Options are applied to the cached page per request: no answer leaks another's options.
    const narrowed = await scrape({ url, include_tags: ['table'] });
    assert.equal(narrowed.json().data.metadata.cache_state, 'hit');
    assert.notEqual(narrowed.json().data.markdown, data.markdown);
    assert.match(narrowed.json().data.markdown, /\|/);

    const fresh = await scrape({ url, max_age: 0 });
    assert.equal(fresh.json().data.metadata.cache_state, 'miss');
    assert.equal(site.hits.get('/pages/table.html'), (hitsAfterFirst ?? 0) + 1);
  });

  it('does not write the cache when store_in_cache is false, nor for error pages', async () => {
    const url = `${site.url}/pages/article.html?no-store`;
    await scrape({ url, store_in_cache: false });
    assert.equal((await scrape({ url })).json().data.metadata.cache_state, 'miss');
    const missing = `${site.url}/status/404?cache`;
    await scrape({ url: missing });
    assert.equal((await scrape({ url: missing })).json().data.metadata.cache_state, 'miss');
  });

  it('records scrape events in the outbox with the interface payloads', async () => {
    const ok = (await scrape({ url: `${site.url}/pages/article.html`, max_age: 0 })).json().data;
    const okEvents = await readEvents(t.app.db.kysely, { subjectId: ok.job_id });
    assert.deepEqual(
      okEvents.map((e) => e.type),
      ['scrape.created', 'scrape.started', 'scrape.completed'],
    );
    const completed = okEvents[2]?.payload ?? {};
    assert.deepEqual(Object.keys(completed).sort(), [
      'completed',
      'completed_at',
      'created_at',
      'credits_used',
      'failed',
      'job_id',
      'status',
      'total',
      'url',
    ]);
    assert.equal(completed.job_id, ok.job_id);
    assert.equal(completed.status, 'completed');
    assert.equal(completed.credits_used, 1);

    const bad = (await scrape({ url: `${site.url}/file.pdf`, max_age: 0 })).json().data;
    const badEvents = await readEvents(t.app.db.kysely, { subjectId: bad.job_id });
    assert.deepEqual(
      badEvents.map((e) => e.type),
      ['scrape.created', 'scrape.started', 'scrape.failed'],
    );
    const failed = badEvents[2]?.payload ?? {};
    for (const field of ['job_id', 'status', 'url', 'error_message', 'credits_used', 'created_at', 'completed_at']) {
      assert.ok(field in failed, `scrape.failed has ${field}`);
    }
    assert.equal(failed.status, 'failed');
    assert.equal(failed.credits_used, 0);
  });

  it('records each job and event under the key that made it', async () => {
    const mine = (await scrape({ url: `${site.url}/pages/article.html` })).json().data;
    const theirs = (await scrape({ url: `${site.url}/pages/article.html` }, OTHER_KEY)).json().data;
    const a = await t.app.db.kysely
      .selectFrom('jobs')
      .select('owner_id')
      .where('id', '=', mine.job_id)
      .executeTakeFirstOrThrow();
    const b = await t.app.db.kysely
      .selectFrom('jobs')
      .select('owner_id')
      .where('id', '=', theirs.job_id)
      .executeTakeFirstOrThrow();
    assert.notEqual(a.owner_id, b.owner_id);
    const events = await readEvents(t.app.db.kysely, { ownerId: b.owner_id });
    assert.ok(events.every((e) => e.subjectId === theirs.job_id));
  });
});

describe('POST /v1/scrape address guard', () => {
  let site: SiteServer;
  let guarded: TestApp;
  before(async () => {
    site = await startSiteServer();
    guarded = await startTestApp({ env: { ALLOW_LOCAL_TARGETS: 'false' } });
  });
  after(async () => {
    await guarded.close();
    await site.close();
  });

  it('refuses loopback and private targets unless ALLOW_LOCAL_TARGETS is set', async () => {
    const port = site.port;
    for (const url of [
      `${site.url}/pages/article.html`,
      `http://localhost:${port}/`,
      `http://[::1]:${port}/`,
      `http://2130706433:${port}/`,
      `http://0x7f.1:${port}/`,
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const res = await guarded.request('POST', '/v1/scrape', { body: { url, max_age: 0 } });
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.equal(res.json().code, 'BLOCKED_ADDRESS');
      assert.match(res.json().message, /ALLOW_LOCAL_TARGETS/);
    }
    assert.equal(site.hits.size, 0, 'nothing reached the site');
  });
});

describe('POST /v1/scrape on PostgreSQL', () => {
  it('scrapes and records the job in the PostgreSQL store', async () => {
    const site = await startSiteServer();
    const t = await startTestApp({ backend: 'postgres' });
    try {
      const res = await t.request('POST', '/v1/scrape', { body: { url: `${site.url}/pages/article.html` } });
      assert.equal(res.statusCode, 200, res.body);
      const jobId = res.json().data.job_id;
      const row = await t.app.db.kysely
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', jobId)
        .executeTakeFirstOrThrow();
      assert.equal(row.status, 'completed');
      assert.equal(t.app.db.dialect, 'postgres');
      const again = await t.request('POST', '/v1/scrape', { body: { url: `${site.url}/pages/article.html` } });
      assert.equal(again.json().data.metadata.cache_state, 'hit');
    } finally {
      await t.close();
      await site.close();
    }
  });
});

describe('POST /v1/scrape with the worker-thread extraction pool', () => {
  it('gives the same answer as in-process extraction', async () => {
    const site = await startSiteServer();
    const pooled = await startTestApp({ env: { EXTRACT_THREADS: '2' } });
    const inline = await startTestApp();
    try {
      const body = {
        url: `${site.url}/pages/article.html`,
        formats: ['markdown', 'html', 'text', 'links'],
        max_age: 0,
      };
      const a = (await pooled.request('POST', '/v1/scrape', { body })).json().data;
      const b = (await inline.request('POST', '/v1/scrape', { body })).json().data;
      assert.ok(a.markdown.length > 100);
      for (const field of ['markdown', 'html', 'text', 'links', 'title']) assert.deepEqual(a[field], b[field], field);
    } finally {
      await pooled.close();
      await inline.close();
      await site.close();
    }
  });
});

describe('POST /v1/scrape of pages too big for an extraction thread', () => {
  it('extracts them on the large-page thread instead of failing', async () => {
    const site = await startSiteServer();
    const t = await startTestApp({
      env: { EXTRACT_THREADS: '1', EXTRACT_WORKER_HEAP_MB: '32', SCRAPE_MAX_BYTES: String(4 * 1024 * 1024) },
    });
    try {
      // 1 MB goes to an ordinary thread, whose 32 MB heap cannot hold its DOM, then to the large-page
      // thread; 2 MB is routed there by size.
      for (const mb of [1, 2]) {
        const res = await t.request('POST', '/v1/scrape', {
          body: { url: `${site.url}/huge?mb=${mb}`, max_age: 0, timeout: 120_000 },
        });
        assert.equal(res.statusCode, 200, `${mb} MB: ${res.body.slice(0, 300)}`);
        assert.ok(res.json().data.markdown.length > mb * 500_000);
      }
    } finally {
      await t.close();
      await site.close();
    }
  });
});
