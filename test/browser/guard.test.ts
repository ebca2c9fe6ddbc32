// The private-address guard in rendered pages, both engines: main document, redirect hops, sub-resources, iframes,
// fetch.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Resolver } from '../../src/net/address-guard.js';
import { createBrowserPool, type ChromiumPool } from '../../src/browser/index.js';
import { startBrowserSite, type BrowserSite } from '../fixtures/browser-site.js';
import { CHROMIUM, ENGINES, expectFailure, request } from './helpers.js';

/**
 * Everything runs on 127.0.0.1, which the guard refuses. So the tests give the pool a resolver in
 * which `public.test` has a public address (93.184.215.14), and Chromium reaches that "public"
 * host through the pool's test hook that dials 93.184.215.14 at the local site.
 */
const PUBLIC_ADDRESS = '93.184.215.14';
// No test here waits for a timeout: the budget only has to outlast opening a page on a loaded machine
// (the full suite runs both engines' browsers at once; a fresh-clone CI run saw a page take over 6 s to open).
const GUARDED_BUDGET_MS = 45_000;
const resolve: Resolver = async (host) => {
  if (host === 'public.test') return [{ address: PUBLIC_ADDRESS, family: 4 }];
  if (host === 'rebind.test')
    return [
      { address: PUBLIC_ADDRESS, family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
  const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${host}`);
  err.code = 'ENOTFOUND';
  throw err;
};

let site: BrowserSite;
let pool: ChromiumPool;
/** Request interception alone, without the egress proxy: Chromium resolves `public.test` by a host rule. */
let interceptionOnly: ChromiumPool;

before(async () => {
  site = await startBrowserSite();
  pool = createBrowserPool(
    { executablePath: CHROMIUM, maxBrowsers: 1, maxPages: 4, pagesPerBrowser: 500, launchTimeoutMs: 30_000 },
    {
      resolve,
      dial: (address, port) =>
        address === PUBLIC_ADDRESS ? { host: '127.0.0.1', port: site.port } : { host: address, port },
    },
  );
  interceptionOnly = createBrowserPool(
    { executablePath: CHROMIUM, maxBrowsers: 1, maxPages: 4, pagesPerBrowser: 500, launchTimeoutMs: 30_000 },
    { resolve, egressProxy: false, extraArgs: ['--host-resolver-rules=MAP public.test 127.0.0.1'] },
  );
});

after(async () => {
  await interceptionOnly.close();
  await pool.close();
  await site.close();
});

const publicUrl = (path: string): string => `http://public.test:${site.port}${path}`;

describe('guard', { concurrency: true }, () => {
  for (const engine of ENGINES) {
    describe(engine, { concurrency: 1 }, () => {
      const guarded = (url: string) =>
        request(engine, url, { allowPrivateAddresses: false, timeoutMs: GUARDED_BUDGET_MS });

      it('refuses a main document on a private literal (BLOCKED_ADDRESS naming host and setting), nothing reaches the server', async () => {
        // Only this path counts: the other engine's lane requests other pages meanwhile.
        const before = site.count('/secret');
        const { error } = await expectFailure(pool.render(guarded(`${site.url}/secret?main`)), 'BLOCKED_ADDRESS');
        assert.match(error.message, /127\.0\.0\.1/);
        assert.match(error.message, /ALLOW_LOCAL_TARGETS=true/);
        assert.equal(error.url, `${site.url}/secret?main`);
        assert.equal(site.count('/secret'), before);
      });

      it('refuses localhost and names with any private address', async () => {
        await expectFailure(pool.render(guarded(`http://localhost:${site.port}/secret`)), 'BLOCKED_ADDRESS');
        const { error } = await expectFailure(
          pool.render(guarded(`http://rebind.test:${site.port}/secret`)),
          'BLOCKED_ADDRESS',
        );
        assert.match(error.message, /rebind\.test.*10\.0\.0\.7/);
        assert.equal(site.count('/secret'), 0);
      });

      it('renders an allowed page whose script, iframe and fetch point at a private address, without sending those requests', async () => {
        const tag = `${engine}-sub`;
        const page = await pool.render(
          guarded(publicUrl(`/guarded?tag=${tag}&target=${encodeURIComponent(site.url)}`)),
        );
        assert.equal(page.statusCode, 200);
        assert.match(page.html, /<h1>Guarded page<\/h1>/);
        assert.match(page.html, /fetch refused/);
        assert.ok(
          site.requests.some((r) => r.includes(`tag=${tag}`)),
          'the allowed page was served',
        );
        assert.equal(site.count('/secret'), 0, 'no refused request reached the server');
      });

      it('checks every redirect hop of the main document', async () => {
        const to = encodeURIComponent(`${site.url}/secret?via=redirect-${engine}`);
        const { error } = await expectFailure(
          pool.render(guarded(publicUrl(`/redirect?n=2&to=${to}`))),
          'BLOCKED_ADDRESS',
        );
        assert.match(error.message, /127\.0\.0\.1/);
        assert.ok(site.requests.includes('/redirect?n=2&to=' + to), 'the first hop was allowed');
        assert.equal(site.count('/secret'), 0, 'the private hop was never requested');
      });

      it('a click that navigates to a private address is refused (BLOCKED_ADDRESS), the request never sent', async () => {
        const { error } = await expectFailure(
          pool.render({
            ...guarded(publicUrl(`/link-out?target=${encodeURIComponent(site.url)}`)),
            actions: [
              { type: 'click', selector: '#out', all: false },
              { type: 'wait', milliseconds: 500 },
            ],
          }),
          'BLOCKED_ADDRESS',
        );
        assert.match(error.message, /127\.0\.0\.1/);
        assert.equal(site.count('/secret'), 0);
      });

      it('a script action cannot fetch a private address either', async () => {
        const page = await pool.render({
          ...guarded(publicUrl('/final')),
          actions: [
            {
              type: 'execute_javascript',
              script: `try { await fetch(${JSON.stringify(`${site.url}/secret?via=action`)}); return 'sent'; } catch { return 'refused'; }`,
            },
          ],
        });
        assert.deepEqual(page.actions?.javascriptReturns, [{ type: 'string', value: 'refused' }]);
        assert.equal(site.count('/secret'), 0);
      });

      it('a redirect between allowed hosts is followed', async () => {
        const page = await pool.render(guarded(publicUrl('/redirect?n=2')));
        assert.equal(page.finalUrl, publicUrl('/final'));
        assert.equal(page.statusCode, 200);
      });

      it('guards every render of a reused session: an allowed page, then a private one with the same key', async () => {
        const key = `${engine}-guarded-job`;
        const allowed = await pool.render({ ...guarded(publicUrl('/final')), reuseKey: key });
        assert.equal(allowed.statusCode, 200);
        // Per engine: the other engine's lane runs the same test at the same time.
        const before = pool.stats().byEngine[engine].sessionsReused;
        await expectFailure(pool.render({ ...guarded(`${site.url}/secret?reused`), reuseKey: key }), 'BLOCKED_ADDRESS');
        assert.equal(pool.stats().byEngine[engine].sessionsReused, before + 1, 'the second render reused the session');
        const to = encodeURIComponent(`${site.url}/secret?via=reused-redirect-${engine}`);
        await expectFailure(
          pool.render({ ...guarded(publicUrl(`/redirect?n=1&to=${to}`)), reuseKey: key }),
          'BLOCKED_ADDRESS',
        );
        assert.equal(site.count('/secret'), 0);
      });

      it('with the guard lifted, private addresses are rendered', async () => {
        const page = await pool.render(request(engine, `${site.url}/final`, { allowPrivateAddresses: true }));
        assert.equal(page.statusCode, 200);
      });
    });
  }
});

describe('request interception alone (no egress proxy)', { concurrency: true }, () => {
  for (const engine of ENGINES) {
    describe(engine, { concurrency: 1 }, () => {
      const guarded = (url: string) =>
        request(engine, url, { allowPrivateAddresses: false, timeoutMs: GUARDED_BUDGET_MS });

      it('refuses the main document and the sub-resources, iframes and fetches to private addresses', async () => {
        await expectFailure(interceptionOnly.render(guarded(`${site.url}/secret?main`)), 'BLOCKED_ADDRESS');
        const tag = `${engine}-interception`;
        const page = await interceptionOnly.render(
          guarded(publicUrl(`/guarded?tag=${tag}&target=${encodeURIComponent(site.url)}`)),
        );
        assert.match(page.html, /fetch refused/);
        assert.ok(site.requests.some((r) => r.includes(`tag=${tag}`)));
        assert.equal(site.count('/secret'), 0);
      });

      it(
        engine === 'puppeteer'
          ? 'sees redirect hops: a private hop is refused'
          : 'does not see redirect hops (Playwright continues them itself), which is why guarded renders use the egress proxy',
        async () => {
          const marker = `via=interception-redirect-${engine}`;
          const to = encodeURIComponent(`${site.url}/final?${marker}`);
          const rendering = interceptionOnly.render(guarded(publicUrl(`/redirect?n=1&to=${to}`)));
          if (engine === 'puppeteer') {
            await expectFailure(rendering, 'BLOCKED_ADDRESS');
            assert.equal(site.requests.filter((r) => r.includes(marker)).length, 0);
          } else {
            const page = await rendering;
            assert.equal(page.statusCode, 200);
            assert.equal(site.requests.filter((r) => r.includes(marker)).length, 1, 'the hop reached the server');
          }
        },
      );
    });
  }
});
