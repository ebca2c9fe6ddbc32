// POST /v1/map end to end: local sites on port 0 with robots.txt, sitemaps (indexes, gzip, loops, malformed ones),
// the real fetcher and extractor, the job and its events.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { readEvents } from '../../src/events/outbox.js';
import type { Resolver } from '../../src/net/address-guard.js';
import { gzipped, html, type MapSite, sitemapIndex, startMapSite, urlset, xml } from '../fixtures/map-site.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

interface MapBody {
  success: boolean;
  data: Array<{ url: string; title?: string; description?: string }>;
  job_id: string;
  sources: {
    sitemaps: { read: number; failed: number; skipped: number; urls: number; capped?: string };
    start_page: { status_code: number; urls: number } | { error: { code: string } };
    index?: { urls: number };
  };
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `site.test` and its subdomains lead to the loopback fixture. */
const resolve: Resolver = async (host) => {
  if (host === 'site.test' || host.endsWith('.site.test')) return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

describe('POST /v1/map', () => {
  let t: TestApp;
  let site: MapSite;
  before(async () => {
    t = await startTestApp({ resolve });
    site = await startMapSite({
      '/robots.txt': (s) => ({ body: `User-agent: *\nDisallow: /private\nSitemap: ${s.url}/sitemap-index.xml\n` }),
      '/sitemap-index.xml': (s) =>
        xml(
          sitemapIndex([
            `${s.url}/posts.xml`,
            `${s.url}/pages.xml.gz`,
            `${s.url}/more.xml`,
            `${s.url}/sitemap-index.xml`,
          ]),
        ),
      '/posts.xml': (s) => xml(urlset([`${s.url}/posts/1`, `${s.url}/posts/2#top`, `${s.url}/posts/%7e3`])),
      '/pages.xml.gz': (s) => gzipped(urlset([`${s.url}/about`, `${s.url}/posts/1`, 'https://elsewhere.example/x'])),
      '/more.xml': (s) => xml(urlset([`${s.url}/more/a?x=1&y=2`])),
      '/': html('Home page', ['/contact', '/about', 'mailto:a@b.c', 'https://elsewhere.example/'], 'The home'),
    });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const map = (body: Record<string, unknown>, key?: string) =>
    t.request('POST', '/v1/map', { body, ...(key ? { key } : {}) });

  it('merges the sitemaps of robots.txt (an index of three, one gzipped, naming itself) and the start page', async () => {
    const res = await map({ url: `${site.url}/` });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as MapBody;
    assert.equal(body.success, true);
    const u = site.url;
    assert.deepEqual(
      body.data.map((l) => l.url),
      [`${u}/posts/1`, `${u}/posts/2`, `${u}/posts/~3`, `${u}/about`, `${u}/more/a?x=1&y=2`, `${u}/`, `${u}/contact`],
    );
    assert.deepEqual(body.data[5], { url: `${u}/`, title: 'Home page', description: 'The home' });
    assert.deepEqual(body.sources.sitemaps, { read: 4, failed: 0, skipped: 1, urls: 5 });
    assert.deepEqual(body.sources.start_page, { status_code: 200, urls: 2 });
    assert.equal(site.hits.get('/sitemap-index.xml'), 1, 'the index that names itself is read once');
    assert.equal(site.hits.get('/sitemap.xml'), undefined, 'robots.txt named the sitemaps');

    const events = await readEvents(t.app.db.kysely, { subjectId: body.job_id });
    assert.deepEqual(
      events.map((e) => e.type),
      ['map.created', 'map.started', 'map.completed'],
    );
    const completed = events[2]!.payload;
    assert.equal(completed.job_id, body.job_id);
    assert.equal(completed.status, 'completed');
    assert.equal(completed.url, `${u}/`);
    assert.equal(completed.total, 7);
    assert.equal(typeof completed.created_at, 'string');
    assert.equal(typeof completed.completed_at, 'string');
    const job = await t.app.db.kysely.selectFrom('jobs').selectAll().where('id', '=', body.job_id).executeTakeFirst();
    assert.equal(job?.kind, 'map');
    assert.equal(job?.status, 'completed');
  });

  it('cuts the links at limit, in source order', async () => {
    const res = await map({ url: `${site.url}/`, limit: 2 });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      (res.json() as MapBody).data.map((l) => l.url),
      [`${site.url}/posts/1`, `${site.url}/posts/2`],
    );
  });

  it('skips the sitemaps with ignore_sitemap', async () => {
    const before = site.hits.get('/robots.txt') ?? 0;
    const indexHits = site.hits.get('/sitemap-index.xml') ?? 0;
    const res = await map({ url: `${site.url}/`, ignore_sitemap: true, max_age: 0 });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as MapBody;
    assert.deepEqual(
      body.data.map((l) => l.url),
      [`${site.url}/`, `${site.url}/contact`, `${site.url}/about`],
    );
    assert.deepEqual(body.sources.sitemaps, { skipped: 'ignore_sitemap' });
    assert.equal(site.hits.get('/sitemap-index.xml') ?? 0, indexHits);
    assert.equal(site.hits.get('/robots.txt') ?? 0, before);
  });

  it('reads the start page from the page cache within max_age, and fetches it with max_age 0', async () => {
    const hits = () => site.hits.get('/') ?? 0;
    await map({ url: `${site.url}/`, ignore_sitemap: true, max_age: 0 });
    const fetched = hits();
    await map({ url: `${site.url}/`, ignore_sitemap: true, max_age: 60_000 });
    assert.equal(hits(), fetched, 'served from the cache');
    await map({ url: `${site.url}/`, ignore_sitemap: true, max_age: 0 });
    assert.equal(hits(), fetched + 1);
  });

  it('skips a malformed sitemap and a missing one, and returns the rest', async () => {
    const other = await startMapSite({
      '/robots.txt': (s) => ({
        body: [
          `Sitemap: ${s.url}/broken.xml`,
          `Sitemap: ${s.url}/html.xml`,
          `Sitemap: ${s.url}/missing.xml`,
          `Sitemap: ${s.url}/bad.xml.gz`,
          `Sitemap: ${s.url}/good.xml`,
          `Sitemap: ${s.url}/list.txt`,
        ].join('\n'),
      }),
      '/broken.xml': () => xml('<urlset><url><loc>http://x</loc><<<>>> &&& <url'),
      '/html.xml': () => html('Not a sitemap', ['/nope']),
      '/bad.xml.gz': () => ({ contentType: 'application/gzip', body: Buffer.from([0x1f, 0x8b, 1, 2, 3, 4, 5, 6]) }),
      '/good.xml': (s) => xml(urlset([`${s.url}/g1`, `${s.url}/g2`])),
      '/list.txt': (s) => ({ body: `${s.url}/t1\r\nnot a url\n\n${s.url}/t2` }),
      '/': html('Other', []),
    });
    try {
      const res = await map({ url: `${other.url}/` });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as MapBody;
      assert.deepEqual(
        body.data.map((l) => l.url),
        [`${other.url}/g1`, `${other.url}/g2`, `${other.url}/t1`, `${other.url}/t2`, `${other.url}/`],
      );
      // broken.xml is a urlset whose one <loc> is out of scope: read, with nothing in it.
      assert.deepEqual(body.sources.sitemaps, { read: 3, failed: 3, skipped: 0, urls: 4 });
      const events = await readEvents(t.app.db.kysely, { subjectId: body.job_id });
      assert.equal(events.at(-1)?.payload.failed, 3);
    } finally {
      await other.close();
    }
  });

  it('falls back to /sitemap.xml without robots.txt, and follows nested indexes to the depth cap only', async () => {
    // A chain of indexes: /sitemap.xml -> /i1.xml -> ... -> /i7.xml, each with one URL of its own level below.
    const routes: Record<string, (s: MapSite) => ReturnType<typeof xml>> = {
      '/sitemap.xml': (s) => xml(sitemapIndex([`${s.url}/i1.xml`, `${s.url}/u0.xml`])),
    };
    for (let i = 1; i <= 7; i++) {
      routes[`/i${i}.xml`] = (s) => xml(sitemapIndex([`${s.url}/i${i + 1}.xml`, `${s.url}/u${i}.xml`]));
      routes[`/u${i - 1}.xml`] = (s) => xml(urlset([`${s.url}/level${i - 1}`]));
    }
    const deep = await startMapSite({ ...routes, '/': html('Deep', []) });
    try {
      const res = await map({ url: `${deep.url}/` });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as MapBody;
      // Depth 0 is /sitemap.xml; urlsets down to depth 5 are read (u0..u4), /i5.xml at depth 5 names depth 6.
      assert.deepEqual(
        body.data.map((l) => l.url),
        [0, 1, 2, 3, 4].map((i) => `${deep.url}/level${i}`).concat(`${deep.url}/`),
      );
      assert.equal(deep.hits.get('/i6.xml'), undefined);
      assert.equal(body.sources.sitemaps.skipped, 2);
    } finally {
      await deep.close();
    }
  });

  it('fetches at most 100 sitemaps a call, and says the cap stopped it', async () => {
    const many = await startMapSite({ '/': html('Many', []) });
    const names = Array.from({ length: 120 }, (_, i) => `/m${i}.xml`);
    for (const [i, name] of names.entries()) many.routes.set(name, xml(urlset([`${many.url}/m/${i}`])));
    many.routes.set('/sitemap.xml', xml(sitemapIndex(names.map((n) => `${many.url}${n}`))));
    try {
      const res = await map({ url: `${many.url}/` });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as MapBody;
      // /sitemap.xml is the first of the 100.
      assert.deepEqual(body.sources.sitemaps, { read: 100, failed: 0, skipped: 21, urls: 99, capped: 'sitemaps' });
      assert.equal(body.data.length, 100);
      assert.equal(names.filter((n) => many.hits.has(n)).length, 99);
    } finally {
      await many.close();
    }
  });

  it('keeps to the start host, or to its registrable domain with include_subdomains', async () => {
    const named = await startMapSite({
      '/robots.txt': () => ({ body: '' }),
      '/sitemap.xml': (s) =>
        xml(
          urlset([
            `http://site.test:${s.port}/a`,
            `https://site.test/b`,
            `http://blog.site.test:${s.port}/c`,
            `http://deep.blog.site.test/d`,
            `http://notsite.test/e`,
            `http://site.test.evil.example/f`,
            'ftp://site.test/g',
          ]),
        ),
      '/': html('Named', []),
    });
    try {
      const start = `http://site.test:${named.port}/`;
      const same = await map({ url: start });
      assert.equal(same.statusCode, 200, same.body);
      assert.deepEqual(
        (same.json() as MapBody).data.map((l) => l.url),
        [`http://site.test:${named.port}/a`, 'https://site.test/b', start],
      );
      const subs = await map({ url: start, include_subdomains: true });
      assert.equal(subs.statusCode, 200, subs.body);
      assert.deepEqual(
        (subs.json() as MapBody).data.map((l) => l.url),
        [
          `http://site.test:${named.port}/a`,
          'https://site.test/b',
          `http://blog.site.test:${named.port}/c`,
          'http://deep.blog.site.test/d',
          start,
        ],
      );
    } finally {
      await named.close();
    }
  });

  it('answers 200 with the sitemaps when the start page cannot be had', async () => {
    const noHome = await startMapSite({
      '/robots.txt': (s) => ({ body: `Sitemap: ${s.url}/s.xml` }),
      '/s.xml': (s) => xml(urlset([`${s.url}/only`])),
      '/': { contentType: 'application/pdf', body: '%PDF-1.4' },
    });
    try {
      const res = await map({ url: `${noHome.url}/` });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as MapBody;
      assert.deepEqual(
        body.data.map((l) => l.url),
        [`${noHome.url}/only`],
      );
      assert.equal((body.sources.start_page as { error: { code: string } }).error.code, 'UNSUPPORTED_CONTENT_TYPE');
    } finally {
      await noHome.close();
    }
  });

  it('fails as a scrape does when the start page fails and nothing was found, with map.failed', async () => {
    const port = await closedPort();
    const res = await map({ url: `http://127.0.0.1:${port}/` });
    assert.equal(res.statusCode, 502, res.body);
    const body = res.json();
    assert.equal(body.success, false);
    assert.equal(body.code, 'CONNECTION_REFUSED');
    assert.equal(body.error, 'Connection refused');
    assert.equal(body.data.status, 'failed');
    assert.match(body.data.job_id, /^[0-9a-f-]{36}$/);
    const events = await readEvents(t.app.db.kysely, { subjectId: body.data.job_id });
    assert.deepEqual(
      events.map((e) => e.type),
      ['map.created', 'map.started', 'map.failed'],
    );
    assert.equal(events[2]!.payload.error_code, 'CONNECTION_REFUSED');
    assert.equal(typeof events[2]!.payload.error_message, 'string');

    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const slow = await map({ url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`, timeout: 500 });
      assert.equal(slow.statusCode, 504, slow.body);
      assert.equal(slow.json().code, 'TIMEOUT');
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });

  it('refuses invalid requests with the validation shape', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{}, 'url', 'invalid_type'],
      [{ url: 'ftp://example.com/' }, 'url', 'custom'],
      [{ url: '/relative' }, 'url', 'custom'],
      [{ url: 'https://example.com', limit: 0 }, 'limit', 'too_small'],
      [{ url: 'https://example.com', limit: 50_001 }, 'limit', 'too_big'],
      [{ url: 'https://example.com', limit: 1.5 }, 'limit', 'invalid_type'],
      [{ url: 'https://example.com', include_subdomains: 'yes' }, 'include_subdomains', 'invalid_type'],
      [{ url: 'https://example.com', max_age: -1 }, 'max_age', 'too_small'],
      [{ url: 'https://example.com', search: 'x' }, 'search', 'unrecognized_keys'],
    ];
    for (const [body, field, code] of cases) {
      const res = await map(body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      const json = res.json();
      assert.equal(json.error, 'Validation error');
      const issue = json.data.issues.find((i: { field: string }) => i.field === field);
      assert.ok(issue, `${JSON.stringify(body)}: ${res.body}`);
      assert.equal(issue.code, code, res.body);
    }
    const noKey = await t.request('POST', '/v1/map', { body: { url: 'https://example.com' }, key: null });
    assert.equal(noKey.statusCode, 401);
    const openapi = await t.request('GET', '/v1/openapi.json', { key: null });
    assert.ok(openapi.json().paths['/v1/map'].post, 'the route is in the OpenAPI document');
  });

  it('maps a 50,000-URL sitemap index within its bounds, and stops at the limit', async () => {
    const big = await startMapSite({ '/': html('Big', []) });
    const names: string[] = [];
    for (let i = 0; i < 60; i++) {
      const name = i % 3 === 0 ? `/s${i}.xml.gz` : `/s${i}.xml`;
      names.push(name);
      const urls = Array.from({ length: 1000 }, (_, j) => `${big.url}/p/${i}/${j}`);
      big.routes.set(name, i % 3 === 0 ? gzipped(urlset(urls)) : xml(urlset(urls)));
    }
    big.routes.set('/robots.txt', { body: `Sitemap: ${big.url}/index.xml` });
    big.routes.set('/index.xml', xml(sitemapIndex(names.map((n) => `${big.url}${n}`))));
    try {
      const res = await map({ url: `${big.url}/`, limit: 50_000 });
      assert.equal(res.statusCode, 200, res.body.slice(0, 500));
      const body = res.json() as MapBody;
      assert.equal(body.data.length, 50_000);
      assert.equal(new Set(body.data.map((l) => l.url)).size, 50_000);
      assert.equal(body.data[0]!.url, `${big.url}/p/0/0`);
      assert.equal(body.data[49_999]!.url, `${big.url}/p/49/999`);
      const fetched = names.filter((n) => big.hits.has(n)).length;
      assert.ok(fetched <= 50 + 4, `sitemaps fetched past the limit: ${fetched}`);
    } finally {
      await big.close();
    }
  });
});
