// Issue 12 item 8: authentication is decided on the route the router dispatches to, so no spelling
// of a path (percent-encoding, dot segments, case, slashes, parameters) reaches a route without a key.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rawGet, rawRequest } from '../http/raw-client.js';
import { type Route, registeredRoutes } from '../http/routes.js';
import { TEST_KEY, type TestApp, startTestApp } from '../helpers/test-app.js';

/** Routes anyone may call, as docs/api.md documents them. */
const PUBLIC = [/^\/$/, /^\/health(\/live)?$/, /^\/docs(\/.*)?$/, /^\/docs\*$/, /^\/v1\/openapi\.json$/];

const SAMPLE_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** A concrete path for a route pattern: parameters get a well-formed id, a wildcard a file name. */
function concrete(pattern: string): string {
  return pattern.replace(/:[A-Za-z]+/g, SAMPLE_ID).replace(/\*$/, 'x');
}

/** Spellings of `path` (which starts with /v1/) that a router or a proxy might treat as it. */
function spellings(path: string): string[] {
  const rest = path.slice('/v1'.length); // "/scrape", "/webhooks/<id>", ...
  const last = path.at(-1) ?? '';
  const everyChar = [...path]
    .map((c) => (c === '/' ? c : `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`))
    .join('');
  return [
    path,
    `/%761${rest}`,
    `/%76%31${rest}`,
    `/%56%31${rest}`,
    `/v%31${rest}`,
    everyChar,
    `${path.slice(0, -1)}%${last.charCodeAt(0).toString(16)}`,
    `/v1%2F${rest.slice(1)}`,
    `/v1%2f${rest.slice(1)}`,
    `/%2Fv1${rest}`,
    `/%2fv1${rest}`,
    `//v1${rest}`,
    `/v1/${rest}`,
    `/V1${rest}`,
    `/v1/.${rest}`,
    `/v1/%2e${rest}`,
    `/v1/../v1${rest}`,
    `/v1/%2e%2e/v1${rest}`,
    `/x/../v1${rest}`,
    `${path}/`,
    `${path}//`,
    `${path};x=1`,
    `/v1;x=1${rest}`,
    `${path}?x=1`,
    `${path}#frag`,
    `${path}%00`,
    `/v1\\${rest.slice(1)}`,
    `/%25761${rest}`,
    `http://127.0.0.1/v1${rest}`,
    `http://127.0.0.1/%761${rest}`,
  ];
}

describe('authentication on the dispatched route (issue 12 item 8)', () => {
  let t: TestApp;
  let port: number;
  let routes: Route[];
  before(async () => {
    t = await startTestApp();
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.server.address() as { port: number }).port;
    routes = registeredRoutes(t.app.server);
  });
  after(async () => {
    await t.close();
  });

  it('finds the routes it guards, public and private', () => {
    const paths = routes.map((r) => r.path);
    for (const expected of [
      '/health',
      '/docs',
      '/v1/openapi.json',
      '/v1/webhook-events',
      '/v1/scrape',
      '/v1/webhooks/:webhookId/deliveries/:deliveryId/replay',
      '/v1/scheduled-tasks/:taskId/executions/:executionId',
    ]) {
      assert.ok(paths.includes(expected), `${expected} in ${paths.join(' ')}`);
    }
    assert.ok(routes.length >= 25, `${routes.length} routes`);
  });

  it('answers every spelling of every private route without a key with 401 or 404, never 2xx or 3xx', async () => {
    const leaks: string[] = [];
    let tried = 0;
    for (const route of routes) {
      if (PUBLIC.some((p) => p.test(route.path))) continue;
      for (const method of route.methods) {
        for (const target of spellings(concrete(route.path))) {
          const res = await rawRequest(
            port,
            method,
            target,
            method === 'GET' || method === 'HEAD' ? {} : { body: '{}' },
          );
          tried += 1;
          const allowed = res.status === 401 || res.status === 404 || res.status === 400;
          if (!allowed) leaks.push(`${method} ${target} -> ${res.status} ${res.body.slice(0, 80)}`);
          else if (method !== 'HEAD') {
            const body = JSON.parse(res.body) as { success: boolean; error: string };
            if (body.success !== false)
              leaks.push(`${method} ${target} -> ${res.status} without the error shape: ${res.body.slice(0, 80)}`);
          }
        }
      }
    }
    assert.ok(tried > 500, `${tried} requests`);
    assert.deepEqual(leaks, []);
  });

  it('answers 401 (not 404) for the spellings the router itself resolves to a private route', async () => {
    for (const target of [
      '/%761/scheduled-tasks',
      '/%761/webhook-events',
      '/v1/webhook-event%73',
      '/v1/./webhook-events',
      '/v1/webhook-events/',
      '/v1/webhook-events;x=1',
    ]) {
      const res = await rawGet(port, target);
      assert.equal(res.status, 401, `${target} -> ${res.status} ${res.body.slice(0, 80)}`);
      assert.deepEqual(JSON.parse(res.body), { success: false, error: 'Invalid API key' });
    }
  });

  it('still serves the private routes with a key, and the public ones without', async () => {
    for (const target of ['/v1/scheduled-tasks', '/%761/scheduled-tasks', '/v1/webhook-events']) {
      const res = await rawGet(port, target, { authorization: `Bearer ${TEST_KEY}` });
      assert.equal(res.status, 200, `${target} -> ${res.status}`);
    }
    for (const [method, target] of [
      ['GET', '/'],
      ['GET', '/health'],
      ['HEAD', '/health'],
      ['GET', '/health/live'],
      ['GET', '/%68ealth'],
      ['GET', '/docs/json'],
      ['GET', '/v1/openapi.json'],
      ['GET', '/%761/openapi.json'],
      ['GET', '/docs/static/swagger-initializer.js'],
    ] as const) {
      const res = await rawGet(port, target, {}, method);
      assert.equal(res.status, 200, `${method} ${target} -> ${res.status}`);
    }
    const docs = await rawGet(port, '/docs');
    assert.ok(docs.status === 200 || docs.status === 302, `/docs -> ${docs.status}`);
  });

  it('asks for a key before saying whether a path or method exists (default deny)', async () => {
    const cases = [
      ['GET', '/v1/nothing-here'],
      ['GET', '/v1/scrape'],
      ['OPTIONS', '/v1/scrape'],
      ['DELETE', '/v1/webhook-events'],
      ['GET', '/%761/nothing'],
      ['GET', '/nothing-here'],
      ['POST', '/health'],
    ] as const;
    for (const [method, target] of cases) {
      const res = await rawGet(port, target, {}, method);
      assert.equal(res.status, 401, `${method} ${target} -> ${res.status}`);
      assert.deepEqual(JSON.parse(res.body), { success: false, error: 'Invalid API key' });
    }
    const wrongMethod = await rawGet(port, '/v1/scrape', { authorization: `Bearer ${TEST_KEY}` }, 'OPTIONS');
    assert.equal(wrongMethod.status, 405);
    const missing = await rawGet(port, '/nothing-here', { authorization: `Bearer ${TEST_KEY}` });
    assert.equal(missing.status, 404);
    assert.equal(JSON.parse(missing.body).error, 'Not found');
  });
});
