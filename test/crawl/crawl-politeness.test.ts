// Crawl politeness and retention: per-host concurrency, robots Crawl-delay, expiry of results.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, it } from 'node:test';
import { type FixturePage, startCrawlSite, waitForCrawl } from '../fixtures/crawl-site.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

const apps: TestApp[] = [];
after(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

it('keeps at most CRAWL_HOST_CONCURRENCY requests in flight per host', async () => {
  let active = 0;
  let peak = 0;
  const server = createServer((req, res) => {
    active++;
    peak = Math.max(peak, active);
    const path = req.url ?? '/';
    const links = path === '/' ? Array.from({ length: 12 }, (_, i) => `<a href="/p${i}">p${i}</a>`).join('') : '';
    setTimeout(() => {
      active--;
      res
        .writeHead(path === '/robots.txt' ? 404 : 200, { 'content-type': 'text/html' })
        .end(`<html><body><h1>${path}</h1><p>Some text for ${path}.</p>${links}</body></html>`);
    }, 40);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const t = await startTestApp({ env: { CRAWL_HOST_CONCURRENCY: '2', CRAWL_CONCURRENCY: '10' } });
  apps.push(t);
  try {
    const res = await t.request('POST', '/v1/crawl', { body: { url: `${url}/` } });
    const status = await waitForCrawl((u) => t.request('GET', u), res.json().data.job_id);
    assert.equal(status.completed, 13);
    assert.ok(peak <= 2, `peak ${peak}`);
    assert.equal(peak, 2, 'the limit is used, not undershot');
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

it('spaces requests to a host by its robots.txt Crawl-delay', async () => {
  const pages: Record<string, FixturePage> = { '/': { links: ['/a', '/b', '/c'] }, '/a': {}, '/b': {}, '/c': {} };
  const site = await startCrawlSite(pages, 'User-agent: *\nCrawl-delay: 0.3\n');
  const t = await startTestApp();
  apps.push(t);
  try {
    const started = Date.now();
    const res = await t.request('POST', '/v1/crawl', { body: { url: `${site.url}/` } });
    const status = await waitForCrawl((u) => t.request('GET', u), res.json().data.job_id);
    assert.equal(status.completed, 4);
    assert.ok(Date.now() - started >= 900, `4 pages 0.3 s apart take at least 0.9 s (took ${Date.now() - started} ms)`);
  } finally {
    await site.close();
  }
});

it('forgets a crawl after expires_at: its routes answer 404', async () => {
  let offsetMs = 0;
  const clock = () => new Date(Date.now() + offsetMs);
  const site = await startCrawlSite({ '/': {} });
  const t = await startTestApp({ clock, env: { JOB_RETENTION_MS: '3600000' } });
  apps.push(t);
  try {
    const res = await t.request('POST', '/v1/crawl', { body: { url: `${site.url}/` } });
    const jobId = res.json().data.job_id;
    const status = await waitForCrawl((u) => t.request('GET', u), jobId);
    const expiresAt = Date.parse(String(status.expires_at));
    assert.ok(Math.abs(expiresAt - (Date.now() + 3_600_000)) < 60_000, 'expires_at is retention after the end');
    offsetMs = 3_600_000 + 60_000;
    for (const path of [`/v1/crawl/${jobId}/status`, `/v1/crawl/${jobId}`]) {
      assert.equal((await t.request('GET', path)).statusCode, 404, path);
    }
    assert.equal(
      (await t.request('DELETE', `/v1/crawl/${jobId}`)).statusCode,
      404,
      'an expired job is gone for every verb',
    );
  } finally {
    await site.close();
  }
});
