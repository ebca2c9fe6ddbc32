// Issue 12 items 6, 7, 9 and 10 (request charset): what the HTTP layer does with slow, deep,
// malformed and oversized requests. Every answer has the contract's error shape, nothing hangs.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { type SiteServer, startSiteServer } from '../fixtures/site-server.js';
import { rawExchange, rawGet, rawRequest, type RawResponse } from '../http/raw-client.js';
import { registeredRoutes } from '../http/routes.js';
import { TEST_KEY, type TestApp, startTestApp } from '../helpers/test-app.js';

const AUTH = { authorization: `Bearer ${TEST_KEY}` };

function portOf(t: TestApp): number {
  return (t.app.server.server.address() as { port: number }).port;
}

/** The contract's error shape: JSON with success false and an error string, nothing of Fastify's own. */
function assertErrorShape(
  res: RawResponse | { statusCode: number; body: string; headers: Record<string, unknown> },
  status: number,
  error: string | RegExp,
): Record<string, unknown> {
  const code = 'status' in res ? res.status : res.statusCode;
  assert.equal(code, status, res.body.slice(0, 200));
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  assert.equal(body.success, false, res.body);
  if (typeof error === 'string') assert.equal(body.error, error, res.body);
  else assert.match(String(body.error), error, res.body);
  assert.equal(typeof body.message, 'string', res.body);
  assert.ok(!('statusCode' in body), `Fastify's own body: ${res.body}`);
  return body;
}

/** A JSON text nested `depth` levels: {"a":{"a":...{}}} (or arrays). */
function nested(depth: number, kind: 'object' | 'array' = 'object'): string {
  return kind === 'object'
    ? `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`
    : `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

describe('request timeouts (issue 12 item 6)', () => {
  let t: TestApp;
  let site: SiteServer;
  let port: number;
  before(async () => {
    site = await startSiteServer();
    t = await startTestApp({ env: { HTTP_REQUEST_TIMEOUT_MS: '1000', HTTP_HEADERS_TIMEOUT_MS: '500' } });
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    port = portOf(t);
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  it('answers a request whose body stops half way with a 408 in the error shape, within the limit', async () => {
    const head = `POST /v1/scrape HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        rawExchange(port, head + '{"url":"http://127.0.0.1/'.padEnd(50, 'x'), { giveUpMs: 8000 }),
      ),
    );
    for (const res of results) {
      const body = assertErrorShape(res, 408, 'Request timeout');
      assert.match(String(body.message), /1000 ms/);
      assert.equal(res.headers.connection, 'close');
      // The limit is 1 s; Node checks it every quarter of the shortest limit. Generous bound.
      assert.ok(res.elapsedMs < 5000, `${res.elapsedMs} ms`);
    }
  });

  it('answers headers that trickle in and never end with a 408, within the headers limit', async () => {
    const lines = [
      'GET /health HTTP/1.1\r\n',
      'Host: x\r\n',
      ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: y\r\n`),
    ];
    const res = await rawExchange(port, lines, { gapMs: 100, giveUpMs: 8000 });
    assertErrorShape(res, 408, 'Request timeout');
    assert.ok(res.elapsedMs < 4000, `${res.elapsedMs} ms`);
  });

  it('closes a connection that sends nothing', async () => {
    const res = await rawExchange(port, [], { giveUpMs: 8000 });
    assert.ok(res.elapsedMs < 4000, `${res.elapsedMs} ms`);
    assert.ok(res.status === 0 || res.status === 408, String(res.status));
  });

  it('does not cut a slow scrape: the limit is on receiving the request, not on answering it', async () => {
    const res = await rawRequest(port, 'POST', '/v1/scrape', {
      headers: AUTH,
      body: JSON.stringify({ url: `${site.url}/slow?ms=2500`, engine: 'cheerio', max_age: 0, timeout: 10_000 }),
    });
    assert.equal(res.status, 200, res.body.slice(0, 300));
    assert.ok(res.elapsedMs >= 2500, `${res.elapsedMs} ms`);
    assert.match(JSON.parse(res.body).data.markdown, /slow answer/);
  });

  it('keeps /health answering while 60 connections hold half a body', async () => {
    const head = `POST /v1/webhooks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`;
    const held = Array.from({ length: 60 }, () => rawExchange(port, head, { giveUpMs: 8000 }));
    const health = await rawGet(port, '/health');
    assert.equal(health.status, 200);
    for (const res of await Promise.all(held)) assert.equal(res.status, 408);
  });
});

describe('HTTP settings (issue 12 item 6)', () => {
  it('has limits by default and refuses nonsense', () => {
    const config = loadConfig({});
    assert.equal(config.httpRequestTimeoutMs, 30_000);
    assert.equal(config.httpHeadersTimeoutMs, 10_000);
    assert.equal(config.httpKeepAliveTimeoutMs, 72_000);
    assert.equal(config.httpMaxConnections, 1000);
    for (const [name, value] of [
      ['HTTP_REQUEST_TIMEOUT_MS', '0'],
      ['HTTP_REQUEST_TIMEOUT_MS', 'soon'],
      ['HTTP_HEADERS_TIMEOUT_MS', '-1'],
      ['HTTP_MAX_CONNECTIONS', '1.5'],
    ]) {
      assert.throws(() => loadConfig({ [name as string]: value }), new RegExp(name as string));
    }
  });

  it('closes connections over HTTP_MAX_CONNECTIONS at once, and takes new ones when some end', async () => {
    const t = await startTestApp({ env: { HTTP_MAX_CONNECTIONS: '3' } });
    const sockets: net.Socket[] = [];
    try {
      await t.app.server.listen({ port: 0, host: '127.0.0.1' });
      const port = portOf(t);
      sockets.push(
        ...(await Promise.all(
          Array.from(
            { length: 3 },
            () =>
              new Promise<net.Socket>((resolve) => {
                const s = net.connect(port, '127.0.0.1', () => resolve(s));
              }),
          ),
        )),
      );
      await new Promise((r) => setTimeout(r, 100));
      const refused = await rawGet(port, '/health');
      assert.equal(refused.status, 0, 'the fourth connection is closed without an answer');
      for (const s of sockets) s.destroy();
      await new Promise((r) => setTimeout(r, 100));
      const health = await rawGet(port, '/health');
      assert.equal(health.status, 200);
    } finally {
      for (const s of sockets) s.destroy();
      await t.close();
    }
  });
});

describe('error shapes of answers Fastify and Node would write themselves (issue 12 item 9)', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await startTestApp();
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    port = portOf(t);
  });
  after(async () => {
    await t.close();
  });

  it('answers malformed HTTP with a 400 in the error shape and closes the connection', async () => {
    const cases = [
      'GARBAGE\r\n\r\n',
      'FOO / HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /health HTTP/9.9\r\nHost: x\r\n\r\n',
      'GET /health HTTP/1.1\r\nBad Header: x\r\n\r\n',
      'GET /health HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n',
      'POST /v1/scrape HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'POST /v1/scrape HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nnot-hex\r\n{}\r\n0\r\n\r\n',
      'POST /v1/scrape HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    ];
    for (const request of cases) {
      const res = await rawExchange(port, request);
      assertErrorShape(res, 400, 'Bad request');
      assert.equal(res.headers.connection, 'close', request);
    }
  });

  it('answers what Node would refuse with an empty body (no Host, an unknown Expect, CONNECT) in the error shape', async () => {
    const noHost = await rawExchange(port, 'GET /health HTTP/1.1\r\n\r\n');
    assertErrorShape(noHost, 400, 'Bad request');
    assert.match(JSON.parse(noHost.body).message, /Host/);
    const expect = await rawExchange(
      port,
      `POST /v1/scrape HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nExpect: a-miracle\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
    );
    assertErrorShape(expect, 417, 'Expectation failed');
    const connect = await rawExchange(port, 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n');
    assertErrorShape(connect, 405, 'Method not allowed');
    // HTTP/1.0 needs no Host.
    assert.equal((await rawExchange(port, 'GET /health HTTP/1.0\r\n\r\n')).status, 200);
  });

  it('answers headers over the size limit with 431 and a URL over it with 414, in the error shape', async () => {
    const headers = await rawExchange(port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assertErrorShape(headers, 431, 'Request header fields too large');
    const url = await rawExchange(port, `GET /v1/webhooks/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assertErrorShape(url, 414, 'URI too long');
  });

  it('answers an over-long id on every :id route with the route own 400 "Invalid <thing> ID"', async () => {
    // /v2 (Firecrawl's shape) has its own check below.
    const routes = registeredRoutes(t.app.server).filter((r) => r.path.includes('/:') && !r.path.startsWith('/v2/'));
    assert.ok(routes.length >= 8, routes.map((r) => r.path).join(' '));
    const valid = '0f8fad5b-d9cb-469f-a165-70867728950e';
    let tried = 0;
    for (const route of routes) {
      for (const method of route.methods.filter((m) => m !== 'HEAD')) {
        for (const length of [101, 200, 5000]) {
          // Each parameter in turn is the long one; the others are well-formed.
          const params = route.path.match(/:[A-Za-z]+/g) ?? [];
          for (const long of params) {
            const url = route.path.replace(/:[A-Za-z]+/g, (p) => (p === long ? 'a'.repeat(length) : valid));
            const res = await t.request(method, url, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
            tried += 1;
            const body = assertErrorShape(
              { statusCode: res.statusCode, body: res.body, headers: res.headers },
              400,
              /^Invalid \w+ ID$/,
            );
            assert.match(String(body.message), /must be a valid UUID/, `${method} ${url.slice(0, 60)}`);
          }
        }
      }
    }
    assert.ok(tried >= 40, String(tried));
  });

  it("answers an over-long job id on every /v2 job route with Firecrawl's 400 (or the 501 of a feature not offered)", async () => {
    const routes = registeredRoutes(t.app.server).filter((r) => r.path.startsWith('/v2/') && r.path.includes('/:'));
    assert.ok(routes.length >= 7, routes.map((r) => r.path).join(' '));
    let tried = 0;
    for (const route of routes) {
      for (const method of route.methods.filter((m) => m !== 'HEAD')) {
        for (const length of [101, 5000]) {
          const url = route.path.replace(/:[A-Za-z]+/g, 'a'.repeat(length));
          const res = await t.request(method, url, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
          tried += 1;
          const body = res.json() as { success: boolean; error: string; code?: string };
          assert.equal(body.success, false);
          if (res.statusCode === 501) assert.equal(body.code, 'NOT_OFFERED', `${method} ${route.path}`);
          else {
            assert.equal(res.statusCode, 400, `${method} ${route.path}`);
            assert.match(body.error, /^Invalid (job|monitor) ID format\. (Job|Monitor) ID must be a valid UUID\.$/);
          }
        }
      }
    }
    assert.ok(tried >= 14, String(tried));
  });

  it('answers a path with broken percent-encoding with a 400 in the error shape', async () => {
    for (const target of [
      '/v1/webhooks/%zz',
      '/v1/webhooks/%E0%A4%A',
      '/v1/%zz',
      '/v1/webhooks/%zz/test',
      '/v1/crawl/%',
    ]) {
      for (const headers of [AUTH, {}]) {
        const body = assertErrorShape(await rawGet(port, target, headers), 400, 'Bad request');
        assert.match(String(body.message), /percent-encoding/, target);
      }
    }
  });

  it('answers a body of the wrong length or with a content coding in the error shape', async () => {
    const coded = await t.request('POST', '/v1/scrape', {
      body: JSON.stringify({ url: 'https://example.com' }),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    assertErrorShape(coded, 415, 'Unsupported media type');
    assert.match(coded.json().message, /Content-Encoding/);
    const identity = await t.request('POST', '/v1/scrape', {
      body: { url: 'ftp://x' },
      headers: { 'content-encoding': 'identity' },
    });
    assert.equal(identity.statusCode, 400);
    // A body that does not match its Content-Length (as a client library can send it).
    for (const length of ['50', '1']) {
      const res = await t.app.server.inject({
        method: 'POST',
        url: '/v1/scrape',
        headers: { ...AUTH, 'content-type': 'application/json', 'content-length': length },
        payload: '{"url":"ftp://x"}',
      });
      const body = assertErrorShape(
        { statusCode: res.statusCode, body: res.body, headers: res.headers },
        400,
        'Bad request',
      );
      assert.match(String(body.message), /Content-Length/);
    }
    // On a real socket, a client that ends before the body is complete is dropped at once, not waited for.
    const short = await rawExchange(
      port,
      `POST /v1/scrape HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{}`,
      { giveUpMs: 5000, end: true },
    );
    assert.ok(short.elapsedMs < 2000, `${short.elapsedMs} ms`);
  });

  it('answers requests that arrive while the service shuts down with a 503 in the error shape', async () => {
    const site = await startSiteServer();
    const own = await startTestApp();
    try {
      await own.app.server.listen({ port: 0, host: '127.0.0.1' });
      const ownPort = portOf(own);
      // A slow scrape keeps the server draining; a second connection has begun a request.
      const slow = rawRequest(ownPort, 'POST', '/v1/scrape', {
        headers: AUTH,
        body: JSON.stringify({ url: `${site.url}/slow?ms=1500`, engine: 'cheerio', max_age: 0 }),
      });
      const late = new net.Socket();
      let answer = '';
      late.on('data', (d) => (answer += d.toString()));
      await new Promise<void>((resolve) => late.connect(ownPort, '127.0.0.1', resolve));
      late.write('GET /health HTTP/1.1\r\nHost: x\r\n');
      await new Promise((r) => setTimeout(r, 300));
      const closing = own.app.server.close();
      await new Promise((r) => setTimeout(r, 200));
      late.write('\r\n');
      await new Promise((r) => late.once('close', r));
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      assert.match(head, /^HTTP\/1\.1 503/);
      assert.match(head, /connection: close/i);
      const json = JSON.parse(body);
      assert.equal(json.success, false);
      assert.equal(json.error, 'Service unavailable');
      assert.equal((await slow).status, 200);
      await closing;
    } finally {
      await own.close().catch(() => {});
      await site.close();
    }
  });
});

describe('nesting depth of JSON bodies (issue 12 item 7)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t.close();
  });

  const webhook = { name: 'deep', webhook_url: 'https://93.184.216.34/hook', event_types: ['scrape.completed'] };
  const task = { name: 'deep', cron_expression: '0 * * * *', task_type: 'scrape' };

  function assertTooDeep(res: { statusCode: number; body: string; headers: Record<string, unknown> }): void {
    const body = assertErrorShape(res, 400, 'Validation error');
    const data = body.data as { type: string; issues: Array<{ code: string; message: string }> };
    assert.equal(data.type, 'validation_error');
    assert.equal(data.issues[0]?.code, 'too_deep', res.body);
    assert.match(String(data.issues[0]?.message), /64/);
  }

  it('refuses bodies nested deeper than 64 levels on every route that takes one, with the validation shape', async () => {
    const created = await t.request('POST', '/v1/webhooks', { body: webhook });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().data.webhook_id as string;
    for (const depth of [65, 5000, 100_000]) {
      const deep = nested(depth);
      const cases: Array<[string, string, string]> = [
        [
          'POST',
          '/v1/webhooks',
          `{"name":"deep","webhook_url":"https://93.184.216.34/hook","event_types":["scrape.completed"],"metadata":${deep}}`,
        ],
        ['PUT', `/v1/webhooks/${id}`, `{"metadata":${deep}}`],
        [
          'POST',
          '/v1/scheduled-tasks',
          `{"name":"deep","cron_expression":"0 * * * *","task_type":"scrape","task_payload":${deep}}`,
        ],
        [
          'POST',
          '/v1/scheduled-tasks',
          `{"name":"deep","cron_expression":"0 * * * *","task_type":"scrape","task_payload":{"url":"https://example.com"},"metadata":${deep}}`,
        ],
        ['POST', '/v1/scrape', `{"url":"https://example.com","x":${deep}}`],
        ['POST', '/v1/crawl', `{"url":"https://example.com","scrape_options":${nested(depth, 'array')}}`],
        ['POST', '/v1/scrape', nested(depth, 'array')],
      ];
      for (const [method, url, payload] of cases) {
        const res = await t.request(method, url, { body: payload, headers: { 'content-type': 'application/json' } });
        assertTooDeep({ statusCode: res.statusCode, body: res.body, headers: res.headers });
      }
    }
  });

  it('accepts nesting up to the limit, and brackets inside strings do not count', async () => {
    const atLimit = await t.request('POST', '/v1/webhooks', {
      body: `{"name":"ok","webhook_url":"https://93.184.216.34/hook","event_types":["scrape.completed"],"metadata":${nested(63)}}`,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(atLimit.statusCode, 201, atLimit.body.slice(0, 300));
    const brackets = '[{'.repeat(10_000);
    const inString = await t.request('POST', '/v1/webhooks', {
      body: { ...webhook, metadata: { s: brackets, t: `\\"${brackets}` } },
    });
    assert.equal(inString.statusCode, 201, inString.body.slice(0, 300));
    const read = await t.request('GET', `/v1/webhooks/${inString.json().data.webhook_id}`);
    assert.equal(read.json().data.metadata.s, brackets);
    const tasked = await t.request('POST', '/v1/scheduled-tasks', {
      body: { ...task, task_payload: { url: 'https://example.com' }, metadata: JSON.parse(nested(60)) },
    });
    assert.equal(tasked.statusCode, 201, tasked.body.slice(0, 300));
  });
});

describe('request charsets (issue 12 item 10)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t.close();
  });

  it('refuses JSON declared in a charset other than UTF-8 with a 415 in the error shape', async () => {
    const json = JSON.stringify({ url: 'ftp://not-http' });
    const cases: Array<[string, Buffer]> = [
      ['application/json; charset=utf-16', Buffer.from(`\ufeff${json}`, 'utf16le')],
      ['application/json; charset=UTF-16LE', Buffer.from(json, 'utf16le')],
      ['application/json;charset="utf-16be"', Buffer.from(json, 'utf16le').swap16()],
      ['application/json; charset=iso-8859-1', Buffer.from(json, 'latin1')],
      ['application/json; charset=utf-32', Buffer.from(json)],
      ['application/json; charset=', Buffer.from(json)],
    ];
    for (const [type, payload] of cases) {
      const res = await t.app.server.inject({
        method: 'POST',
        url: '/v1/scrape',
        headers: { ...AUTH, 'content-type': type },
        payload,
      });
      const body = assertErrorShape(
        { statusCode: res.statusCode, body: res.body, headers: res.headers },
        415,
        'Unsupported media type',
      );
      assert.match(String(body.message), /UTF-8/, type);
    }
  });

  it('parses JSON declared UTF-8 in any spelling, or with no charset', async () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'application/json; charset=UTF-8',
      'application/json;charset="utf-8"',
      'Application/JSON; Charset=utf8',
    ]) {
      const res = await t.app.server.inject({
        method: 'POST',
        url: '/v1/scrape',
        headers: { ...AUTH, 'content-type': type },
        payload: JSON.stringify({ url: 'ftp://not-http' }),
      });
      // Reaches validation: the url field is refused, so the body was read as JSON.
      assert.equal(res.statusCode, 400, `${type}: ${res.body}`);
      assert.equal(res.json().data.issues[0].field, 'url', type);
    }
  });
});
