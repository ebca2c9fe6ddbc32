// The render's `proxy` option, both engines: credentials, guarded renders chained through the egress proxy, proxy
// failures.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Resolver } from '../../src/net/address-guard.js';
import { createBrowserPool, type ChromiumPool } from '../../src/browser/index.js';
import { startBrowserSite, type BrowserSite } from '../fixtures/browser-site.js';
import { startProxy, type TestProxy } from '../fixtures/proxy-server.js';
import { CHROMIUM, ENGINES, expectFailure, request } from './helpers.js';

const BASIC = `Basic ${Buffer.from('agent:s3cret').toString('base64')}`;
/** `proxied.test` is a public name; only the test proxy knows that it leads to the local site. */
const resolve: Resolver = async (host) => {
  if (host === 'proxied.test') return [{ address: '93.184.215.14', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

let site: BrowserSite;
let proxy: TestProxy;
let pool: ChromiumPool;

before(async () => {
  site = await startBrowserSite();
  proxy = await startProxy({ routes: { 'proxied.test': `127.0.0.1:${site.port}` }, auth: BASIC });
  pool = createBrowserPool(
    { executablePath: CHROMIUM, maxBrowsers: 1, maxPages: 4, pagesPerBrowser: 500, launchTimeoutMs: 30_000 },
    { resolve },
  );
});

after(async () => {
  await pool.close();
  await proxy.close();
  await site.close();
});

const proxyWithAuth = (): string => proxy.url.replace('http://', 'http://agent:s3cret@');
// The test proxy listens on loopback: as a proxy the operator chose (OUTBOUND_PROXY, REQUEST_PROXY_ALLOWLIST),
// its address is allowed. A request's own private proxy is refused: test/security/proxy-ssrf.test.ts.
const chosen = { proxyAllowPrivate: true } as const;

describe('proxy', { concurrency: true }, () => {
  for (const engine of ENGINES) {
    describe(engine, { concurrency: 1 }, () => {
      it('sends every request through the proxy with the URL’s credentials (guard lifted: the context’s own proxy)', async () => {
        const url = `http://proxied.test/final?engine=${engine}&mode=direct`;
        const page = await pool.render(request(engine, url, { proxy: proxyWithAuth() }));
        assert.equal(page.statusCode, 200);
        assert.match(page.html, /Final page/);
        assert.ok(proxy.forwarded.includes(url), 'the proxy forwarded the page');
        assert.ok(proxy.proxyAuthorization.includes(BASIC), 'the credentials reached the proxy');
      });

      it('guarded render: the target is checked, then reached through the proxy with the credentials', async () => {
        const url = `http://proxied.test/final?engine=${engine}&mode=guarded`;
        const page = await pool.render(
          request(engine, url, { proxy: proxyWithAuth(), allowPrivateAddresses: false, ...chosen }),
        );
        assert.equal(page.statusCode, 200);
        assert.match(page.html, /Final page/);
        assert.ok(proxy.forwarded.includes(url));
      });

      it('guarded render: a private target or redirect hop is refused before the proxy sees it', async () => {
        await expectFailure(
          pool.render(
            request(engine, `${site.url}/secret`, { proxy: proxyWithAuth(), allowPrivateAddresses: false, ...chosen }),
          ),
          'BLOCKED_ADDRESS',
        );
        const to = encodeURIComponent(`${site.url}/secret?via=proxy-${engine}`);
        const first = `http://proxied.test/redirect?n=1&to=${to}`;
        await expectFailure(
          pool.render(request(engine, first, { proxy: proxyWithAuth(), allowPrivateAddresses: false, ...chosen })),
          'BLOCKED_ADDRESS',
        );
        assert.ok(proxy.forwarded.includes(first), 'the allowed first hop went through the proxy');
        assert.deepEqual(
          proxy.forwarded.filter((u) => u.includes('/secret')),
          [],
          'the private hop never reached the proxy',
        );
        assert.equal(site.count('/secret'), 0);
      });

      it('a proxy that cannot be reached is PROXY_ERROR', async () => {
        const dead = 'http://127.0.0.1:9';
        const { error } = await expectFailure(
          pool.render(request(engine, 'http://proxied.test/final', { proxy: dead })),
          'PROXY_ERROR',
        );
        assert.doesNotMatch(error.message, /s3cret/);
        await expectFailure(
          pool.render(
            request(engine, 'http://proxied.test/final', { proxy: dead, allowPrivateAddresses: false, ...chosen }),
          ),
          'PROXY_ERROR',
        );
      });
    });
  }
});
