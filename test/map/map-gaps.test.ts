// POST /v1/map behaviours map-api.test.ts leaves out: a sitemap gzipped by Content-Encoding, the byte and entry caps
// of MAP_LIMITS reached end to end (the count cap is there already), and the map.* events delivered to a webhook.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createGzip, gzipSync } from 'node:zlib';
import { MAP_LIMITS } from '../../src/map/schema.js';
import { html, type MapRoute, type MapSite, startMapSite, urlset, xml } from '../fixtures/map-site.js';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

interface MapBody {
  success: boolean;
  data: Array<{ url: string; title?: string }>;
  job_id: string;
  sources: {
    sitemaps: { read: number; failed: number; skipped: number; urls: number; capped?: string };
    start_page: { status_code: number; urls: number } | { error: { code: string } };
  };
}

const MIB = 1024 * 1024;

/**
 * A gzip stream of `parts`, a `{ padMiB }` part being that many MiB of spaces: it is fed 1 MiB at a time, so a body
 * of tens of MiB decompressed costs the test its compressed size (about 1 KiB a MiB), never the whole of it.
 */
async function gzipStream(parts: ReadonlyArray<string | { padMiB: number }>): Promise<Buffer> {
  const gzip = createGzip();
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    gzip.once('end', () => resolve());
    gzip.once('error', reject);
  });
  const spaces = Buffer.alloc(MIB, ' ');
  const write = async (chunk: string | Buffer): Promise<void> => {
    if (!gzip.write(chunk)) await new Promise<void>((resolve) => gzip.once('drain', () => resolve()));
  };
  for (const part of parts) {
    if (typeof part === 'string') await write(part);
    else for (let i = 0; i < part.padMiB; i++) await write(spaces);
  }
  gzip.end();
  await ended;
  return Buffer.concat(out);
}

const gzipFile = (body: Buffer): MapRoute => ({ contentType: 'application/gzip', body });
const entry = (url: string) => `<url><loc>${url}</loc></url>`;

describe('POST /v1/map: what map-api.test.ts does not reach', () => {
  let t: TestApp;
  // Every test has a site of its own: robots.txt is cached per origin, so a new port is a new robots.txt.
  const sites: MapSite[] = [];
  before(async () => {
    t = await startTestApp({ env: { ALLOW_LOCAL_WEBHOOKS: 'true', WEBHOOK_POLL_MS: '10' } });
  });
  after(async () => {
    await t.close();
    await Promise.all(sites.map((s) => s.close()));
  });

  async function site(routes: Parameters<typeof startMapSite>[0]): Promise<MapSite> {
    const s = await startMapSite(routes);
    sites.push(s);
    return s;
  }
  async function map(body: Record<string, unknown>): Promise<MapBody> {
    const res = await t.request('POST', '/v1/map', { body });
    assert.equal(res.statusCode, 200, res.body.slice(0, 1000));
    return res.json() as MapBody;
  }
  const urlsOf = (body: MapBody) => body.data.map((l) => l.url);

  it('reads a sitemap gzipped by Content-Encoding (not a .gz file), and a .gz file sent with Content-Encoding too', async () => {
    const s = await site({ '/': html('Home', []) });
    // Enough URLs for the compressed body to come in several chunks through the decoder.
    const pages = Array.from({ length: 3000 }, (_, i) => `${s.url}/enc/${i}`);
    const twice = [`${s.url}/twice/a`, `${s.url}/twice/b`];
    s.routes.set('/robots.txt', { body: `Sitemap: ${s.url}/encoded.xml\nSitemap: ${s.url}/twice.xml.gz\n` });
    s.routes.set('/encoded.xml', {
      contentType: 'application/xml',
      headers: { 'content-encoding': 'gzip' },
      body: gzipSync(urlset(pages)),
    });
    // A common server mistake: a gzip file compressed again on the way. Two layers, each undone where it belongs
    // (the fetcher undoes Content-Encoding, the reader a gzip body told by its bytes).
    s.routes.set('/twice.xml.gz', {
      contentType: 'application/gzip',
      headers: { 'content-encoding': 'gzip' },
      body: gzipSync(gzipSync(urlset(twice))),
    });
    const body = await map({ url: `${s.url}/`, limit: 10_000 });
    assert.deepEqual(urlsOf(body), [...pages, ...twice, `${s.url}/`]);
    assert.deepEqual(body.sources.sitemaps, { read: 2, failed: 0, skipped: 0, urls: 3002 });
  });

  it('stops at the call-wide byte cap (100 MiB decompressed) and answers 200 with what was merged, capped "bytes"', async () => {
    // Three gzip files of 40 MiB each, read four at a time: together past the call's budget, each under the
    // per-sitemap cap. The first sitemap's first URL is merged as it is read, before any cap can stop it.
    const padMiB = 40;
    assert.ok(padMiB * MIB < MAP_LIMITS.sitemapBytes && 3 * padMiB * MIB > MAP_LIMITS.totalSitemapBytes);
    const s = await site({ '/': html('Home', ['/from-home']) });
    const names = ['/b0.xml.gz', '/b1.xml.gz', '/b2.xml.gz'];
    for (const [i, name] of names.entries()) {
      const body = await gzipStream([
        `<?xml version="1.0"?><urlset>${entry(`${s.url}/b${i}-first`)}`,
        { padMiB },
        `${entry(`${s.url}/b${i}-last`)}</urlset>`,
      ]);
      s.routes.set(name, gzipFile(body));
    }
    s.routes.set('/robots.txt', { body: names.map((n) => `Sitemap: ${s.url}${n}`).join('\n') });
    const started = Date.now();
    const body = await map({ url: `${s.url}/` });
    assert.equal(body.sources.sitemaps.capped, 'bytes', JSON.stringify(body.sources));
    const urls = urlsOf(body);
    assert.equal(urls[0], `${s.url}/b0-first`);
    // 120 MiB do not fit in 100: at least one sitemap was cut before its last URL.
    assert.ok(
      names.some((_, i) => !urls.includes(`${s.url}/b${i}-last`)),
      JSON.stringify(urls),
    );
    // The start page is still read and merged after a cap.
    assert.deepEqual(urls.slice(-2), [`${s.url}/`, `${s.url}/from-home`]);
    assert.ok(Date.now() - started < 10_000, `the capped map took ${Date.now() - started} ms`);
  });

  it('stops at the call-wide entry cap (500,000 <loc>, duplicates counted) with capped "entries"', async () => {
    // Ten sitemaps of 50,000 <loc> (the per-sitemap maximum) are exactly the call's 500,000; an eleventh adds one
    // more. Each sitemap is one URL repeated, then a tail URL of its own, so the answer stays small.
    const perSitemap = MAP_LIMITS.sitemapEntries;
    const full = MAP_LIMITS.sitemapEntriesPerCall / perSitemap;
    assert.equal(full, 10);
    const s = await site({ '/': html('Home', []) });
    const dup = entry(`${s.url}/dup`);
    const names: string[] = [];
    for (let i = 0; i <= full; i++) {
      const name = `/e${i}.xml.gz`;
      names.push(name);
      const repeats = i < full ? perSitemap - 1 : 0;
      s.routes.set(name, gzipFile(gzipSync(`<urlset>${dup.repeat(repeats)}${entry(`${s.url}/tail-${i}`)}</urlset>`)));
    }
    s.routes.set('/robots.txt', { body: names.map((n) => `Sitemap: ${s.url}${n}`).join('\n') });
    const body = await map({ url: `${s.url}/` });
    assert.equal(body.sources.sitemaps.capped, 'entries', JSON.stringify(body.sources));
    const urls = urlsOf(body);
    // The cap needs the eleventh sitemap started, which (four at a time, merged in order) waits until the first
    // seven are merged whole.
    for (let i = 0; i <= 6; i++) assert.ok(urls.includes(`${s.url}/tail-${i}`), `tail-${i} in ${urls.join(' ')}`);
    assert.ok(
      !urls.includes(`${s.url}/tail-${full}`),
      'the eleventh sitemap is never merged: the cap stops the reading first',
    );
    assert.equal(urls[0], `${s.url}/dup`);
    assert.equal(urls.at(-1), `${s.url}/`);
  });

  // A sitemap's own caps are named as the call's are (the answer had no `capped` for them: URLs were lost silently).
  it('says capped "entries" when one sitemap passes its own 50,000 <loc>; the other sitemaps are still read', async () => {
    const s = await site({ '/': html('Home', []) });
    const repeats = MAP_LIMITS.sitemapEntries - 1;
    s.routes.set('/robots.txt', { body: `Sitemap: ${s.url}/one.xml\nSitemap: ${s.url}/two.xml\n` });
    s.routes.set(
      '/one.xml',
      xml(
        `<urlset>${entry(`${s.url}/first`)}${entry(`${s.url}/dup`).repeat(repeats)}${entry(`${s.url}/over`)}</urlset>`,
      ),
    );
    s.routes.set('/two.xml', xml(`<urlset>${entry(`${s.url}/second`)}</urlset>`));
    const body = await map({ url: `${s.url}/` });
    const urls = urlsOf(body);
    assert.ok(!urls.includes(`${s.url}/over`), 'the 50,001st <loc> is not read');
    // A sitemap's own cap stops that sitemap alone (it once aborted every other one).
    assert.deepEqual(
      [...urls].sort(),
      [`${s.url}/`, `${s.url}/dup`, `${s.url}/first`, `${s.url}/second`],
      JSON.stringify(body.sources),
    );
    assert.equal(body.sources.sitemaps.capped, 'entries', JSON.stringify(body.sources));
    assert.equal(body.sources.sitemaps.read, 2, JSON.stringify(body.sources));
  });

  it('says capped "bytes" when one sitemap passes its own 50 MiB', async () => {
    const s = await site({ '/': html('Home', []) });
    const padMiB = MAP_LIMITS.sitemapBytes / MIB + 1;
    const body = await gzipStream([
      `<urlset>${entry(`${s.url}/first`)}`,
      { padMiB },
      `${entry(`${s.url}/over`)}</urlset>`,
    ]);
    s.routes.set('/robots.txt', { body: `Sitemap: ${s.url}/huge.xml.gz\n` });
    s.routes.set('/huge.xml.gz', gzipFile(body));
    const answer = await map({ url: `${s.url}/` });
    assert.deepEqual(urlsOf(answer), [`${s.url}/first`, `${s.url}/`], 'what follows the 50 MiB is not read');
    assert.equal(answer.sources.sitemaps.capped, 'bytes', JSON.stringify(answer.sources));
  });

  it('delivers map.completed and map.failed to a webhook subscription, signed, with the job id', async () => {
    const receiver: Receiver = await startReceiver();
    try {
      const created = await t.request('POST', '/v1/webhooks', {
        body: { name: 'maps', webhook_url: `${receiver.url}/maps`, event_types: ['map.completed', 'map.failed'] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const { secret } = created.json().data as { secret: string };

      const ok = await site({
        '/robots.txt': (s) => ({ body: `Sitemap: ${s.url}/s.xml\n` }),
        '/s.xml': (s) => xml(urlset([`${s.url}/a`, `${s.url}/b`])),
        '/': html('Home', []),
      });
      const completed = await map({ url: `${ok.url}/` });
      // No sitemap (404) and a start page that cannot be had: the map fails as a scrape of it would.
      const bad = await site({ '/': { contentType: 'application/pdf', body: '%PDF-1.4' } });
      const failedRes = await t.request('POST', '/v1/map', { body: { url: `${bad.url}/` } });
      assert.equal(failedRes.statusCode, 400, failedRes.body);
      const failedJob = failedRes.json().data.job_id as string;

      // Filtered by job: the subscription may also be handed events of this file's earlier maps.
      const ours = () =>
        receiver.requests.filter((r) => [completed.job_id, failedJob].includes(JSON.parse(r.body).job_id as string));
      await until('both map deliveries', async () => (ours().length >= 2 ? true : undefined));
      // A moment more, so that a duplicate would be seen.
      await new Promise((r) => setTimeout(r, 200));
      const deliveries = ours();
      assert.equal(deliveries.length, 2, deliveries.map((d) => d.body).join('\n'));
      const byType = new Map(deliveries.map((d) => [d.headers['x-webhook-event'], d]));

      const done = byType.get('map.completed');
      assert.ok(done, 'map.completed delivered');
      assert.equal(done.path, '/maps');
      const donePayload = JSON.parse(done.body);
      assert.equal(donePayload.job_id, completed.job_id);
      assert.equal(donePayload.status, 'completed');
      assert.equal(donePayload.url, `${ok.url}/`);
      assert.equal(donePayload.total, 3);
      assert.equal(donePayload.credits_used, 1);
      assert.equal(
        done.headers['x-service-signature'],
        `sha256=${createHmac('sha256', secret).update(done.rawBody).digest('hex')}`,
      );

      const failed = byType.get('map.failed');
      assert.ok(failed, 'map.failed delivered');
      const failedPayload = JSON.parse(failed.body);
      assert.equal(failedPayload.job_id, failedJob);
      assert.equal(failedPayload.status, 'failed');
      assert.equal(failedPayload.error_code, 'UNSUPPORTED_CONTENT_TYPE');
      assert.equal(failedPayload.credits_used, 0);
      assert.equal(bad.hits.get('/sitemap.xml'), 1, 'the sitemap was looked for');
    } finally {
      await receiver.close();
    }
  });
});
