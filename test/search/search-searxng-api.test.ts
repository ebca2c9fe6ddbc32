// POST /v1/search with SEARXNG_URL set, against a SearXNG stand-in: the default engine, the request's fields as
// SearXNG's parameters, results scraped through the address guard, and an instance that is down or slow as 502/504.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readEvents } from '../../src/events/outbox.js';
import { type CrawlSite, startCrawlSite } from '../fixtures/crawl-site.js';
import { type SearxngStandin, startSearxngStandin } from '../fixtures/searxng-standin.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

interface Result {
  title: string;
  url: string;
  description: string;
  source: string;
  engines?: string[];
  status?: string;
  markdown?: string;
  error_code?: string;
}

const article = (words: string) =>
  `<p>${words} This paragraph gives the extractor enough real sentences to see an article here, and it goes on for a while.</p><p>Another paragraph.</p>`;

describe('POST /v1/search, searxng engine', () => {
  let t: TestApp;
  let searx: SearxngStandin;
  let site: CrawlSite;
  before(async () => {
    site = await startCrawlSite({ '/wombat': { title: 'Wombats', body: article('Wombats dig burrows.') } });
    // The query "local pages" is answered with pages of the local site, so that results can be scraped.
    searx = await startSearxngStandin((request) =>
      request.params.q === 'local pages'
        ? {
            json: {
              query: 'local pages',
              number_of_results: 2,
              results: [
                { url: `${site.url}/wombat`, title: 'Wombat page', content: 'About wombats', engines: ['ddg'] },
                { url: `${site.url}/missing`, title: 'Missing page', content: 'Gone', engines: ['ddg'] },
              ],
              answers: [],
              suggestions: [],
              unresponsive_engines: [],
            },
          }
        : undefined,
    );
    t = await startTestApp({ env: { SEARXNG_URL: `${searx.url}/`, SEARXNG_TIMEOUT_MS: '800' } });
  });
  after(async () => {
    await t.close();
    await searx.close();
    await site.close();
  });
  const search = (body: Record<string, unknown>) => t.request('POST', '/v1/search', { body });

  it('is the default engine and answers results in AnyCrawl’s shape', async () => {
    searx.setMode({ perPage: 10 });
    const res = await search({ query: 'red pandas', limit: 3 });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { data: Result[]; engine: string; job_id: string };
    assert.equal(body.engine, 'searxng');
    assert.equal(body.data.length, 3);
    for (const r of body.data) {
      assert.equal(r.source, 'searxng');
      assert.equal(typeof r.title, 'string');
      assert.match(r.url, /^https:\/\/standin\.example\//);
      assert.equal(typeof r.description, 'string');
    }
    const types = (await readEvents(t.app.db.kysely, { subjectId: body.job_id })).map((e) => e.type);
    assert.deepEqual(types, ['search.created', 'search.started', 'search.completed']);
  });

  it("passes the request's fields as SearXNG's parameters, paging to fill offset + limit", async () => {
    searx.setMode({ perPage: 10 });
    const before = searx.requests.length;
    const res = await search({
      query: 'otters',
      limit: 10,
      offset: 15,
      lang: 'de',
      country: 'ch',
      timeRange: 'week',
      sources: 'news',
      safe_search: 2,
    });
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data as Result[];
    assert.equal(data.length, 10);
    const sent = searx.requests.slice(before);
    assert.deepEqual(
      sent.map((r) => r.params.pageno),
      ['1', '2', '3'],
      'offset 15 + limit 10 needs three pages of ten',
    );
    const first = sent[0]?.params ?? {};
    assert.equal(first.q, 'otters');
    assert.equal(first.format, 'json');
    assert.equal(first.language, 'de-CH');
    assert.equal(first.time_range, 'week');
    assert.equal(first.categories, 'news');
    assert.equal(first.safesearch, '2');
    assert.match(data[0]?.url ?? '', /\/p2\/r6$/, 'the 16th result is the sixth of page 2');
  });

  it('offers the index beside it, by name', async () => {
    const res = await search({ query: 'x', engine: 'google' });
    assert.equal(res.statusCode, 400);
    assert.match(res.json().data.issues[0].message, /it offers: searxng, index/);
  });

  it('scrapes the results with scrape_options, each failure its own', async () => {
    const res = await search({ query: 'local pages', scrape_options: { formats: ['markdown'] } });
    assert.equal(res.statusCode, 200, res.body);
    const [wombat, missing] = res.json().data as Result[];
    assert.equal(wombat?.status, 'completed');
    assert.equal(wombat?.title, 'Wombat page', "the engine's title stays");
    assert.match(wombat?.markdown ?? '', /Wombats dig burrows/);
    // A 404 is an answer (as a scrape reports it), with its status in metadata.
    assert.equal(missing?.status, 'completed');
    assert.equal((missing as unknown as { metadata: { status_code: number } }).metadata.status_code, 404);

    // The scraped page is now in the key's index too.
    const indexed = await search({ query: 'burrows', engine: 'index' });
    assert.deepEqual(
      (indexed.json().data as Result[]).map((r) => r.url),
      [`${site.url}/wombat`],
    );
  });

  it('answers 502 when SearXNG is down or answers garbage, and 504 when it is too slow, with the job failed', async () => {
    for (const [fault, status, code] of [
      ['server-error', 502, 'SEARCH_ENGINE_UNAVAILABLE'],
      ['not-json', 502, 'SEARCH_ENGINE_UNAVAILABLE'],
      ['forbidden', 502, 'SEARCH_ENGINE_UNAVAILABLE'],
      ['hang', 504, 'SEARCH_ENGINE_TIMEOUT'],
    ] as const) {
      searx.setMode({ fault });
      const started = Date.now();
      const res = await search({ query: `fault ${fault}` });
      assert.equal(res.statusCode, status, `${fault}: ${res.body}`);
      const body = res.json();
      assert.equal(body.success, false);
      assert.equal(body.code, code);
      assert.match(body.message, /SearXNG/);
      assert.equal(body.data.engine, 'searxng');
      assert.ok(Date.now() - started < 5000, `${fault} answered in ${Date.now() - started} ms`);
      const events = await readEvents(t.app.db.kysely, { subjectId: body.data.job_id as string });
      assert.deepEqual(
        events.map((e) => e.type),
        ['search.created', 'search.started', 'search.failed'],
      );
      assert.equal((events.at(-1)?.payload as { error_code: string }).error_code, code);
    }
    searx.setMode({});
  });
});

describe('POST /v1/search, searxng engine, private targets refused', () => {
  let t: TestApp;
  let searx: SearxngStandin;
  before(async () => {
    // The operator's SearXNG is on loopback and is reached; the results it names are targets and pass the guard.
    searx = await startSearxngStandin(() => ({
      json: {
        query: 'q',
        results: [{ url: 'http://127.0.0.1:9/admin', title: 'Internal', content: 'internal page' }],
      },
    }));
    t = await startTestApp({ env: { SEARXNG_URL: searx.url, ALLOW_LOCAL_TARGETS: 'false' } });
  });
  after(async () => {
    await t.close();
    await searx.close();
  });

  it('answers the hit but refuses to scrape a private address', async () => {
    const res = await t.request('POST', '/v1/search', { body: { query: 'q', scrape_options: {} } });
    assert.equal(res.statusCode, 200, res.body);
    const [hit] = res.json().data as Result[];
    assert.equal(hit?.url, 'http://127.0.0.1:9/admin');
    assert.equal(hit?.status, 'failed');
    assert.equal(hit?.error_code, 'BLOCKED_ADDRESS');
  });
});
