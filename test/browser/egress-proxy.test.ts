// The egress proxy on its own (a Node client instead of Chromium): checked connections, refusals and their records,
// upstream proxies.
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Resolver } from '../../src/net/address-guard.js';
import { EGRESS_HEADER, EgressProxy, type EgressProxyOptions } from '../../src/browser/egress-proxy.js';
import { startBrowserSite, type BrowserSite } from '../fixtures/browser-site.js';
import { startProxy, type TestProxy } from '../fixtures/proxy-server.js';
import { refusedPort as findRefusedPort } from '../helpers/ports.js';

const PUBLIC = '93.184.215.14';
let site: BrowserSite;
let refusedPort: number;
let resolved: string[];
let dialled: string[];

const resolve: Resolver = async (host) => {
  resolved.push(host);
  if (host === 'public.test') return [{ address: PUBLIC, family: 4 }];
  if (host === 'mixed.test')
    return [
      { address: PUBLIC, family: 4 },
      { address: '192.168.1.9', family: 4 },
    ];
  if (host === 'closed.test') return [{ address: '93.184.215.15', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

function options(extra: Partial<EgressProxyOptions> = {}): EgressProxyOptions {
  return {
    resolve,
    dial: (address, port) => {
      dialled.push(`${address}:${port}`);
      if (address === PUBLIC) return { host: '127.0.0.1', port: site.port };
      if (address === '93.184.215.15') return { host: '127.0.0.1', port: refusedPort };
      return { host: address, port };
    },
    ...extra,
  };
}

/** An absolute-URI GET through the proxy. */
function get(proxy: EgressProxy, url: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  const { port } = new URL(proxy.url);
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: Number(port), path: url, headers: { host: new URL(url).host } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** CONNECT through the proxy, then (when it answers 200) a plain GET inside the tunnel. */
function tunnel(
  proxy: EgressProxy,
  authority: string,
  path = '/final',
): Promise<{ connectStatus: number; body: string }> {
  const { port } = new URL(proxy.url);
  return new Promise((resolvePromise, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`),
    );
    let data = '';
    let connectStatus = 0;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      data += chunk;
      if (connectStatus === 0) {
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) return;
        connectStatus = Number(/^HTTP\/1\.1 (\d+)/.exec(data)?.[1] ?? 0);
        data = data.slice(end + 4);
        if (connectStatus === 200)
          socket.write(`GET ${path} HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
      }
    });
    socket.on('end', () => resolvePromise({ connectStatus, body: data }));
    socket.on('error', reject);
  });
}

before(async () => {
  site = await startBrowserSite();
  refusedPort = await findRefusedPort();
});

after(async () => {
  await site.close();
});

describe('egress proxy', () => {
  let proxy: EgressProxy;
  before(async () => {
    proxy = await EgressProxy.start(options());
  });
  after(async () => {
    await proxy.close();
  });

  it('forwards plain http to the address it checked', async () => {
    resolved = [];
    dialled = [];
    const res = await get(proxy, `http://public.test:${site.port}/final`);
    assert.equal(res.status, 200);
    assert.match(res.body, /Final page/);
    assert.equal(res.headers['x-hop'], 'final');
    assert.deepEqual(resolved, ['public.test']);
    assert.deepEqual(dialled, [`${PUBLIC}:${site.port}`], 'one lookup, and the connection goes to the checked address');
  });

  it('refuses private literals, local names and names with any private address (403, recorded)', async () => {
    const before = site.requests.length;
    for (const url of [
      `${site.url}/secret`,
      `http://localhost:${site.port}/secret`,
      `http://[::1]:${site.port}/secret`,
      'http://mixed.test/secret',
    ]) {
      const res = await get(proxy, url);
      assert.equal(res.status, 403, url);
      assert.equal(res.headers[EGRESS_HEADER], 'BLOCKED_ADDRESS');
      const failure = proxy.failureFor(url);
      assert.equal(failure?.code, 'BLOCKED_ADDRESS');
      assert.match(failure.message, /ALLOW_LOCAL_TARGETS=true/);
    }
    assert.match(proxy.failureFor('http://mixed.test/')!.message, /192\.168\.1\.9/);
    assert.equal(site.requests.length, before, 'nothing reached the server');
  });

  it('tunnels CONNECT to checked addresses and refuses private ones', async () => {
    const ok = await tunnel(proxy, `public.test:${site.port}`);
    assert.equal(ok.connectStatus, 200);
    assert.match(ok.body, /Final page/);
    const refused = await tunnel(proxy, `127.0.0.1:${site.port}`);
    assert.equal(refused.connectStatus, 403);
    const v6 = await tunnel(proxy, `[::1]:${site.port}`);
    assert.equal(v6.connectStatus, 403);
    assert.equal(proxy.failureFor('https://[::1]/')?.code, 'BLOCKED_ADDRESS');
  });

  it('records names that do not resolve and refused connections', async () => {
    const dns = await get(proxy, 'http://nowhere.test/');
    assert.equal(dns.status, 502);
    assert.equal(dns.headers[EGRESS_HEADER], 'DNS_FAILURE');
    assert.equal(proxy.failureFor('http://nowhere.test/x')?.code, 'DNS_FAILURE');
    const closed = await get(proxy, 'http://closed.test/');
    assert.equal(closed.status, 502);
    assert.equal(proxy.failureFor('http://closed.test/')?.code, 'CONNECTION_REFUSED');
    const connectClosed = await tunnel(proxy, 'closed.test:443');
    assert.equal(connectClosed.connectStatus, 502);
  });
});

describe('egress proxy with an upstream proxy', () => {
  const basic = `Basic ${Buffer.from('u:p').toString('base64')}`;
  let upstream: TestProxy;
  let proxy: EgressProxy;
  before(async () => {
    upstream = await startProxy({ routes: { 'public.test': `127.0.0.1:${site.port}` }, auth: basic });
    // A proxy the operator chose (OUTBOUND_PROXY, REQUEST_PROXY_ALLOWLIST): its loopback address is allowed.
    proxy = await EgressProxy.start(
      options({ upstream: { url: new URL(upstream.url), authorization: basic, allowPrivate: true } }),
    );
  });
  after(async () => {
    await proxy.close();
    await upstream.close();
  });

  it('checks the target, then sends it through the upstream proxy with its credentials', async () => {
    const res = await get(proxy, 'http://public.test/final');
    assert.equal(res.status, 200);
    assert.match(res.body, /Final page/);
    assert.deepEqual(upstream.forwarded, ['http://public.test/final']);
    assert.equal(upstream.proxyAuthorization.at(-1), basic);
    const tunnelled = await tunnel(proxy, 'public.test:443');
    assert.equal(tunnelled.connectStatus, 200);
    assert.match(tunnelled.body, /Final page/);
    assert.deepEqual(upstream.tunnels, ['public.test:443']);
  });

  it('refuses private targets without asking the upstream proxy', async () => {
    const before = upstream.proxyAuthorization.length;
    assert.equal((await get(proxy, `${site.url}/secret`)).status, 403);
    assert.equal((await tunnel(proxy, `127.0.0.1:${site.port}`)).connectStatus, 403);
    assert.equal(upstream.proxyAuthorization.length, before);
  });

  it('an upstream proxy named by a request is guarded: a public name is dialled at its checked address, a private one is refused', async () => {
    const upstreamPort = Number(new URL(upstream.url).port);
    const proxyResolve: Resolver = async (host) => {
      if (host === 'proxy.public.test') return [{ address: '93.184.215.20', family: 4 }];
      if (host === 'proxy.private.test') return [{ address: '127.0.0.1', family: 4 }];
      return resolve(host);
    };
    const dial = (address: string, port: number): { host: string; port: number } => {
      dialled.push(`${address}:${port}`);
      return address === '93.184.215.20'
        ? { host: '127.0.0.1', port: upstreamPort }
        : { host: '127.0.0.1', port: site.port };
    };
    const upstreamAt = (host: string) => ({ url: new URL(`http://${host}:${upstreamPort}`), authorization: basic });
    const viaPublic = await EgressProxy.start({
      resolve: proxyResolve,
      dial,
      upstream: upstreamAt('proxy.public.test'),
    });
    const viaPrivate = await EgressProxy.start({
      resolve: proxyResolve,
      dial,
      upstream: upstreamAt('proxy.private.test'),
    });
    try {
      assert.equal((await get(viaPublic, 'http://public.test/final')).status, 200);
      assert.equal((await tunnel(viaPublic, 'public.test:443')).connectStatus, 200);
      assert.ok(dialled.includes(`93.184.215.20:${upstreamPort}`), 'the checked address of the proxy was dialled');

      const before = upstream.proxyAuthorization.length;
      const refused = await get(viaPrivate, 'http://public.test/final');
      assert.equal(refused.status, 403);
      assert.equal(refused.headers[EGRESS_HEADER], 'BLOCKED_ADDRESS');
      assert.equal((await tunnel(viaPrivate, 'public.test:443')).connectStatus, 403);
      const failure = viaPrivate.failureFor('https://public.test/');
      assert.equal(failure?.code, 'BLOCKED_ADDRESS');
      assert.match(
        failure?.message ?? '',
        /proxy proxy\.private\.test: it resolves to 127\.0\.0\.1.*REQUEST_PROXY_ALLOWLIST/,
      );
      assert.equal(upstream.proxyAuthorization.length, before, 'nothing reached the private proxy');
    } finally {
      await viaPublic.close();
      await viaPrivate.close();
    }
  });

  it('an upstream proxy that refuses is PROXY_ERROR', async () => {
    const refusing = await startProxy({ refuseConnect: true });
    const chained = await EgressProxy.start(options({ upstream: { url: new URL(refusing.url), allowPrivate: true } }));
    try {
      assert.equal((await tunnel(chained, 'public.test:443')).connectStatus, 502);
      assert.equal(chained.failureFor('https://public.test/')?.code, 'PROXY_ERROR');
    } finally {
      await chained.close();
      await refusing.close();
    }
  });
});
