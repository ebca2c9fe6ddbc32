// Tests of fetchPage through an HTTP proxy (absolute-URI forwarding and CONNECT) and of the guard in proxy mode.
import assert from 'node:assert/strict';
import { createServer as createTlsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Resolver } from '../../src/net/address-guard.js';
import {
  closeDispatchers,
  fetchPage,
  FetchError,
  type FetchErrorCode,
  type FetchOptions,
} from '../../src/fetch/index.js';
import { startSiteServer, type SiteServer } from '../fixtures/site-server.js';
import { startProxy, type TestProxy } from '../fixtures/proxy-server.js';

let site: SiteServer;
before(async () => {
  site = await startSiteServer();
});
after(async () => {
  await site.close();
  await closeDispatchers();
});

function options(url: string, extra: Partial<FetchOptions> = {}): FetchOptions {
  return {
    url,
    timeoutMs: 3_000,
    allowPrivateAddresses: true,
    maxBytes: 1024 * 1024,
    maxRedirects: 5,
    userAgent: 'proxy-test',
    ...extra,
  };
}

async function fetchFails(opts: FetchOptions, code: FetchErrorCode): Promise<FetchError> {
  const err = await fetchPage(opts).then(
    () => assert.fail(`expected ${code}`),
    (e: unknown) => e,
  );
  assert.ok(err instanceof FetchError, String(err));
  assert.equal(err.code, code, err.message);
  return err;
}

describe('proxy', () => {
  it('forwards a plain-http fetch through the proxy (absolute URI)', async () => {
    const proxy = await startProxy();
    try {
      const before = site.hits.get('/') ?? 0;
      const page = await fetchPage(options(`${site.url}/`, { proxy: proxy.url }));
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /Fixture site/);
      assert.deepEqual(proxy.forwarded, [`${site.url}/`]);
      assert.equal(site.hits.get('/'), before + 1);
    } finally {
      await proxy.close();
    }
  });

  it('sends every redirect hop through the proxy', async () => {
    const proxy = await startProxy();
    try {
      const page = await fetchPage(options(`${site.url}/redirect/2`, { proxy: proxy.url }));
      assert.equal(page.redirects.length, 2);
      assert.deepEqual(proxy.forwarded, [
        `${site.url}/redirect/2`,
        `${site.url}/redirect/1`,
        `${site.url}/pages/article.html`,
      ]);
    } finally {
      await proxy.close();
    }
  });

  it('sends user:pass from the proxy URL as Proxy-Authorization', async () => {
    const expected = `Basic ${Buffer.from('user:p@ss word').toString('base64')}`;
    const proxy = await startProxy({ auth: expected });
    try {
      const proxyUrl = proxy.url.replace('http://', `http://user:${encodeURIComponent('p@ss word')}@`);
      const page = await fetchPage(options(`${site.url}/`, { proxy: proxyUrl }));
      assert.equal(page.statusCode, 200);
      assert.equal(proxy.proxyAuthorization[0], expected);
    } finally {
      await proxy.close();
    }
  });

  it('reports missing proxy credentials (407) as PROXY_ERROR', async () => {
    const proxy = await startProxy({ auth: 'Basic nope' });
    try {
      await fetchFails(options(`${site.url}/`, { proxy: proxy.url }), 'PROXY_ERROR');
    } finally {
      await proxy.close();
    }
  });

  it('tunnels https targets with CONNECT', async () => {
    const tls = createTlsServer(
      {
        key: readFileSync(new URL('../fixtures/site/selfsigned-key.pem', import.meta.url)),
        cert: readFileSync(new URL('../fixtures/site/selfsigned-cert.pem', import.meta.url)),
      },
      (_req, res) => res.end('<html><body>secure</body></html>'),
    );
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const tlsPort = (tls.address() as AddressInfo).port;
    const proxy = await startProxy();
    try {
      // The certificate is self-signed, so the TLS handshake made through the tunnel fails:
      // that it fails with TLS_ERROR (not a proxy error) shows the tunnel itself worked.
      const err = await fetchFails(options(`https://127.0.0.1:${tlsPort}/`, { proxy: proxy.url }), 'TLS_ERROR');
      assert.match(err.message, /self-signed|certificate/i);
      assert.deepEqual(proxy.tunnels, [`127.0.0.1:${tlsPort}`]);
      assert.deepEqual(proxy.forwarded, []);
    } finally {
      await proxy.close();
      tls.closeAllConnections();
      tls.close();
    }
  });

  it('reports a refused CONNECT as PROXY_ERROR', async () => {
    const proxy = await startProxy({ refuseConnect: true });
    try {
      const err = await fetchFails(options('https://example.test/', { proxy: proxy.url }), 'PROXY_ERROR');
      assert.match(err.message, /127\.0\.0\.1:\d+/);
    } finally {
      await proxy.close();
    }
  });

  it('reports a proxy that refuses the connection as PROXY_ERROR, without its credentials', async () => {
    const proxy = await startProxy();
    const url = proxy.url;
    await proxy.close();
    const err = await fetchFails(
      options(`${site.url}/`, { proxy: url.replace('http://', 'http://user:secret@') }),
      'PROXY_ERROR',
    );
    assert.doesNotMatch(err.message, /secret/);
  });

  it('refuses a proxy URL that is not http(s)', async () => {
    await fetchFails(options(`${site.url}/`, { proxy: 'ftp://127.0.0.1:21' }), 'PROXY_ERROR');
    await fetchFails(options(`${site.url}/`, { proxy: 'not a url' }), 'PROXY_ERROR');
  });
});

describe('address guard through a proxy', () => {
  // "public.test" resolves (for us) to a public address; the test proxy routes it to the fixture.
  // The proxy itself listens on 127.0.0.1: a private proxy the operator chose (OUTBOUND_PROXY,
  // REQUEST_PROXY_ALLOWLIST) is allowed (proxyAllowPrivate). Request proxies: test/security/proxy-ssrf.test.ts.
  const resolve: Resolver = async (host) => {
    if (host === 'public.test') return [{ address: '93.184.216.34', family: 4 }];
    if (host === 'rebind.test') return [{ address: '10.1.2.3', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };
  let proxy: TestProxy;
  let publicBase: string;
  before(async () => {
    proxy = await startProxy({
      routes: { 'public.test': `127.0.0.1:${site.port}`, 'rebind.test': `127.0.0.1:${site.port}` },
    });
    publicBase = `http://public.test:${site.port}`;
  });
  after(() => proxy.close());

  const guarded = (url: string): FetchOptions =>
    options(url, { proxy: proxy.url, proxyAllowPrivate: true, allowPrivateAddresses: false, resolve });

  it('fetches a public target through a proxy on a private address', async () => {
    const page = await fetchPage(guarded(`${publicBase}/`));
    assert.equal(page.statusCode, 200);
    assert.ok(proxy.forwarded.includes(`${publicBase}/`));
  });

  it('refuses a private literal target before anything reaches the proxy', async () => {
    const before = proxy.forwarded.length + proxy.tunnels.length;
    for (const url of [
      `${site.url}/`,
      `http://0x7f.1:${site.port}/`,
      `https://[::1]/`,
      `http://localhost:${site.port}/`,
    ]) {
      await fetchFails(guarded(url), 'BLOCKED_ADDRESS');
    }
    assert.equal(proxy.forwarded.length + proxy.tunnels.length, before);
  });

  it('resolves the target name itself and refuses a private answer', async () => {
    const before = proxy.forwarded.length;
    const err = await fetchFails(guarded(`http://rebind.test:${site.port}/`), 'BLOCKED_ADDRESS');
    assert.match(err.message, /rebind\.test: it resolves to 10\.1\.2\.3/);
    assert.equal(proxy.forwarded.length, before);
  });

  it('refuses a redirect hop to a private address', async () => {
    for (const target of [
      `http://127.0.0.1:${site.port}/`,
      `http://rebind.test:${site.port}/`,
      `http://[::ffff:7f00:1]:${site.port}/`,
    ]) {
      const start = proxy.forwarded.length;
      const err = await fetchFails(
        guarded(`${publicBase}/redirect-to?url=${encodeURIComponent(target)}`),
        'BLOCKED_ADDRESS',
      );
      assert.equal(err.url, target);
      // Only the first hop went out.
      assert.equal(proxy.forwarded.length - start, 1);
    }
  });

  it('follows a redirect between public hops', async () => {
    const page = await fetchPage(
      guarded(`${publicBase}/redirect-to?url=${encodeURIComponent(`${publicBase}/plain.txt`)}`),
    );
    assert.equal(page.finalUrl, `${publicBase}/plain.txt`);
    assert.equal(page.body, 'Just plain text.\n');
  });

  it('reports a target name that does not resolve as DNS_FAILURE', async () => {
    await fetchFails(guarded(`http://unknown.invalid/`), 'DNS_FAILURE');
  });
});
