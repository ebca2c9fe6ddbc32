// Issue 12 item 4: a proxy that answers CONNECT badly (drops it, answers a plain page, refuses and
// closes, or never answers) made undici 7 reconnect thousands of times a second long after the
// client left, and a crawl through it stayed pending forever. Every fetch must end by its deadline
// with a clear error, and connection attempts must stop when it ends.
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  closeDispatchers,
  fetchPage,
  FetchError,
  type FetchErrorCode,
  type FetchOptions,
} from '../../src/fetch/index.js';
import { waitForCrawl } from '../fixtures/crawl-site.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

type Mode = 'drop' | 'plain-200' | 'refuse-close' | 'silent';

interface BadProxy {
  url: string;
  readonly connections: number;
  close(): Promise<void>;
}

/** A "proxy" that reads the CONNECT (or request) line and answers it badly, counting connections. */
async function startBadProxy(mode: Mode): Promise<BadProxy> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', () => {
      if (mode === 'drop') socket.destroy();
      else if (mode === 'plain-200')
        socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 20\r\n\r\n<html>a page</html>\n');
      else if (mode === 'refuse-close') socket.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      // 'silent': says nothing and keeps the socket open.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Connections the proxy accepts in the 2 s after the fetch answered: at most a handful, never a loop. */
async function connectionsAfter(proxy: BadProxy): Promise<number> {
  const at = proxy.connections;
  await sleep(2_000);
  return proxy.connections - at;
}

function options(url: string, proxy: string, extra: Partial<FetchOptions> = {}): FetchOptions {
  return {
    url,
    proxy,
    timeoutMs: 4_000,
    allowPrivateAddresses: true,
    maxBytes: 1024 * 1024,
    maxRedirects: 5,
    userAgent: 'reconnect-test',
    ...extra,
  };
}

async function failsWith(opts: FetchOptions, codes: FetchErrorCode[]): Promise<{ err: FetchError; ms: number }> {
  const t0 = Date.now();
  const err = await fetchPage(opts).then(
    () => assert.fail('the fetch succeeded'),
    (e: unknown) => e,
  );
  const ms = Date.now() - t0;
  assert.ok(err instanceof FetchError, String(err));
  assert.ok(codes.includes(err.code), `expected ${codes.join('/')}, got ${err.code}: ${err.message}`);
  return { err, ms };
}

after(() => closeDispatchers());

// Each test has a proxy of its own (and so undici pools of its own) and mostly waits out the 2 s
// it watches that proxy for: the tests of a suite run side by side.
describe('fetch through a proxy that answers CONNECT badly', { concurrency: true }, () => {
  const cases: Array<[Mode, FetchErrorCode[]]> = [
    ['drop', ['PROXY_ERROR']],
    ['refuse-close', ['PROXY_ERROR']],
    // A "200" followed by a page is a tunnel to the proxy's own bytes: the TLS handshake fails on them.
    ['plain-200', ['PROXY_ERROR', 'TLS_ERROR']],
  ];
  for (const [mode, codes] of cases) {
    it(`${mode}: fails before its deadline with a clear error, and the connections stop`, async () => {
      const proxy = await startBadProxy(mode);
      try {
        const { err, ms } = await failsWith(options('https://example.test/', proxy.url), codes);
        assert.ok(ms < 4_000, `answered after ${ms} ms, past the deadline`);
        assert.doesNotMatch(err.message, /\n/);
        const later = await connectionsAfter(proxy);
        assert.ok(later <= 5, `${later} more connections reached the proxy after the fetch answered`);
        assert.ok(proxy.connections <= 10, `${proxy.connections} connections in all`);
      } finally {
        await proxy.close();
      }
    });
  }

  it('drop, plain-http target (absolute-URI forwarding): one error, no reconnect loop', async () => {
    const proxy = await startBadProxy('drop');
    try {
      await failsWith(options('http://example.test/', proxy.url), ['PROXY_ERROR', 'CONNECTION_RESET']);
      assert.ok((await connectionsAfter(proxy)) <= 5);
    } finally {
      await proxy.close();
    }
  });

  it('silent: the fetch’s deadline ends it (TIMEOUT), and nothing keeps dialling after', async () => {
    const proxy = await startBadProxy('silent');
    try {
      const { ms } = await failsWith(options('https://example.test/', proxy.url, { timeoutMs: 700 }), ['TIMEOUT']);
      assert.ok(ms < 3_000, `answered after ${ms} ms`);
      assert.ok((await connectionsAfter(proxy)) <= 5);
    } finally {
      await proxy.close();
    }
  });

  it('the caller’s abort ends the fetch at once (ABORTED), and the dialling stops with it', async () => {
    const proxy = await startBadProxy('drop');
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      await failsWith(options('https://example.test/', proxy.url, { signal: controller.signal, timeoutMs: 10_000 }), [
        'ABORTED',
        'PROXY_ERROR',
      ]);
      assert.ok((await connectionsAfter(proxy)) <= 5);
    } finally {
      await proxy.close();
    }
  });
});

describe('API: scrapes and crawls through such a proxy end', { concurrency: true }, () => {
  let t: TestApp;
  before(async () => {
    // The bad proxies listen on loopback: ALLOW_LOCAL_TARGETS lets requests name them.
    t = await startTestApp({ env: { ALLOW_LOCAL_TARGETS: 'true', CRAWL_RETRY_BASE_MS: '10' } });
  });
  after(() => t.close());

  it('a scrape answers 502 PROXY_ERROR promptly, and the proxy is left alone afterwards', async () => {
    const proxy = await startBadProxy('drop');
    try {
      const t0 = Date.now();
      const res = await t.request('POST', '/v1/scrape', {
        body: { url: 'https://example.test/', proxy: proxy.url, engine: 'cheerio', timeout: 10_000 },
      });
      assert.equal(res.statusCode, 502, res.body);
      assert.equal((res.json() as { code: string }).code, 'PROXY_ERROR');
      assert.ok(Date.now() - t0 < 10_000);
      assert.ok((await connectionsAfter(proxy)) <= 5);
    } finally {
      await proxy.close();
    }
  });

  it('a crawl ends failed with the proxy error as its reason instead of staying pending', async () => {
    const proxy = await startBadProxy('drop');
    try {
      const res = await t.request('POST', '/v1/crawl', {
        body: {
          url: 'https://example.test/',
          proxy: proxy.url,
          engine: 'cheerio',
          retry: true,
          limit: 5,
          timeout: 5_000,
        },
      });
      assert.equal(res.statusCode, 200, res.body);
      const jobId = (res.json() as { data: { job_id: string } }).data.job_id;
      const status = await waitForCrawl((u) => t.request('GET', u), jobId, 30_000);
      assert.equal(status.status, 'failed', JSON.stringify(status));
      assert.match(await jobError(t, jobId), /proxy/i);
      assert.ok((await connectionsAfter(proxy)) <= 5);
    } finally {
      await proxy.close();
    }
  });
});

/** The failure reason stored with a job (the crawl.failed event carries the same text). */
async function jobError(t: TestApp, jobId: string): Promise<string> {
  const row = await t.app.db.kysely
    .selectFrom('jobs')
    .select('error_message')
    .where('id', '=', jobId)
    .executeTakeFirstOrThrow();
  return String(row.error_message);
}
