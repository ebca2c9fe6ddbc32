// Tests of fetchPage against the local fixture site: redirects, timeouts, size cap, compression, charsets, types,
// errors.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  closeDispatchers,
  fetchPage,
  FetchError,
  type FetchErrorCode,
  type FetchOptions,
} from '../../src/fetch/index.js';
import {
  COMPRESSED_TEXT,
  GBK_TEXT,
  LATIN1_TEXT,
  SJIS_TEXT,
  startSiteServer,
  type SiteServer,
} from '../fixtures/site-server.js';

let site: SiteServer;
before(async () => {
  site = await startSiteServer();
});
after(async () => {
  await site.close();
  await closeDispatchers();
});

function options(path: string, extra: Partial<FetchOptions> = {}): FetchOptions {
  return {
    url: path.startsWith('http') ? path : site.url + path,
    timeoutMs: 5_000,
    allowPrivateAddresses: true,
    maxBytes: 5 * 1024 * 1024,
    maxRedirects: 10,
    userAgent: 'fetch-test/1.0',
    ...extra,
  };
}

async function fetchFails(opts: FetchOptions, code: FetchErrorCode): Promise<FetchError> {
  try {
    await fetchPage(opts);
  } catch (err) {
    assert.ok(err instanceof FetchError, `expected a FetchError, got ${String(err)}`);
    assert.equal(err.code, code, `expected ${code}, got ${err.code}: ${err.message}`);
    assert.doesNotMatch(err.message, /\n\s+at /, 'message must not contain a stack');
    return err;
  }
  assert.fail(`expected ${code}, but the fetch succeeded`);
}

describe('basic fetch', () => {
  it('returns status, media type, headers, body, charset and size', async () => {
    const page = await fetchPage(options('/'));
    assert.equal(page.statusCode, 200);
    assert.equal(page.sourceUrl, `${site.url}/`);
    assert.equal(page.finalUrl, `${site.url}/`);
    assert.deepEqual(page.redirects, []);
    assert.equal(page.contentType, 'text/html');
    assert.equal(page.charset, 'utf-8');
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(page.body, /<h1>Fixture site<\/h1>/);
    assert.equal(page.bytes, Buffer.byteLength(page.body));
  });

  it('normalizes the source URL', async () => {
    const page = await fetchPage(options(`${site.url.toUpperCase().replace('HTTP', 'http')}/./a/../`));
    assert.equal(page.sourceUrl, `${site.url}/`);
  });

  it('sends the user agent, compression support and caller headers', async () => {
    const page = await fetchPage(options('/echo-headers', { headers: { 'X-Test': 'yes', Accept: 'text/html' } }));
    const sent = JSON.parse(page.body) as Record<string, string>;
    assert.equal(sent['user-agent'], 'fetch-test/1.0');
    assert.equal(sent['accept-encoding'], 'gzip, deflate, br');
    assert.equal(sent['x-test'], 'yes');
    assert.equal(sent['accept'], 'text/html');
  });

  it('returns 4xx and 5xx pages normally with their status', async () => {
    for (const status of [404, 410, 500, 503]) {
      const page = await fetchPage(options(`/status/${status}`));
      assert.equal(page.statusCode, status);
      assert.match(page.body, new RegExp(`Status ${status}`));
    }
  });

  it('reuses keep-alive connections across calls', async () => {
    let connections = 0;
    const server = createServer((_req, res) => res.end('<html><body>ok</body></html>')).on(
      'connection',
      () => connections++,
    );
    const url = await listen(server);
    try {
      for (let i = 0; i < 20; i++) await fetchPage(options(url));
      // undici's Pool opens a second socket on the second request; after that they are reused.
      assert.ok(connections <= 2, `${connections} connections for 20 requests`);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('URLs', () => {
  for (const url of [
    'ftp://example.com/',
    'file:///etc/passwd',
    'data:text/html,hi',
    'javascript:alert(1)',
    'not a url',
    '',
  ]) {
    it(`refuses ${JSON.stringify(url)} as INVALID_URL`, async () => {
      await fetchFails(options('/', { url }), 'INVALID_URL');
    });
  }
});

describe('redirects', () => {
  it('follows a chain of relative Locations and reports every hop', async () => {
    const page = await fetchPage(options('/redirect/3'));
    assert.deepEqual(page.redirects, [
      `${site.url}/redirect/2`,
      `${site.url}/redirect/1`,
      `${site.url}/pages/article.html`,
    ]);
    assert.equal(page.finalUrl, `${site.url}/pages/article.html`);
    assert.equal(page.sourceUrl, `${site.url}/redirect/3`);
  });

  it('stops a loop with TOO_MANY_REDIRECTS after maxRedirects hops', async () => {
    const before = site.hits.get('/redirect-loop') ?? 0;
    await fetchFails(options('/redirect-loop', { maxRedirects: 5 }), 'TOO_MANY_REDIRECTS');
    assert.equal((site.hits.get('/redirect-loop') ?? 0) - before, 6);
  });

  it('allows exactly maxRedirects hops', async () => {
    const page = await fetchPage(options('/redirect/3', { maxRedirects: 3 }));
    assert.equal(page.redirects.length, 3);
    await fetchFails(options('/redirect/3', { maxRedirects: 2 }), 'TOO_MANY_REDIRECTS');
  });

  it('refuses a redirect to a non-http scheme as INVALID_URL', async () => {
    for (const target of ['ftp://example.com/x', 'file:///etc/passwd', 'javascript:alert(1)']) {
      await fetchFails(options(`/redirect-to?url=${encodeURIComponent(target)}`), 'INVALID_URL');
    }
  });

  it('drops credentials when a redirect leaves the origin', async () => {
    const other = 'other-origin.test';
    const target = `http://${other}:${site.port}/echo-headers`;
    const page = await fetchPage(
      options(`/redirect-to?url=${encodeURIComponent(target)}`, {
        headers: { Authorization: 'Bearer secret', 'X-Keep': 'kept' },
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      }),
    );
    const sent = JSON.parse(page.body) as Record<string, string>;
    assert.equal(sent['authorization'], undefined);
    assert.equal(sent['x-keep'], 'kept');
    assert.equal(page.finalUrl, target);
  });
});

describe('timeouts and cancellation', () => {
  it('times out on a server that never answers', async () => {
    const start = Date.now();
    const err = await fetchFails(options('/hang', { timeoutMs: 1_000 }), 'TIMEOUT');
    const elapsed = Date.now() - start;
    assert.ok(elapsed >= 950 && elapsed < 2_500, `elapsed ${elapsed} ms`);
    assert.match(err.message, /1000 ms/);
  });

  it('times out on a body that trickles in', async () => {
    const start = Date.now();
    await fetchFails(options('/slow-body', { timeoutMs: 1_500 }), 'TIMEOUT');
    const elapsed = Date.now() - start;
    assert.ok(elapsed >= 1_450 && elapsed < 3_000, `elapsed ${elapsed} ms`);
  });

  it('counts redirects into the same deadline', async () => {
    const start = Date.now();
    await fetchFails(options(`/redirect-to?url=${encodeURIComponent('/slow?ms=3000')}`, { timeoutMs: 800 }), 'TIMEOUT');
    assert.ok(Date.now() - start < 2_300);
  });

  it('succeeds when the answer comes before the deadline', async () => {
    const page = await fetchPage(options('/slow?ms=200', { timeoutMs: 2_000 }));
    assert.equal(page.statusCode, 200);
  });

  it('reports a caller cancellation as ABORTED', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const start = Date.now();
    await fetchFails(options('/hang', { timeoutMs: 10_000, signal: controller.signal }), 'ABORTED');
    assert.ok(Date.now() - start < 1_500);
    await fetchFails(options('/', { signal: AbortSignal.abort() }), 'ABORTED');
  });

  it('closes the socket when it gives up', async () => {
    const closed = new Promise<void>((resolve) => {
      const server = createServer((req) =>
        req.socket.on('close', () => {
          server.close();
          resolve();
        }),
      );
      void listen(server).then((url) => fetchFails(options(url, { timeoutMs: 300 }), 'TIMEOUT'));
    });
    await withDeadline(closed, 2_000, 'server socket still open after TIMEOUT');
  });
});

describe('size cap', () => {
  it('stops a streamed body at maxBytes', async () => {
    const start = Date.now();
    const err = await fetchFails(options('/huge?mb=50', { maxBytes: 1024 * 1024 }), 'TOO_LARGE');
    assert.match(err.message, /1048576 bytes/);
    assert.ok(Date.now() - start < 2_000, 'must stop reading, not download 50 MB');
  });

  it('refuses early when Content-Length already exceeds maxBytes', async () => {
    await fetchFails(options('/huge?mb=2&cl=1', { maxBytes: 1024 * 1024 }), 'TOO_LARGE');
  });

  it('accepts a body under the cap', async () => {
    const page = await fetchPage(options('/huge?mb=1', { maxBytes: 2 * 1024 * 1024 }));
    assert.ok(page.bytes > 1024 * 1024 && page.bytes < 2 * 1024 * 1024);
    assert.match(page.body, /<\/html>\n$/);
  });

  it('applies the cap to decompressed bytes (gzip bomb)', async () => {
    const before = process.memoryUsage().rss;
    await fetchFails(options('/gzip-bomb', { maxBytes: 2 * 1024 * 1024 }), 'TOO_LARGE');
    // The fixture's own 60 MB build happens in this process, so only a loose bound is meaningful.
    assert.ok(process.memoryUsage().rss - before < 200 * 1024 * 1024);
  });

  it('closes the socket when the cap is hit', async () => {
    const closed = new Promise<void>((resolve) => {
      const server = createServer((req, res) => {
        req.socket.on('close', () => {
          server.close();
          resolve();
        });
        res.writeHead(200, { 'content-type': 'text/html' });
        const timer = setInterval(() => res.write(Buffer.alloc(64 * 1024, 0x61)), 5);
        res.on('close', () => clearInterval(timer));
      });
      void listen(server).then((url) => fetchFails(options(url, { maxBytes: 256 * 1024 }), 'TOO_LARGE'));
    });
    await withDeadline(closed, 2_000, 'server socket still open after TOO_LARGE');
  });
});

describe('decompression', () => {
  for (const path of ['/gzip', '/deflate', '/deflate-raw', '/br']) {
    it(`decodes ${path}`, async () => {
      const page = await fetchPage(options(path));
      assert.ok(page.body.includes(COMPRESSED_TEXT));
      assert.equal(page.bytes, Buffer.byteLength(page.body));
      assert.ok(page.bytes > 1000);
    });
  }
});

describe('charsets', () => {
  it('decodes windows-1252 declared as iso-8859-1 in the header', async () => {
    const page = await fetchPage(options('/latin1'));
    assert.equal(page.charset, 'windows-1252');
    assert.ok(page.body.includes(LATIN1_TEXT), page.body);
  });
  it('decodes windows-1252 declared only in <meta charset>', async () => {
    const page = await fetchPage(options('/latin1-meta'));
    assert.equal(page.charset, 'windows-1252');
    assert.ok(page.body.includes(LATIN1_TEXT));
  });
  it('falls back to windows-1252 for undeclared bytes that are not UTF-8', async () => {
    const page = await fetchPage(options('/latin1-undeclared'));
    assert.equal(page.charset, 'windows-1252');
    assert.ok(page.body.includes(LATIN1_TEXT));
  });
  it('prefers UTF-8 for undeclared bytes that are valid UTF-8', async () => {
    const page = await fetchPage(options('/utf8-undeclared'));
    assert.equal(page.charset, 'utf-8');
    assert.ok(page.body.includes(LATIN1_TEXT));
  });
  it('decodes Shift_JIS', async () => {
    const page = await fetchPage(options('/sjis'));
    assert.equal(page.charset, 'shift_jis');
    assert.ok(page.body.includes(SJIS_TEXT));
  });
  it('decodes GBK declared with <meta http-equiv>', async () => {
    const page = await fetchPage(options('/gbk'));
    assert.equal(page.charset, 'gbk');
    assert.ok(page.body.includes(GBK_TEXT));
  });
});

describe('content types', () => {
  it('accepts text/plain and application/json as text', async () => {
    const text = await fetchPage(options('/plain.txt'));
    assert.equal(text.contentType, 'text/plain');
    assert.equal(text.body, 'Just plain text.\n');
    const json = await fetchPage(options('/json'));
    assert.equal(json.contentType, 'application/json');
    assert.deepEqual(JSON.parse(json.body), { ok: true, text: 'héllo' });
  });
  it('accepts a body without Content-Type that looks like HTML', async () => {
    const page = await fetchPage(options('/no-content-type'));
    assert.equal(page.contentType, 'text/html');
    assert.match(page.body, /no content type/);
  });
  it('refuses a body without Content-Type that is not HTML', async () => {
    await fetchFails(options('/no-content-type-binary'), 'UNSUPPORTED_CONTENT_TYPE');
  });
  for (const path of ['/file.pdf', '/image.png']) {
    it(`refuses ${path} with its status code`, async () => {
      const err = await fetchFails(options(path), 'UNSUPPORTED_CONTENT_TYPE');
      assert.equal(err.statusCode, 200);
      assert.equal(err.url, site.url + path);
    });
  }
  it('returns an error page in a binary type with its status and no body', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.alloc(100));
    });
    const url = await listen(server);
    try {
      const page = await fetchPage(options(url));
      assert.equal(page.statusCode, 404);
      assert.equal(page.contentType, 'application/octet-stream');
      assert.equal(page.body, '');
    } finally {
      server.close();
    }
  });
});

describe('network errors', () => {
  it('reports an unknown name as DNS_FAILURE', async () => {
    const err = await fetchFails(options('http://no-such-host.invalid/'), 'DNS_FAILURE');
    assert.match(err.message, /no-such-host\.invalid/);
  });
  it('reports a closed port as CONNECTION_REFUSED', async () => {
    const server = createServer();
    const url = await listen(server);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const err = await fetchFails(options(url), 'CONNECTION_REFUSED');
    assert.match(err.message, /127\.0\.0\.1:\d+/);
  });
  it('reports a connection dropped before the answer as CONNECTION_RESET', async () => {
    const server = createServer((req) => req.socket.destroy());
    const url = await listen(server);
    try {
      await fetchFails(options(url), 'CONNECTION_RESET');
    } finally {
      server.close();
    }
  });
  it('reports a corrupt or unknown Content-Encoding as NETWORK_ERROR', async () => {
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': req.url === '/zstd' ? 'zstd' : 'gzip' });
      res.end('this is not compressed');
    });
    const url = await listen(server);
    try {
      const corrupt = await fetchFails(options(url), 'NETWORK_ERROR');
      assert.match(corrupt.message, /decompress/);
      const unknown = await fetchFails(options(`${url}zstd`), 'NETWORK_ERROR');
      assert.match(unknown.message, /zstd/);
    } finally {
      server.close();
    }
  });
  it('reports a self-signed certificate as TLS_ERROR', async () => {
    const server = createTlsServer({ key: readFileSync(TLS_KEY), cert: readFileSync(TLS_CERT) }, (_req, res) =>
      res.end('hi'),
    );
    const url = (await listen(server)).replace('http:', 'https:');
    try {
      const err = await fetchFails(options(url), 'TLS_ERROR');
      assert.match(err.message, /127\.0\.0\.1/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

const TLS_KEY = new URL('../fixtures/site/selfsigned-key.pem', import.meta.url);
const TLS_CERT = new URL('../fixtures/site/selfsigned-cert.pem', import.meta.url);

async function listen(server: Server): Promise<string> {
  server.on('connection', (socket: Socket) => socket.on('error', () => undefined));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

async function withDeadline<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
