// What a person or a program finds at the service's root, and the public API reference.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('the root page and the public reference', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t.close();
  });

  it('shows a browser a page naming the service and its version, linking the docs, and saying how to get a key, without a key', async () => {
    const res = await t.request('GET', '/', { key: null, headers: { accept: BROWSER_ACCEPT } });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
    assert.match(res.body, /<title>crawlservice /);
    assert.ok(res.body.includes(version), 'the version');
    for (const link of ['href="/docs"', 'href="/v1/openapi.json"', 'href="/health"'])
      assert.ok(res.body.includes(link), link);
    assert.match(res.body, /Authorization: Bearer &#60;API key&#62;/);
    assert.match(res.body, /keys create/);
    // Every link it shows answers without a key.
    for (const [, href] of res.body.matchAll(/href="([^"]+)"/g)) {
      const linked = await t.request('GET', href as string, { key: null });
      assert.ok(linked.statusCode === 200 || linked.statusCode === 302, `${href} -> ${linked.statusCode}`);
    }
  });

  it('answers a program (curl, an SDK) with the same facts as JSON', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'text/html;q=0.5, application/json']) {
      const res = await t.request('GET', '/', { key: null, headers: accept === undefined ? {} : { accept } });
      assert.equal(res.statusCode, 200, String(accept));
      assert.match(String(res.headers['content-type']), /^application\/json/, String(accept));
      const body = res.json() as { success: boolean; name: string; version: string; links: Record<string, string> };
      assert.equal(body.success, true);
      assert.equal(body.name, 'crawlservice');
      assert.equal(body.version, version);
      assert.deepEqual(body.links, { docs: '/docs', openapi: '/v1/openapi.json', health: '/health' });
    }
  });

  it('serves the same OpenAPI document at /v1/openapi.json and /docs/json, both without a key, listing /health', async () => {
    const v1 = await t.request('GET', '/v1/openapi.json', { key: null });
    const docs = await t.request('GET', '/docs/json', { key: null });
    assert.equal(v1.statusCode, 200);
    assert.equal(docs.statusCode, 200);
    assert.deepEqual(v1.json(), docs.json());
    const doc = v1.json() as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    for (const path of ['/health', '/health/live']) {
      assert.ok(doc.paths[path]?.get, `${path} listed`);
      assert.deepEqual(doc.paths[path]?.get?.security, [], `${path} needs no key`);
    }
    assert.equal(
      doc.paths['/v1/scrape']?.post?.security,
      undefined,
      'the API routes keep the document-wide key requirement',
    );
  });
});
