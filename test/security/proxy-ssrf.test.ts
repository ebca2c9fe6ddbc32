// Issue 12 item 1: a request's `proxy` is an outbound connection like any other. A key holder must not
// reach loopback, private or link-local addresses by naming them as the proxy (HTTP engine, crawls
// with their robots.txt, browser engines, scheduled tasks); operators keep OUTBOUND_PROXY and
// REQUEST_PROXY_ALLOWLIST for proxies of their own choosing.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createBrowserPool, type ChromiumPool } from '../../src/browser/index.js';
import { loadConfig, ConfigError } from '../../src/config.js';
import {
  chooseProxy,
  parseAllowlistEntry,
  ProxyNotAllowedError,
  requestProxyRefusal,
  type Resolver,
} from '../../src/net/address-guard.js';
import { closeDispatchers, fetchPage, FetchError, type FetchOptions } from '../../src/fetch/index.js';
import { CHROMIUM, expectFailure, request as renderRequest } from '../browser/helpers.js';
import { waitForCrawl } from '../fixtures/crawl-site.js';
import { startProxy, type TestProxy } from '../fixtures/proxy-server.js';
import { startSiteServer, type SiteServer } from '../fixtures/site-server.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** A public address in the requests; the test proxies route it (and public.test) to the local site. */
const PUBLIC_IP = '93.184.216.34';

/** Names the tests make resolve somewhere: public ones (for targets) and ones that lead to loopback. */
const resolve: Resolver = async (host) => {
  if (host === 'public.test') return [{ address: PUBLIC_IP, family: 4 }];
  if (host === 'proxy-loopback.test') return [{ address: '127.0.0.1', family: 4 }];
  if (host === 'proxy-v6-loopback.test') return [{ address: '::1', family: 6 }];
  // One private address among public ones is enough to refuse the name.
  if (host === 'proxy-mixed.test')
    return [
      { address: '93.184.216.35', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
  if (host === 'proxy-metadata.test') return [{ address: '169.254.169.254', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

let site: SiteServer;
let proxy: TestProxy;
let proxyV6: TestProxy | undefined;
let port: number;

before(async () => {
  site = await startSiteServer();
  const routes = { [PUBLIC_IP]: `127.0.0.1:${site.port}`, 'public.test': `127.0.0.1:${site.port}` };
  proxy = await startProxy({ routes });
  port = Number(new URL(proxy.url).port);
  // The same port on ::1 when the machine has IPv6 loopback, so [::1] would really reach a proxy.
  proxyV6 = await startProxy({ routes, host: '::1' }).catch(() => undefined);
});

after(async () => {
  await proxy.close();
  await proxyV6?.close();
  await site.close();
  await closeDispatchers();
});

/** Connections all test proxies have accepted so far. */
function proxyConnections(): number {
  return proxy.connections + (proxyV6?.connections ?? 0);
}

/** Every spelling of "a proxy on this machine or the private network" a request may try. */
function privateProxies(): string[] {
  const v6Port = proxyV6 ? new URL(proxyV6.url).port : String(port);
  return [
    `http://127.0.0.1:${port}`,
    `http://localhost:${port}`,
    `http://LOCALHOST.:${port}`,
    `http://[::1]:${v6Port}`,
    `http://2130706433:${port}`,
    `http://0x7f.1:${port}`,
    `http://[::ffff:127.0.0.1]:${port}`,
    `http://user:secret@127.0.0.1:${port}`,
    'http://169.254.169.254:80',
    'http://10.0.0.1:3128',
  ];
}

describe('HTTP engine: a request proxy on a private address is refused before any connection', () => {
  const guarded = (url: string, proxyUrl: string, extra: Partial<FetchOptions> = {}): FetchOptions => ({
    url,
    proxy: proxyUrl,
    timeoutMs: 5_000,
    allowPrivateAddresses: false,
    maxBytes: 1024 * 1024,
    maxRedirects: 5,
    userAgent: 'proxy-ssrf-test',
    resolve,
    ...extra,
  });

  async function refused(opts: FetchOptions): Promise<FetchError> {
    const err = await fetchPage(opts).then(
      () => assert.fail(`the fetch through ${opts.proxy} succeeded`),
      (e: unknown) => e,
    );
    assert.ok(err instanceof FetchError, String(err));
    assert.equal(err.code, 'BLOCKED_ADDRESS', `${opts.proxy}: ${err.code} ${err.message}`);
    assert.match(err.message, /proxy/i);
    assert.match(err.message, /REQUEST_PROXY_ALLOWLIST/);
    assert.doesNotMatch(err.message, /secret/);
    return err;
  }

  it('literals and local names (plain-http and https targets)', async () => {
    const before = proxyConnections();
    for (const p of privateProxies()) {
      await refused(guarded(`http://${PUBLIC_IP}/`, p));
      await refused(guarded('https://public.test/', p));
    }
    assert.equal(proxyConnections(), before, 'no refused proxy saw a connection');
  });

  it('names that resolve to loopback, link-local, or a private address among public ones (checked at connect time)', async () => {
    const before = proxyConnections();
    for (const name of ['proxy-loopback.test', 'proxy-v6-loopback.test', 'proxy-mixed.test', 'proxy-metadata.test']) {
      const err = await refused(guarded(`http://${PUBLIC_IP}/`, `http://${name}:${port}`));
      assert.match(err.message, new RegExp(name.replace(/\./g, '\\.')));
      await refused(guarded('https://public.test/', `http://${name}:${port}`));
    }
    assert.equal(proxyConnections(), before);
  });

  it('gives one answer whether or not something listens on the private port (no port scan)', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const open = await refused(guarded(`http://${PUBLIC_IP}/`, `http://127.0.0.1:${port}`));
    const shut = await refused(guarded(`http://${PUBLIC_IP}/`, `http://127.0.0.1:${closedPort}`));
    assert.equal(shut.message.replace(String(closedPort), 'PORT'), open.message.replace(String(port), 'PORT'));
  });

  it('a proxy the operator allowed (allow-listed, OUTBOUND_PROXY, ALLOW_LOCAL_TARGETS) is used', async () => {
    const page = await fetchPage(guarded(`http://${PUBLIC_IP}/`, proxy.url, { proxyAllowPrivate: true }));
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Fixture site/);
    // The guard on targets still holds behind an allowed proxy.
    const err = await fetchPage(guarded(`${site.url}/`, proxy.url, { proxyAllowPrivate: true })).catch(
      (e: unknown) => e,
    );
    assert.ok(err instanceof FetchError && err.code === 'BLOCKED_ADDRESS', String(err));
  });
});

describe('API: a private proxy is refused at creation with the validation shape', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { ALLOW_LOCAL_TARGETS: 'false' }, resolve });
  });
  after(() => t.close());

  function assertRefused(
    res: { statusCode: number; json(): unknown; body: string },
    field: string,
    label: string,
  ): void {
    assert.equal(res.statusCode, 400, `${label}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    const body = res.json() as {
      success: boolean;
      error: string;
      data: { type: string; issues: Array<{ field: string; message: string }> };
    };
    assert.equal(body.error, 'Validation error', label);
    assert.equal(body.data.type, 'validation_error');
    const issue = body.data.issues.find((i) => i.field === field);
    assert.ok(issue, `${label}: no issue on ${field}: ${JSON.stringify(body.data.issues)}`);
    assert.match(issue.message, /REQUEST_PROXY_ALLOWLIST/);
    assert.doesNotMatch(res.body, /secret/);
  }

  it('scrape', async () => {
    const before = proxyConnections();
    for (const p of privateProxies()) {
      for (const engine of ['cheerio', 'auto']) {
        const res = await t.request('POST', '/v1/scrape', {
          body: { url: `http://${PUBLIC_IP}/`, proxy: p, engine, timeout: 5_000 },
        });
        assertRefused(res, 'proxy', `scrape ${engine} via ${p}`);
      }
    }
    assert.equal(proxyConnections(), before);
  });

  it('crawl: top level and scrape_options', async () => {
    for (const p of privateProxies()) {
      assertRefused(
        await t.request('POST', '/v1/crawl', { body: { url: `http://${PUBLIC_IP}/`, proxy: p } }),
        'proxy',
        `crawl via ${p}`,
      );
      assertRefused(
        await t.request('POST', '/v1/crawl', { body: { url: `http://${PUBLIC_IP}/`, scrape_options: { proxy: p } } }),
        'proxy',
        `crawl scrape_options via ${p}`,
      );
    }
  });

  it('scheduled task payloads (scrape and crawl)', async () => {
    const base = { name: 'proxy', cron_expression: '* * * * *' };
    for (const p of privateProxies()) {
      assertRefused(
        await t.request('POST', '/v1/scheduled-tasks', {
          body: { ...base, task_type: 'scrape', task_payload: { url: `http://${PUBLIC_IP}/`, proxy: p } },
        }),
        'task_payload.proxy',
        `scrape task via ${p}`,
      );
      assertRefused(
        await t.request('POST', '/v1/scheduled-tasks', {
          body: {
            ...base,
            task_type: 'crawl',
            task_payload: { url: `http://${PUBLIC_IP}/`, options: { scrape_options: { proxy: p } } },
          },
        }),
        'task_payload.options.proxy',
        `crawl task via ${p}`,
      );
    }
  });

  it('a name that resolves to loopback passes creation but is refused when the scrape connects', async () => {
    const before = proxyConnections();
    const res = await t.request('POST', '/v1/scrape', {
      body: {
        url: `http://${PUBLIC_IP}/`,
        proxy: `http://proxy-loopback.test:${port}`,
        engine: 'cheerio',
        timeout: 5_000,
      },
    });
    assert.equal(res.statusCode, 400, res.body);
    const body = res.json() as { code: string; message: string };
    assert.equal(body.code, 'BLOCKED_ADDRESS');
    assert.match(body.message, /proxy-loopback\.test: it resolves to 127\.0\.0\.1/);
    assert.equal(proxyConnections(), before);
  });

  it('a crawl (robots.txt included) through a name that resolves to loopback fails with the reason, and never reaches the proxy', async () => {
    const before = proxyConnections();
    const res = await t.request('POST', '/v1/crawl', {
      body: { url: `http://${PUBLIC_IP}/`, proxy: `http://proxy-loopback.test:${port}`, limit: 3 },
    });
    assert.equal(res.statusCode, 200, res.body);
    const jobId = (res.json() as { data: { job_id: string } }).data.job_id;
    const status = await waitForCrawl((u) => t.request('GET', u), jobId);
    assert.equal(status.status, 'failed', JSON.stringify(status));
    assert.match(await jobError(t, jobId), /proxy-loopback\.test: it resolves to 127\.0\.0\.1/);
    assert.equal(proxyConnections(), before);
  });
});

describe('browser engine: the egress proxy refuses a private upstream proxy', () => {
  let pool: ChromiumPool;
  before(() => {
    pool = createBrowserPool(
      { executablePath: CHROMIUM, maxBrowsers: 1, maxPages: 2, pagesPerBrowser: 500, launchTimeoutMs: 30_000 },
      { resolve },
    );
  });
  after(() => pool.close());

  it('literals and names resolving to loopback, before the proxy sees a connection', { timeout: 60_000 }, async () => {
    const before = proxyConnections();
    for (const p of [
      `http://127.0.0.1:${port}`,
      `http://localhost:${port}`,
      `http://[::1]:${port}`,
      `http://proxy-loopback.test:${port}`,
      `http://proxy-mixed.test:${port}`,
    ]) {
      const { error } = await expectFailure(
        pool.render(renderRequest('playwright', 'http://public.test/', { proxy: p, allowPrivateAddresses: false })),
        'BLOCKED_ADDRESS',
      );
      assert.match(error.message, /proxy/i, p);
    }
    const { error } = await expectFailure(
      pool.render(
        renderRequest('puppeteer', 'https://public.test/', {
          proxy: `http://proxy-loopback.test:${port}`,
          allowPrivateAddresses: false,
        }),
      ),
      'BLOCKED_ADDRESS',
    );
    assert.match(error.message, /REQUEST_PROXY_ALLOWLIST/);
    assert.equal(proxyConnections(), before);
  });
});

describe('operator settings', () => {
  it('OUTBOUND_PROXY: every target request (and robots.txt) goes through the operator’s proxy, which may be private', async () => {
    const operator = await startProxy({ routes: { [PUBLIC_IP]: `127.0.0.1:${site.port}` } });
    const t = await startTestApp({ env: { ALLOW_LOCAL_TARGETS: 'false', OUTBOUND_PROXY: operator.url } });
    try {
      const res = await t.request('POST', '/v1/scrape', {
        body: { url: `http://${PUBLIC_IP}/`, engine: 'cheerio', timeout: 5_000 },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.body, /Fixture site/);
      assert.ok(operator.forwarded.includes(`http://${PUBLIC_IP}/`));

      const crawl = await t.request('POST', '/v1/crawl', { body: { url: `http://${PUBLIC_IP}/`, limit: 2 } });
      assert.equal(crawl.statusCode, 200, crawl.body);
      const status = await waitForCrawl(
        (u) => t.request('GET', u),
        (crawl.json() as { data: { job_id: string } }).data.job_id,
      );
      assert.equal(status.status, 'completed', JSON.stringify(status));
      assert.ok(
        operator.forwarded.includes(`http://${PUBLIC_IP}/robots.txt`),
        'robots.txt went through the operator proxy',
      );

      // Targets are still guarded behind the operator's proxy.
      const local = await t.request('POST', '/v1/scrape', { body: { url: `${site.url}/`, engine: 'cheerio' } });
      assert.equal(local.statusCode, 400, local.body);

      // A request may not route around the operator's proxy with one of its own.
      const own = await t.request('POST', '/v1/scrape', {
        body: { url: `http://${PUBLIC_IP}/`, proxy: 'http://93.184.216.35:3128' },
      });
      assert.equal(own.statusCode, 400, own.body);
      assert.match(own.body, /OUTBOUND_PROXY/);
    } finally {
      await t.close();
      await operator.close();
    }
  });

  it('REQUEST_PROXY_ALLOWLIST: requests may name the listed private proxies, and only those', async () => {
    const listed = await startProxy({ routes: { [PUBLIC_IP]: `127.0.0.1:${site.port}` } });
    const listedPort = new URL(listed.url).port;
    const operator = await startProxy({ routes: { [PUBLIC_IP]: `127.0.0.1:${site.port}` } });
    const t = await startTestApp({
      env: { ALLOW_LOCAL_TARGETS: 'false', REQUEST_PROXY_ALLOWLIST: ` 127.0.0.1:${listedPort} , localhost:9` },
    });
    const withOperator = await startTestApp({
      env: {
        ALLOW_LOCAL_TARGETS: 'false',
        REQUEST_PROXY_ALLOWLIST: `127.0.0.1:${listedPort}`,
        OUTBOUND_PROXY: operator.url,
      },
    });
    try {
      const ok = await t.request('POST', '/v1/scrape', {
        body: { url: `http://${PUBLIC_IP}/`, proxy: `http://user:pw@127.0.0.1:${listedPort}`, engine: 'cheerio' },
      });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.ok(listed.forwarded.includes(`http://${PUBLIC_IP}/`));
      // Same host, another port: not listed.
      const other = await t.request('POST', '/v1/scrape', {
        body: { url: `http://${PUBLIC_IP}/`, proxy: `http://127.0.0.1:${port}` },
      });
      assert.equal(other.statusCode, 400, other.body);
      const crawl = await t.request('POST', '/v1/crawl', {
        body: { url: `http://${PUBLIC_IP}/`, scrape_options: { proxy: `http://127.0.0.1:${listedPort}` }, limit: 1 },
      });
      assert.equal(crawl.statusCode, 200, crawl.body);

      // With OUTBOUND_PROXY too, a listed proxy replaces the operator's for that request.
      const before = operator.forwarded.length;
      const via = await withOperator.request('POST', '/v1/scrape', {
        body: { url: `http://${PUBLIC_IP}/?via=listed`, proxy: listed.url, engine: 'cheerio' },
      });
      assert.equal(via.statusCode, 200, via.body);
      assert.ok(listed.forwarded.includes(`http://${PUBLIC_IP}/?via=listed`));
      assert.equal(operator.forwarded.length, before);
    } finally {
      await t.close();
      await withOperator.close();
      await listed.close();
      await operator.close();
    }
  });

  it('ALLOW_LOCAL_TARGETS=true lifts the guard on request proxies too (intranet deployments)', async () => {
    const t = await startTestApp({ env: { ALLOW_LOCAL_TARGETS: 'true' } });
    try {
      const res = await t.request('POST', '/v1/scrape', {
        body: { url: `http://${PUBLIC_IP}/`, proxy: proxy.url, engine: 'cheerio' },
      });
      assert.equal(res.statusCode, 200, res.body);
    } finally {
      await t.close();
    }
  });

  it('the policy: which proxy a fetch uses, and which a request may name', () => {
    const guarded = { allowlist: ['10.0.0.5:3128', 'proxy.internal:80'], allowPrivate: false };
    const operator = { ...guarded, outboundProxy: 'http://10.0.0.9:3128' };
    assert.deepEqual(chooseProxy(undefined, guarded), undefined);
    assert.deepEqual(chooseProxy('http://93.184.216.35:3128', guarded), {
      url: 'http://93.184.216.35:3128',
      allowPrivate: false,
    });
    assert.deepEqual(chooseProxy('http://u:p@10.0.0.5:3128', guarded), {
      url: 'http://u:p@10.0.0.5:3128',
      allowPrivate: true,
    });
    assert.deepEqual(chooseProxy('http://PROXY.internal', guarded), {
      url: 'http://PROXY.internal',
      allowPrivate: true,
    });
    assert.deepEqual(chooseProxy(undefined, operator), { url: 'http://10.0.0.9:3128', allowPrivate: true });
    assert.deepEqual(chooseProxy('http://10.0.0.5:3128', operator), {
      url: 'http://10.0.0.5:3128',
      allowPrivate: true,
    });
    // A job stored before OUTBOUND_PROXY was set: refused when it runs, not sent around the operator's proxy.
    assert.throws(() => chooseProxy('http://93.184.216.35:3128', operator), ProxyNotAllowedError);
    assert.equal(requestProxyRefusal('http://93.184.216.35:3128', guarded), undefined);
    assert.equal(
      requestProxyRefusal('http://proxy.example:3128', guarded),
      undefined,
      'names are checked when connecting',
    );
    assert.equal(
      requestProxyRefusal('http://0x0a.0.0.5:3128', guarded),
      undefined,
      'allow-listed, in another spelling',
    );
    assert.match(
      requestProxyRefusal('http://0x0a.0.0.5:3129', guarded) ?? '',
      /Refused to connect to proxy 10\.0\.0\.5:3129 \(private address\)/,
    );
    assert.equal(requestProxyRefusal('http://0x0a.0.0.5:3129', { ...guarded, allowPrivate: true }), undefined);
    assert.match(requestProxyRefusal('http://10.0.0.5:3129', operator) ?? '', /OUTBOUND_PROXY/);
    assert.equal(parseAllowlistEntry(' [FD00::5]:3128 '), '[fd00::5]:3128');
    assert.equal(parseAllowlistEntry('0x7f.1:80'), '127.0.0.1:80');
    assert.equal(parseAllowlistEntry('127.0.0.1'), undefined);
  });

  it('bad settings are refused at start', () => {
    for (const [name, value] of [
      ['REQUEST_PROXY_ALLOWLIST', '127.0.0.1'],
      ['REQUEST_PROXY_ALLOWLIST', 'http://127.0.0.1:3128'],
      ['REQUEST_PROXY_ALLOWLIST', '127.0.0.1:99999'],
      ['OUTBOUND_PROXY', 'socks5://127.0.0.1:1080'],
      ['OUTBOUND_PROXY', 'not a url'],
    ] as const) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (e: unknown) => e instanceof ConfigError && e.message.includes(name),
        `${name}=${value}`,
      );
    }
    assert.doesNotMatch(
      (() => {
        try {
          loadConfig({ OUTBOUND_PROXY: 'ftp://user:hunter2@proxy:21' });
          return '';
        } catch (e) {
          return String(e);
        }
      })(),
      /hunter2/,
      'the operator proxy’s credentials are not echoed',
    );
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
