// The SearXNG engine against a stand-in instance: how a query becomes SearXNG's parameters, how pages are read,
// merged and cut, what is kept of untrusted results, and how each failure surfaces.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { SearchEngineError, type SearchHit, type SearchQuery } from '../../src/search/engine.js';
import { createSearxngEngine, type SearxngEngine, type SearxngEngineOptions } from '../../src/search/searxng.js';
import {
  type SearxngStandin,
  type SearxngStandinFault,
  type SearxngStandinHandler,
  standinUrl,
  startSearxngStandin,
} from '../fixtures/searxng-standin.js';
import { refusedPort } from '../helpers/ports.js';

const UA = 'crawlservice-test/1.0';

function query(overrides: Partial<SearchQuery> = {}): SearchQuery {
  return { query: 'cats', limit: 10, offset: 0, pages: 1, source: 'web', ...overrides };
}

function urls(hits: SearchHit[]): string[] {
  return hits.map((h) => h.url);
}

/** standinUrl for results `from`..`to` of page `page` of the query 'cats'. */
function range(page: number, from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, i) => standinUrl('cats', page, from + i));
}

/** The rejection of `promise`, which must reject within `withinMs`. */
async function rejection(promise: Promise<unknown>, withinMs = 5_000): Promise<unknown> {
  const started = Date.now();
  try {
    await promise;
  } catch (err) {
    const elapsed = Date.now() - started;
    assert.ok(elapsed < withinMs, `rejected after ${elapsed} ms, more than ${withinMs} ms`);
    return err;
  }
  assert.fail('expected a rejection');
}

async function engineError(promise: Promise<unknown>, withinMs?: number): Promise<SearchEngineError> {
  const err = await rejection(promise, withinMs);
  assert.ok(err instanceof SearchEngineError, `not a SearchEngineError: ${String(err)}`);
  assert.equal(err.engine, 'searxng');
  assert.match(err.message, /SearXNG/);
  return err;
}

describe('SearXNG engine', () => {
  let searx: SearxngStandin;
  let handler: SearxngStandinHandler | undefined;
  const engines: SearxngEngine[] = [];

  function engine(options: Partial<SearxngEngineOptions> = {}): SearxngEngine {
    const created = createSearxngEngine({ baseUrl: `${searx.url}/`, timeoutMs: 5_000, userAgent: UA, ...options });
    engines.push(created);
    return created;
  }

  before(async () => {
    searx = await startSearxngStandin((request) => handler?.(request));
  });
  beforeEach(() => {
    handler = undefined;
    searx.setMode();
    searx.requests.length = 0;
  });
  after(async () => {
    await Promise.all(engines.map((e) => e.close()));
    await searx.close();
  });

  describe('the query as SearXNG parameters', () => {
    it('a web search: q, format=json, pageno, categories=general, the language, headers', async () => {
      const hits = await engine().search('owner', query({ lang: 'en' }));
      assert.equal(hits.length, 10);
      assert.equal(searx.requests.length, 1);
      const [request] = searx.requests;
      assert.equal(request?.path, '/search');
      assert.deepEqual(request?.params, {
        q: 'cats',
        format: 'json',
        pageno: '1',
        categories: 'general',
        language: 'en',
      });
      assert.equal(request?.headers['accept'], 'application/json');
      assert.equal(request?.headers['user-agent'], UA);
      assert.equal(request?.headers['authorization'], undefined);
    });

    it('images with language, country, time range and safe search', async () => {
      await engine().search(
        'owner',
        query({ source: 'images', lang: 'de', country: 'CH', timeRange: 'week', safeSearch: 2 }),
      );
      assert.deepEqual(searx.requests[0]?.params, {
        q: 'cats',
        format: 'json',
        pageno: '1',
        categories: 'images',
        language: 'de-CH',
        time_range: 'week',
        safesearch: '2',
      });
    });

    it('news, safe search off (0 is sent, not dropped), each time range', async () => {
      const e = engine();
      for (const timeRange of ['day', 'week', 'month', 'year'] as const) {
        await e.search('owner', query({ source: 'news', safeSearch: 0, timeRange }));
      }
      assert.deepEqual(
        searx.requests.map((r) => [r.params['categories'], r.params['safesearch'], r.params['time_range']]),
        [
          ['news', '0', 'day'],
          ['news', '0', 'week'],
          ['news', '0', 'month'],
          ['news', '0', 'year'],
        ],
      );
    });

    it('the language tag: rebuilt to what SearXNG accepts, the country as region, none without a language', async () => {
      const cases: Array<[Partial<SearchQuery>, string | undefined]> = [
        [{ lang: 'fr' }, 'fr'],
        [{ lang: 'de-CH' }, 'de-CH'],
        [{ lang: 'pt', country: 'BR' }, 'pt-BR'],
        [{ lang: 'de-CH', country: 'AT' }, 'de-AT'],
        [{ lang: 'zh-Hant-TW' }, 'zh-TW'],
        [{ lang: 'EN-gb' }, 'en-GB'],
        [{ country: 'US' }, undefined],
        [{}, undefined],
      ];
      const e = engine();
      for (const [overrides] of cases) await e.search('owner', query(overrides));
      assert.deepEqual(
        searx.requests.map((r) => r.params['language']),
        cases.map(([, language]) => language),
      );
      for (const request of searx.requests.filter((r) => r.params['language'] === undefined)) {
        assert.ok(!('language' in request.params));
      }
    });

    it('pageno counts 1, 2, 3 over the pages read', async () => {
      await engine().search('owner', query({ limit: 30, pages: 3 }));
      assert.deepEqual(
        searx.requests.map((r) => r.params['pageno']),
        ['1', '2', '3'],
      );
    });
  });

  describe('the base URL', () => {
    for (const prefix of ['/searxng/', '/searxng']) {
      it(`keeps a path prefix (${prefix})`, async () => {
        const hits = await engine({ baseUrl: `${searx.url}${prefix}` }).search('owner', query());
        assert.equal(hits.length, 10);
        assert.deepEqual(
          searx.requests.map((r) => r.path),
          ['/searxng/search'],
        );
      });
    }

    it('drops a query string and fragment of the setting', async () => {
      await engine({ baseUrl: `${searx.url}/sx/?token=1#x` }).search('owner', query());
      assert.equal(searx.requests[0]?.path, '/sx/search');
      assert.equal(searx.requests[0]?.params['token'], undefined);
    });

    it('sends user:password as Basic authorization and never shows them', async () => {
      const base = new URL(`${searx.url}/`);
      base.username = 'op';
      base.password = 's3cr@t';
      const e = engine({ baseUrl: base.href });
      await e.search('owner', query());
      assert.equal(searx.requests[0]?.headers['authorization'], `Basic ${Buffer.from('op:s3cr@t').toString('base64')}`);
      searx.setMode({ fault: 'server-error' });
      const err = await engineError(e.search('owner', query()));
      assert.doesNotMatch(err.message, /s3cr|op:/);
      assert.doesNotMatch(err.message, /127\.0\.0\.1/);
    });

    it('refuses a base URL that is not an http(s) URL', () => {
      assert.throws(() => createSearxngEngine({ baseUrl: 'not a url', timeoutMs: 1000, userAgent: UA }), TypeError);
      assert.throws(
        () => createSearxngEngine({ baseUrl: 'ftp://searxng/', timeoutMs: 1000, userAgent: UA }),
        /http:\/\/ or https:\/\//,
      );
    });
  });

  describe('pages, duplicates, offset and limit', () => {
    it('merges pages in rank order and stops once offset+limit hits are in', async () => {
      const hits = await engine().search('owner', query({ limit: 25, pages: 5 }));
      assert.deepEqual(urls(hits), [...range(1, 1, 10), ...range(2, 1, 10), ...range(3, 1, 5)]);
      assert.equal(searx.requests.length, 3, 'page 4 and 5 are not asked for');
      assert.ok(hits.every((h) => h.source === 'searxng'));
    });

    it('cuts [offset, offset+limit) out of the merged list', async () => {
      const hits = await engine().search('owner', query({ offset: 15, limit: 10, pages: 5 }));
      assert.deepEqual(urls(hits), [...range(2, 6, 10), ...range(3, 1, 5)]);
      assert.equal(searx.requests.length, 3);
    });

    it('reads no more than `pages` pages', async () => {
      const hits = await engine().search('owner', query({ limit: 50, pages: 2 }));
      assert.equal(hits.length, 20);
      assert.equal(searx.requests.length, 2);
    });

    it('an offset past what the pages hold gives no hits', async () => {
      const hits = await engine().search('owner', query({ offset: 30, limit: 10, pages: 2 }));
      assert.deepEqual(hits, []);
      assert.equal(searx.requests.length, 2);
    });

    it('drops results repeated across pages, counting only new ones', async () => {
      searx.setMode({ duplicates: 3 });
      const hits = await engine().search('owner', query({ limit: 30, pages: 10 }));
      // Page 1 gives 10, pages 2-4 give 7 new each: 31 after page 4.
      assert.equal(searx.requests.length, 4);
      assert.equal(hits.length, 30);
      assert.equal(new Set(urls(hits)).size, 30);
      assert.deepEqual(urls(hits), [...range(1, 1, 10), ...range(2, 4, 10), ...range(3, 4, 10), ...range(4, 4, 9)]);
    });

    it('de-duplicates by the normalised URL, the first (best ranked) one winning', async () => {
      handler = (request) => ({
        json: {
          query: request.params['q'],
          results: [
            { url: 'HTTPS://Standin.Example/a b', title: 'first' },
            { url: 'https://standin.example/a%20b', title: 'again' },
            { url: 'https://standin.example:443/a%20b', title: 'and again' },
            { url: 'https://standin.example/c', title: 'other' },
          ],
        },
      });
      const hits = await engine().search('owner', query());
      assert.deepEqual(
        hits.map((h) => [h.url, h.title]),
        [
          ['https://standin.example/a%20b', 'first'],
          ['https://standin.example/c', 'other'],
        ],
      );
    });

    it('stops when a page is empty', async () => {
      searx.setMode({ totalPages: 2 });
      const hits = await engine().search('owner', query({ limit: 100, pages: 10 }));
      assert.equal(hits.length, 20);
      assert.equal(searx.requests.length, 3);
    });

    it('stops when a page brings nothing new', async () => {
      // Every page answers page 1's results again (an instance that ignores pageno).
      handler = (request) => ({
        json: { query: 'cats', results: range(1, 1, 10).map((url) => ({ url, title: url })), pageno: request.pageno },
      });
      const hits = await engine().search('owner', query({ limit: 100, pages: 10 }));
      assert.deepEqual(urls(hits), range(1, 1, 10));
      assert.equal(searx.requests.length, 2);
    });

    it('an empty first page is an empty answer', async () => {
      searx.setMode({ totalPages: 0 });
      assert.deepEqual(await engine().search('owner', query({ pages: 3 })), []);
      assert.equal(searx.requests.length, 1);
    });
  });

  describe('untrusted results', () => {
    it('keeps only entries with an http(s) URL of at most 2048 characters, strings only where strings are', async () => {
      searx.setMode({ malformed: true, perPage: 2 });
      const hits = await engine().search('owner', query({ limit: 100 }));
      assert.deepEqual(urls(hits), [standinUrl('cats', 1, 'odd'), standinUrl('cats', 1, 'long'), ...range(1, 1, 2)]);
      const [odd, long] = hits;
      assert.deepEqual(odd, {
        title: '',
        url: standinUrl('cats', 1, 'odd'),
        description: '',
        source: 'searxng',
        extra: { engines: ['ok-engine'] },
      });
      assert.equal(long?.title, 'T'.repeat(500));
      assert.equal(long?.description, 'C'.repeat(2000));
      assert.deepEqual(long?.extra, { engines: ['bing'] });
      assert.deepEqual(JSON.parse(JSON.stringify(hits)), hits, 'hits are JSON values only');
    });

    it('a well-formed web hit: title, url, content as description, extra', async () => {
      const [hit] = await engine().search('owner', query({ limit: 1 }));
      assert.deepEqual(hit, {
        title: 'Result 1 of page 1 for cats',
        url: standinUrl('cats', 1, 1),
        description: 'Text of result 1 of page 1 about cats.',
        source: 'searxng',
        extra: { engines: ['alpha', 'beta'], score: 98.99, category: 'general' },
      });
    });

    it('news hits carry published_at; image hits img_src and the thumbnail, made absolute', async () => {
      const e = engine();
      const [news] = await e.search('owner', query({ source: 'news', limit: 1 }));
      assert.equal(news?.extra?.['published_at'], '2026-01-02T10:00:00');
      assert.equal(news?.extra?.['category'], 'news');
      const [image] = await e.search('owner', query({ source: 'images', limit: 1 }));
      assert.equal(image?.extra?.['img_src'], 'https://img.standin.example/p1/r1.jpg');
      assert.equal(image?.extra?.['thumbnail_src'], 'https://img.standin.example/p1/r1-small.jpg');
    });

    it('cuts a title without splitting a surrogate pair', async () => {
      handler = () => ({ json: { results: [{ url: 'https://standin.example/e', title: 'x'.repeat(499) + '😀😀' }] } });
      const [hit] = await engine().search('owner', query());
      assert.equal(hit?.title, 'x'.repeat(499));
    });
  });

  describe('failures', () => {
    const cases: Array<[SearxngStandinFault, RegExp]> = [
      ['forbidden', /403.*json.*search\.formats.*settings\.yml/],
      ['server-error', /HTTP 500/],
      ['not-json', /not JSON/],
      ['no-results', /without a results array/],
      ['redirect', /redirect \(302\).*not followed/],
      ['reset', /closed the connection|could not be reached/],
    ];
    for (const [fault, message] of cases) {
      it(`${fault}: unavailable`, async () => {
        searx.setMode({ fault });
        const err = await engineError(engine().search('owner', query()));
        assert.equal(err.kind, 'unavailable');
        assert.match(err.message, message);
      });
    }

    it('a format the instance has not enabled (its real 403) is explained', async () => {
      handler = () => ({ status: 403, contentType: 'text/html', text: 'Forbidden' });
      const err = await engineError(engine().search('owner', query()));
      assert.equal(err.kind, 'unavailable');
      assert.match(err.message, /search\.formats/);
    });

    it('a refused connection: unavailable, saying so', async () => {
      const port = await refusedPort();
      const err = await engineError(engine({ baseUrl: `http://127.0.0.1:${port}/` }).search('owner', query()));
      assert.equal(err.kind, 'unavailable');
      assert.match(err.message, /refused the connection/);
      assert.doesNotMatch(err.message, new RegExp(String(port)));
    });

    it('a host name that does not resolve: unavailable', async () => {
      const err = await engineError(engine({ baseUrl: 'http://searxng.invalid/' }).search('owner', query()));
      assert.equal(err.kind, 'unavailable');
      assert.match(err.message, /could not be resolved \((ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NONAME)\)/);
    });

    it('a body over maxResponseBytes is cut off: unavailable, promptly', async () => {
      searx.setMode({ fault: 'huge', hugeBytes: 50 * 1024 * 1024 });
      const err = await engineError(engine({ maxResponseBytes: 100_000 }).search('owner', query()), 3_000);
      assert.equal(err.kind, 'unavailable');
      assert.match(err.message, /more than 100000 bytes/);
    });

    it('a declared Content-Length over the cap fails before the body is read', async () => {
      handler = () => ({
        contentType: 'application/json',
        text: JSON.stringify({ results: [], pad: 'x'.repeat(200_000) }),
      });
      const err = await engineError(engine({ maxResponseBytes: 100_000 }).search('owner', query()));
      assert.match(err.message, /more than 100000 bytes/);
    });

    it('the default cap lets a normal page through and stops 6 MB', async () => {
      const e = engine();
      assert.equal((await e.search('owner', query())).length, 10);
      searx.setMode({ fault: 'huge' });
      const err = await engineError(e.search('owner', query()));
      assert.match(err.message, /more than 5242880 bytes/);
    });

    it('an instance that never answers: timeout, within about timeoutMs', async () => {
      searx.setMode({ fault: 'hang' });
      const started = Date.now();
      const err = await engineError(engine({ timeoutMs: 300 }).search('owner', query()), 2_000);
      assert.equal(err.kind, 'timeout');
      assert.match(err.message, /did not answer within 300 ms/);
      assert.ok(Date.now() - started >= 250, 'not before the deadline');
    });

    it('timeoutMs covers all pages together, not each page', async () => {
      // Each page takes 150 ms: one fits in 400 ms, three do not; the search ends with what came in time.
      searx.setMode({ delayMs: 150 });
      const started = Date.now();
      const hits = await engine({ timeoutMs: 400 }).search('owner', query({ limit: 50, pages: 5 }));
      assert.ok(Date.now() - started < 1_000);
      assert.ok(hits.length === 10 || hits.length === 20, `got ${hits.length} hits`);
      assert.ok(searx.requests.length < 5);
    });

    it('page 1 empty while its upstream engines failed: unavailable, naming them', async () => {
      searx.setMode({
        totalPages: 0,
        unresponsive: [
          ['google', 'CAPTCHA'],
          ['bing', 'timeout'],
        ],
      });
      const err = await engineError(engine().search('owner', query()));
      assert.equal(err.kind, 'unavailable');
      assert.match(err.message, /google \(CAPTCHA\), bing \(timeout\)/);
    });

    it('results despite some failed upstream engines are an answer', async () => {
      searx.setMode({ unresponsive: [['google', 'CAPTCHA']] });
      assert.equal((await engine().search('owner', query())).length, 10);
    });

    it('a closed engine fails as unavailable', async () => {
      const e = engine();
      await e.close();
      const err = await engineError(e.search('owner', query()));
      assert.equal(err.kind, 'unavailable');
    });
  });

  describe('a later page failing', () => {
    for (const fault of ['server-error', 'not-json', 'reset'] as const) {
      it(`${fault} on page 2: page 1's hits`, async () => {
        searx.setMode({ fault, fromPage: 2 });
        const hits = await engine().search('owner', query({ limit: 30, pages: 3 }));
        assert.deepEqual(urls(hits), range(1, 1, 10));
        assert.equal(searx.requests.length, 2, 'page 3 is not asked for');
      });
    }

    it('page 2 hanging past the deadline: page 1 hits, when the deadline passes', async () => {
      searx.setMode({ fault: 'hang', fromPage: 2 });
      const started = Date.now();
      const hits = await engine({ timeoutMs: 400 }).search('owner', query({ limit: 30, pages: 3 }));
      assert.deepEqual(urls(hits), range(1, 1, 10));
      const elapsed = Date.now() - started;
      assert.ok(elapsed >= 350 && elapsed < 2_000, `took ${elapsed} ms`);
    });

    it('the offset is applied to what was collected', async () => {
      searx.setMode({ fault: 'server-error', fromPage: 2 });
      const hits = await engine().search('owner', query({ offset: 5, limit: 30, pages: 3 }));
      assert.deepEqual(urls(hits), range(1, 6, 10));
    });
  });

  describe("the caller's signal", () => {
    it('an abort while waiting rejects with the AbortError itself, promptly', async () => {
      searx.setMode({ fault: 'hang' });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const err = await rejection(engine().search('owner', query(), controller.signal), 2_000);
      assert.ok(!(err instanceof SearchEngineError));
      assert.equal((err as Error).name, 'AbortError');
    });

    it('an abort during page 2 is not turned into page 1 hits', async () => {
      searx.setMode({ fault: 'hang', fromPage: 2 });
      const controller = new AbortController();
      handler = (request) => {
        if (request.pageno === 2) setTimeout(() => controller.abort(), 20);
        return undefined;
      };
      const err = await rejection(engine().search('owner', query({ limit: 30, pages: 3 }), controller.signal), 2_000);
      assert.equal((err as Error).name, 'AbortError');
      assert.equal(searx.requests.length, 2);
    });

    it('an already aborted signal sends nothing', async () => {
      const err = await rejection(engine().search('owner', query(), AbortSignal.abort()));
      assert.equal((err as Error).name, 'AbortError');
      assert.equal(searx.requests.length, 0);
    });

    it('an abort reason of its own is rethrown as is', async () => {
      searx.setMode({ fault: 'hang' });
      const reason = new Error('client went away');
      const controller = new AbortController();
      setTimeout(() => controller.abort(reason), 30);
      assert.equal(await rejection(engine().search('owner', query(), controller.signal), 2_000), reason);
    });
  });

  it("is named 'searxng'", () => {
    assert.equal(engine().name, 'searxng');
  });
});
