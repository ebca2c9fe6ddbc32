// Tests of one webhook delivery attempt against real local receivers, and of the subscription URL check.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { after, afterEach, describe, it } from 'node:test';
import type { ResolvedAddress, Resolver } from '../../src/net/address-guard.js';
import {
  type AttemptOutcome,
  RESPONSE_BODY_CAP,
  type SendRequest,
  sendWebhook,
  validateWebhookUrl,
} from '../../src/webhooks/sender.js';
import { closeWebhookAgents } from '../../src/webhooks/send/agents.js';
import { describeNetworkError } from '../../src/webhooks/send/errors.js';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.js';

const receivers: Receiver[] = [];
async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
after(async () => {
  await closeWebhookAgents();
});

const BODY = '{"job_id":"j-1","status":"completed","title":"Crème brûlée — 東京"}';

function send(url: string, extra: Partial<SendRequest> = {}): Promise<AttemptOutcome> {
  return sendWebhook({
    url,
    body: BODY,
    headers: { 'content-type': 'application/json', 'x-webhook-event': 'scrape.completed' },
    timeoutMs: 3_000,
    allowPrivateAddresses: true,
    ...extra,
  });
}

function resolverTo(...addresses: string[]): Resolver {
  return async (): Promise<ResolvedAddress[]> =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function assertDuration(outcome: AttemptOutcome): void {
  assert.equal(typeof outcome.durationMs, 'number');
  assert.ok(Number.isInteger(outcome.durationMs) && outcome.durationMs >= 0, `durationMs ${outcome.durationMs}`);
}

describe('sendWebhook: answers', () => {
  it('POSTs the exact bytes and headers, and a 2xx is delivered with the response body', async () => {
    const r = await receiver();
    const outcome = await send(`${r.url}/hooks/in?x=1`, {
      headers: {
        'content-type': 'application/json',
        'x-webhook-event': 'scrape.completed',
        'x-custom': 'yes',
        authorization: 'Bearer t',
      },
    });
    assert.equal(outcome.kind, 'delivered');
    assert.ok(outcome.kind === 'delivered');
    assert.equal(outcome.statusCode, 200);
    assert.equal(outcome.responseBody, '{"received":true}');
    assertDuration(outcome);
    const [req] = await r.waitFor(1);
    assert.ok(req);
    assert.equal(req.method, 'POST');
    assert.equal(req.path, '/hooks/in?x=1');
    assert.deepEqual(req.rawBody, Buffer.from(BODY, 'utf8'));
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers['content-length'], String(Buffer.byteLength(BODY)));
    assert.equal(req.headers['x-webhook-event'], 'scrape.completed');
    assert.equal(req.headers['x-custom'], 'yes');
    assert.equal(req.headers.authorization, 'Bearer t');
    assert.equal(req.headers.host, `127.0.0.1:${r.port}`);
  });

  it('treats every 2xx as delivered', async () => {
    const r = await receiver();
    for (const status of [201, 202, 204]) {
      r.setMode(`status:${status}`);
      const outcome = await send(r.url);
      assert.equal(outcome.kind, 'delivered', `HTTP ${status}`);
      assert.ok(outcome.kind === 'delivered');
      assert.equal(outcome.statusCode, status);
    }
  });

  it('rejects a 4xx without an error to retry', async () => {
    const r = await receiver(undefined, 'status:404');
    const outcome = await send(r.url);
    assert.deepEqual(
      { ...outcome, durationMs: 0 },
      { kind: 'rejected', statusCode: 404, durationMs: 0, responseBody: 'status 404' },
    );
    assertDuration(outcome);
  });

  it('makes a 5xx retryable with HTTP_<status>', async () => {
    const r = await receiver(undefined, 'status:503');
    const outcome = await send(r.url);
    assert.equal(outcome.kind, 'retryable');
    assert.ok(outcome.kind === 'retryable');
    assert.equal(outcome.statusCode, 503);
    assert.equal(outcome.errorCode, 'HTTP_503');
    assert.equal(outcome.responseBody, 'status 503');
    assert.match(outcome.errorMessage, new RegExp(`127\\.0\\.0\\.1:${r.port}.*503`));
    assertDuration(outcome);
  });

  it('never follows a redirect: a 302 is rejected and its target gets no request', async () => {
    const target = await receiver();
    const r = await receiver(undefined, 'redirect');
    r.redirectLocation = `${target.url}/elsewhere`;
    const outcome = await send(r.url);
    assert.equal(outcome.kind, 'rejected');
    assert.ok(outcome.kind === 'rejected');
    assert.equal(outcome.statusCode, 302);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(target.requests.length, 0, 'the Location was not followed');
    assert.equal(r.requests.length, 1);
  });

  it('keeps at most 4 KB of the response body, and a cut UTF-8 character is not mangled', async () => {
    const big = `${'a'.repeat(RESPONSE_BODY_CAP - 1)}é${'b'.repeat(20_000)}`;
    const r = await receiver((_req, res) => {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end(big);
    });
    const outcome = await send(r.url);
    assert.equal(outcome.kind, 'rejected');
    assert.ok(outcome.kind === 'rejected');
    assert.equal(
      outcome.responseBody,
      'a'.repeat(RESPONSE_BODY_CAP - 1),
      'the half of é past the cap is dropped, not turned into U+FFFD',
    );
  });

  it('cuts a huge response body instead of reading it all', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let written = 0;
    const r = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      // An endless body: the sender must stop reading and close the connection.
      const pump = (): void => {
        while (res.writable && res.write(chunk)) written += chunk.length;
        if (res.writable) res.once('drain', pump);
      };
      pump();
    });
    const outcome = await send(r.url);
    assert.equal(outcome.kind, 'delivered');
    assert.ok(outcome.kind === 'delivered');
    assert.equal(outcome.responseBody, 'x'.repeat(RESPONSE_BODY_CAP));
    await r.waitForNoConnections(2_000);
    assert.ok(written < 16 * 1024 * 1024, `the receiver wrote ${written} bytes`);
  });
});

describe('sendWebhook: timeouts', () => {
  it('gives ETIMEDOUT within about timeoutMs when the receiver never answers, and closes the socket', async () => {
    const r = await receiver(undefined, 'hang');
    const started = Date.now();
    const outcome = await send(r.url, { timeoutMs: 500 });
    const elapsed = Date.now() - started;
    assert.equal(outcome.kind, 'retryable');
    assert.ok(outcome.kind === 'retryable');
    assert.equal(outcome.errorCode, 'ETIMEDOUT');
    assert.equal(outcome.statusCode, undefined);
    assert.match(outcome.errorMessage, new RegExp(`500 ms.*127\\.0\\.0\\.1:${r.port}`));
    assert.ok(elapsed >= 450 && elapsed < 1_500, `elapsed ${elapsed} ms`);
    assert.ok(outcome.durationMs >= 450 && outcome.durationMs < 1_500, `durationMs ${outcome.durationMs}`);
    assert.equal(r.requests.length, 1, 'the request was sent before the wait');
    await r.waitForNoConnections(1_000);
  });

  it('gives ETIMEDOUT when the headers came but the body stalls, and closes the socket', async () => {
    const r = await receiver(undefined, 'slow-body');
    const started = Date.now();
    const outcome = await send(r.url, { timeoutMs: 500 });
    const elapsed = Date.now() - started;
    assert.equal(outcome.kind, 'retryable');
    assert.ok(outcome.kind === 'retryable');
    assert.equal(outcome.errorCode, 'ETIMEDOUT');
    assert.equal(outcome.statusCode, 200);
    assert.equal(outcome.responseBody, 'partial ');
    assert.match(outcome.errorMessage, /response body/);
    assert.ok(elapsed < 1_500, `elapsed ${elapsed} ms`);
    await r.waitForNoConnections(1_000);
  });

  it('counts the whole attempt: a body trickling in under any per-chunk timeout still ends at timeoutMs', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const tick = setInterval(() => (res.writable ? res.write('.') : clearInterval(tick)), 50);
      res.on('close', () => clearInterval(tick));
    });
    const started = Date.now();
    const outcome = await send(r.url, { timeoutMs: 600 });
    assert.equal(outcome.kind, 'retryable');
    assert.ok(outcome.kind === 'retryable');
    assert.equal(outcome.errorCode, 'ETIMEDOUT');
    assert.ok(Date.now() - started < 1_600);
  });

  it('a hanging receiver does not hold back deliveries to another one', async () => {
    const slow = await receiver(undefined, 'hang');
    const fast = await receiver();
    const hanging = send(slow.url, { timeoutMs: 1_500 });
    const started = Date.now();
    const outcome = await send(fast.url);
    assert.equal(outcome.kind, 'delivered');
    assert.ok(Date.now() - started < 500);
    assert.equal((await hanging).kind, 'retryable');
  });
});

describe('sendWebhook: network errors', () => {
  it('gives ECONNRESET when the receiver drops the connection', async () => {
    const r = await receiver(undefined, 'reset');
    const outcome = await send(r.url);
    assert.equal(outcome.kind, 'retryable');
    assert.ok(outcome.kind === 'retryable');
    assert.equal(outcome.errorCode, 'ECONNRESET');
    assert.equal(outcome.statusCode, undefined);
    assert.match(outcome.errorMessage, new RegExp(`127\\.0\\.0\\.1:${r.port}`));
    assertDuration(outcome);
  });

  it('gives ECONNRESET when the connection drops in the middle of a 2xx body', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('half', () => res.socket?.destroy());
    });
    const outcome = await send(r.url);
    assert.equal(outcome.kind, 'retryable');
    assert.ok(outcome.kind === 'retryable');
    assert.equal(outcome.errorCode, 'ECONNRESET');
    assert.equal(outcome.statusCode, 200);
  });

  it('gives ECONNREFUSED for a closed port', async () => {
    const port = await closedPort();
    const outcome = await send(`http://127.0.0.1:${port}/hook`);
    assert.equal(outcome.kind, 'retryable');
    assert.ok(outcome.kind === 'retryable');
    assert.equal(outcome.errorCode, 'ECONNREFUSED');
    assert.equal(outcome.errorMessage, `Connection refused by 127.0.0.1:${port}`);
    assertDuration(outcome);
  });

  it('gives ENOTFOUND for a name that does not exist', async () => {
    const outcome = await send('http://no-such-receiver.invalid/hook', { allowPrivateAddresses: false });
    assert.equal(outcome.kind, 'retryable');
    assert.ok(outcome.kind === 'retryable');
    assert.equal(outcome.errorCode, 'ENOTFOUND');
    assert.match(outcome.errorMessage, /no-such-receiver\.invalid/);
  });

  it('passes a temporary DNS failure through as EAI_AGAIN', async () => {
    const failing =
      (code: string): Resolver =>
      async () => {
        throw Object.assign(new Error(`getaddrinfo ${code} hooks.example.com`), { code });
      };
    const again = await send('http://hooks.example.com/', { resolve: failing('EAI_AGAIN') });
    assert.ok(again.kind === 'retryable');
    assert.equal(again.errorCode, 'EAI_AGAIN');
    assert.match(again.errorMessage, /hooks\.example\.com/);
  });

  it('reports a refused TLS certificate with its code', async () => {
    const server = createHttpsServer(
      {
        key: readFileSync(new URL('../fixtures/site/selfsigned-key.pem', import.meta.url)),
        cert: readFileSync(new URL('../fixtures/site/selfsigned-cert.pem', import.meta.url)),
      },
      (_req, res) => res.end('ok'),
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const outcome = await send(`https://127.0.0.1:${port}/hook`);
      assert.equal(outcome.kind, 'retryable');
      assert.ok(outcome.kind === 'retryable');
      assert.match(outcome.errorCode, /^(?:DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|CERT_\w+|TLS_ERROR)$/);
      assert.match(outcome.errorMessage, new RegExp(`127\\.0\\.0\\.1:${port}`));
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('never throws, even for a URL that does not parse', async () => {
    const outcome = await send('not a url');
    assert.equal(outcome.kind, 'retryable');
    assert.ok(outcome.kind === 'retryable');
    assert.equal(outcome.errorCode, 'INVALID_URL');
  });
});

describe('sendWebhook: private addresses', () => {
  it('blocks a name resolving to 127.0.0.1, and the receiver gets nothing', async () => {
    const r = await receiver();
    const outcome = await send(`http://hooks.example.com:${r.port}/hook`, {
      allowPrivateAddresses: false,
      resolve: resolverTo('127.0.0.1'),
    });
    assert.equal(outcome.kind, 'blocked');
    assert.ok(outcome.kind === 'blocked');
    assert.equal(outcome.errorCode, 'BLOCKED_ADDRESS');
    assert.match(outcome.errorMessage, /hooks\.example\.com.*127\.0\.0\.1.*ALLOW_LOCAL_WEBHOOKS/);
    assertDuration(outcome);
    assert.equal(r.requests.length, 0);
    assert.equal(r.connectionCount, 0);
  });

  it('blocks a name when ANY of its addresses is private (DNS rebinding)', async () => {
    const outcome = await send('http://hooks.example.com/hook', {
      allowPrivateAddresses: false,
      resolve: resolverTo('93.184.216.34', '10.0.0.5'),
    });
    assert.equal(outcome.kind, 'blocked');
  });

  it('blocks private literals and local names before connecting', async () => {
    const r = await receiver();
    for (const url of [
      `http://127.0.0.1:${r.port}/`,
      `http://2130706433:${r.port}/`,
      `http://0x7f.1:${r.port}/`,
      `http://[::ffff:127.0.0.1]:${r.port}/`,
      `http://[::1]:${r.port}/`,
      `http://localhost:${r.port}/`,
      `http://hooks.localhost.:${r.port}/`,
    ]) {
      const outcome = await send(url, { allowPrivateAddresses: false, resolve: resolverTo('127.0.0.1') });
      assert.equal(outcome.kind, 'blocked', url);
    }
    assert.equal(r.connectionCount, 0);
  });

  it('with ALLOW_LOCAL_WEBHOOKS connects to the checked address of the injected resolver', async () => {
    const r = await receiver();
    const outcome = await send(`http://hooks.example.com:${r.port}/hook`, { resolve: resolverTo('127.0.0.1') });
    assert.equal(outcome.kind, 'delivered');
    const [req] = await r.waitFor(1);
    assert.equal(req?.headers.host, `hooks.example.com:${r.port}`);
  });
});

describe('sendWebhook: connections', () => {
  it('reuses keep-alive connections: 20 sequential sends use at most 2', async () => {
    const r = await receiver();
    for (let i = 0; i < 20; i += 1) {
      const outcome = await send(r.url, { body: `{"n":${i}}` });
      assert.equal(outcome.kind, 'delivered');
    }
    assert.equal(r.requests.length, 20);
    assert.ok(r.connectionCount <= 2, `${r.connectionCount} connections`);
  });

  it('keeps the connection after 4xx and 5xx answers too', async () => {
    const r = await receiver(undefined, 'status:500');
    for (let i = 0; i < 5; i += 1) await send(r.url);
    r.setMode('status:404');
    for (let i = 0; i < 5; i += 1) await send(r.url);
    assert.ok(r.connectionCount <= 2, `${r.connectionCount} connections`);
  });

  it('sends concurrent deliveries in parallel', async () => {
    const r = await receiver(async (_req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      res.end('ok');
    });
    const started = Date.now();
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => send(r.url)));
    assert.ok(outcomes.every((o) => o.kind === 'delivered'));
    assert.ok(Date.now() - started < 1_000, `10 parallel sends took ${Date.now() - started} ms`);
  });
});

describe('describeNetworkError', () => {
  const err = (code: string, message = code): Error => Object.assign(new Error(message), { code });
  const cases: [unknown, string][] = [
    [err('EHOSTUNREACH'), 'EHOSTUNREACH'],
    [err('ENETUNREACH'), 'ENETUNREACH'],
    [err('EAI_NONAME'), 'ENOTFOUND'],
    [err('UND_ERR_CONNECT_TIMEOUT'), 'ETIMEDOUT'],
    [err('UND_ERR_HEADERS_TIMEOUT'), 'ETIMEDOUT'],
    [err('UND_ERR_BODY_TIMEOUT'), 'ETIMEDOUT'],
    [err('UND_ERR_SOCKET', 'other side closed'), 'ECONNRESET'],
    [err('EPIPE'), 'ECONNRESET'],
    [err('CERT_HAS_EXPIRED', 'certificate has expired'), 'CERT_HAS_EXPIRED'],
    [err('ERR_TLS_CERT_ALTNAME_INVALID'), 'ERR_TLS_CERT_ALTNAME_INVALID'],
    [err('ERR_SSL_WRONG_VERSION_NUMBER'), 'TLS_ERROR'],
    [err('EPROTO'), 'TLS_ERROR'],
    [err('HPE_INVALID_CONSTANT'), 'INVALID_RESPONSE'],
    // Happy eyeballs: one error per address tried.
    [new AggregateError([err('ECONNREFUSED'), err('ECONNREFUSED')], 'connect failed'), 'ECONNREFUSED'],
    [new Error('something odd'), 'NETWORK_ERROR'],
    ['a string', 'NETWORK_ERROR'],
  ];
  it('maps low-level errors to familiar codes, with messages naming the host', () => {
    for (const [error, code] of cases) {
      const failure = describeNetworkError(error, 'hooks.example.com:8443', 'request');
      assert.equal(failure.errorCode, code, String(error));
      assert.match(failure.errorMessage, /hooks\.example\.com/);
    }
  });
});

describe('validateWebhookUrl', () => {
  it('accepts public http(s) URLs', () => {
    for (const url of [
      'https://hooks.example.com/in',
      'http://example.com:8080/a?b=c',
      'https://93.184.216.34/hook',
      'https://[2606:4700::1111]/x',
      'https://localhost-hooks.example.com/',
    ]) {
      assert.deepEqual(validateWebhookUrl(url, false), { ok: true }, url);
    }
  });

  it('refuses other schemes, credentials and junk, whatever ALLOW_LOCAL_WEBHOOKS says', () => {
    for (const allow of [false, true]) {
      for (const url of [
        'ftp://example.com/',
        'file:///etc/passwd',
        'javascript:alert(1)',
        'https://user:pass@example.com/',
        'https://token@example.com/',
        'not a url',
        '',
        'http://',
      ]) {
        const verdict = validateWebhookUrl(url, allow);
        assert.equal(verdict.ok, false, `${url} (allow ${allow})`);
        assert.ok(!verdict.ok && verdict.message.length > 0);
      }
    }
  });

  const privateUrls = [
    'http://127.0.0.1/',
    'http://127.0.0.2:8080/',
    'http://2130706433/', // decimal
    'http://0177.0.0.1/', // octal
    'http://0x7f.0.0.1/', // hex
    'http://0x7f000001/',
    'http://127.1/', // short
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://0/',
    'http://[::1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://[fc00::1]/',
    'http://[fe80::1]/',
    'http://localhost/',
    'http://LOCALHOST:3000/',
    'http://localhost./',
    'http://api.localhost/',
    'http://api.localhost./',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
  ];

  it('refuses private literals in every spelling and names ending in localhost', () => {
    for (const url of privateUrls) {
      const verdict = validateWebhookUrl(url, false);
      assert.equal(verdict.ok, false, url);
      assert.ok(!verdict.ok);
      assert.match(verdict.message, /ALLOW_LOCAL_WEBHOOKS/);
    }
  });

  it('accepts them with ALLOW_LOCAL_WEBHOOKS, without any DNS lookup', () => {
    for (const url of privateUrls) assert.deepEqual(validateWebhookUrl(url, true), { ok: true }, url);
    // A name is not resolved here (the attempt does that), so an unknown one is fine.
    assert.deepEqual(validateWebhookUrl('https://no-such-receiver.invalid/', false), { ok: true });
  });
});
