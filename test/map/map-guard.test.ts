// POST /v1/map on a guarded deployment (ALLOW_LOCAL_TARGETS=false): every sitemap fetch goes through the address
// guard, so a sitemap that redirects to a private address is skipped, and a private start URL fails the map.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readEvents } from '../../src/events/outbox.js';
import { html, type MapSite, sitemapIndex, startMapSite, urlset, xml } from '../fixtures/map-site.js';
import { startProxy, type TestProxy } from '../fixtures/proxy-server.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

/** A public address; the operator's proxy (OUTBOUND_PROXY, which may be private) routes it to the local site. */
const PUBLIC_IP = '93.184.216.34';
const PUBLIC = `http://${PUBLIC_IP}`;

describe('POST /v1/map behind the address guard', () => {
  let site: MapSite;
  let proxy: TestProxy;
  let t: TestApp;
  before(async () => {
    site = await startMapSite({
      '/robots.txt': (s) => ({
        body: [
          `Sitemap: ${PUBLIC}/redirect.xml`,
          `Sitemap: ${s.url}/local.xml`,
          `Sitemap: ${PUBLIC}/index.xml`,
          `Sitemap: ${PUBLIC}/good.xml`,
        ].join('\n'),
      }),
      '/redirect.xml': (s) => ({ redirect: `${s.url}/local.xml` }),
      '/index.xml': (s) => xml(sitemapIndex([`${s.url}/local.xml`, 'http://169.254.169.254/latest/meta-data/'])),
      '/local.xml': () => xml(urlset([`${PUBLIC}/private-1`, `${PUBLIC}/private-2`])),
      '/good.xml': () => xml(urlset([`${PUBLIC}/g1`, `${PUBLIC}/g2`])),
      '/': html('Public home', ['/h1']),
    });
    proxy = await startProxy({ routes: { [PUBLIC_IP]: `127.0.0.1:${site.port}` } });
    t = await startTestApp({ env: { ALLOW_LOCAL_TARGETS: 'false', OUTBOUND_PROXY: proxy.url } });
  });
  after(async () => {
    await t.close();
    await proxy.close();
    await site.close();
  });

  it('skips sitemaps that are, or redirect to, private addresses, and returns the rest', async () => {
    const res = await t.request('POST', '/v1/map', { body: { url: `${PUBLIC}/` } });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(
      (body.data as Array<{ url: string }>).map((l) => l.url),
      [`${PUBLIC}/g1`, `${PUBLIC}/g2`, `${PUBLIC}/`, `${PUBLIC}/h1`],
    );
    // redirect.xml (its hop to 127.0.0.1), local.xml (named by robots.txt and again by the index: skipped, once
    // read), the metadata address; index.xml and good.xml are read.
    assert.deepEqual(body.sources.sitemaps, { read: 2, failed: 3, skipped: 1, urls: 2 });
    assert.equal(site.hits.get('/local.xml'), undefined, 'the private sitemap was never fetched');
    assert.ok(!proxy.forwarded.some((u) => u.includes('169.254.169.254')));
  });

  it('fails with BLOCKED_ADDRESS when the start URL is private, fetching nothing', async () => {
    const hits = [...site.hits.values()].reduce((a, b) => a + b, 0);
    const res = await t.request('POST', '/v1/map', { body: { url: `${site.url}/` } });
    assert.equal(res.statusCode, 400, res.body);
    const body = res.json();
    assert.equal(body.code, 'BLOCKED_ADDRESS');
    assert.equal(body.error, 'Blocked address');
    assert.equal(body.data.status, 'failed');
    assert.equal(
      [...site.hits.values()].reduce((a, b) => a + b, 0),
      hits,
    );
    const events = await readEvents(t.app.db.kysely, { subjectId: body.data.job_id });
    assert.deepEqual(
      events.map((e) => e.type),
      ['map.created', 'map.started', 'map.failed'],
    );
    assert.equal(events[2]!.payload.error_code, 'BLOCKED_ADDRESS');
  });
});
