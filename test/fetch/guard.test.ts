// Tests that fetchPage applies the private-address guard to literal hosts and to names at connect time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Resolver } from '../../src/net/address-guard.js';
import { closeDispatchers, fetchPage, FetchError, type FetchOptions } from '../../src/fetch/index.js';
import { startSiteServer, type SiteServer } from '../fixtures/site-server.js';

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
    allowPrivateAddresses: false,
    maxBytes: 1024 * 1024,
    maxRedirects: 5,
    userAgent: 'guard-test',
    ...extra,
  };
}

const totalHits = (): number => [...site.hits.values()].reduce((a, b) => a + b, 0);

async function assertBlocked(opts: FetchOptions, pattern?: RegExp): Promise<FetchError> {
  const before = totalHits();
  const err = await fetchPage(opts).then(
    () => assert.fail(`expected BLOCKED_ADDRESS for ${opts.url}`),
    (e: unknown) => e,
  );
  assert.ok(err instanceof FetchError);
  assert.equal(err.code, 'BLOCKED_ADDRESS', err.message);
  assert.match(err.message, /ALLOW_LOCAL_TARGETS=true/);
  if (pattern) assert.match(err.message, pattern);
  assert.equal(totalHits(), before, 'nothing may reach the server');
  return err;
}

const literalHosts = [
  '127.0.0.1',
  '2130706433',
  '0177.0.0.1',
  '0x7f.0.0.1',
  '0x7f000001',
  '127.1',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '0.0.0.0',
  'localhost',
  'LOCALHOST.',
  'app.localhost',
];

describe('literal hosts', () => {
  for (const host of literalHosts) {
    it(`refuses http://${host}:<port>/`, async () => {
      await assertBlocked(options(`http://${host}:${site.port}/`));
    });
  }

  // The same spellings really reach the loopback server when the guard is lifted: they are not
  // refused for being malformed but for where they lead.
  for (const host of ['2130706433', '0177.0.0.1', '0x7f.0.0.1', '127.1', '[::ffff:127.0.0.1]']) {
    it(`reaches the server through http://${host}:<port>/ with allowPrivateAddresses`, async () => {
      const page = await fetchPage(options(`http://${host}:${site.port}/`, { allowPrivateAddresses: true }));
      assert.equal(page.statusCode, 200);
    });
  }
});

describe('names resolved at connect time', () => {
  const loopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

  it('refuses a name that resolves to 127.0.0.1', async () => {
    await assertBlocked(
      options(`http://evil.test:${site.port}/`, { resolve: loopback }),
      /evil\.test: it resolves to 127\.0\.0\.1/,
    );
  });

  it('refuses a name when any one of its addresses is private', async () => {
    const mixed: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '::ffff:10.0.0.1', family: 6 },
    ];
    await assertBlocked(options(`http://mixed.test:${site.port}/`, { resolve: mixed }), /::ffff:10\.0\.0\.1/);
  });

  it('connects to the name with allowPrivateAddresses', async () => {
    const page = await fetchPage(
      options(`http://intranet.test:${site.port}/`, { resolve: loopback, allowPrivateAddresses: true }),
    );
    assert.equal(page.statusCode, 200);
    assert.equal(page.finalUrl, `http://intranet.test:${site.port}/`);
  });
});
