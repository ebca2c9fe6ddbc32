// Adversarial crawl and task inputs (issue 12, item 10): private seeds refused at creation, a crawl
// that fails says why in its status, cron expressions that never run refused. SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { promises as dns } from 'node:dns';
import os from 'node:os';
import { after, before, describe, it } from 'node:test';
import { blockedTarget } from '../../src/crawl/seed-guard.js';
import { CrawlStore } from '../../src/crawl/store.js';
import { crawlRequestSchema, resolveCrawlOptions } from '../../src/crawl/schema.js';
import { isPrivateAddress, type Resolver } from '../../src/net/address-guard.js';
import { type CrawlSite, startCrawlSite, waitForCrawl } from '../fixtures/crawl-site.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

type Issue = { field: string; code: string; message: string };

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`scheduled tasks: cron expressions that never run (${backend})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({
        backend,
        clock: () => new Date('2026-11-22T10:00:30.000Z'),
        env: { SCHEDULER_TICK_MS: '60000' },
      });
    });
    after(async () => {
      await t.close();
    });

    const body = (cron: string, extra: Record<string, unknown> = {}) => ({
      name: 'never',
      cron_expression: cron,
      task_type: 'scrape',
      task_payload: { url: 'https://example.com/' },
      ...extra,
    });

    function assertCronRefused(
      res: { statusCode: number; body: string; json(): { data: { issues: Issue[] } } },
      message: RegExp,
    ): void {
      assert.equal(res.statusCode, 400, res.body);
      const issue = res.json().data.issues.find((i) => i.field === 'cron_expression');
      assert.ok(issue, res.body);
      assert.match(issue.message, message);
    }

    const never: Array<[string, RegExp]> = [
      ['0 0 30 2 *', /never runs: day 30 does not exist in February/],
      ['0 0 31 2 *', /never runs: day 31 does not exist in February/],
      ['0 0 31 4,6,9,11 *', /never runs: day 31 does not exist in April, June, September or November/],
    ];

    it('refuses them at creation with 400 on cron_expression, and saves nothing', async () => {
      for (const [cron, message] of never)
        assertCronRefused(await t.request('POST', '/v1/scheduled-tasks', { body: body(cron) }), message);
      assert.deepEqual((await t.request('GET', '/v1/scheduled-tasks')).json().data, []);
    });

    it('refuses them on update, leaving the task as it was', async () => {
      const created = await t.request('POST', '/v1/scheduled-tasks', { body: body('0 0 * * *') });
      assert.equal(created.statusCode, 201, created.body);
      const id = created.json().data.task_id as string;
      for (const [cron, message] of never)
        assertCronRefused(
          await t.request('PUT', `/v1/scheduled-tasks/${id}`, { body: { cron_expression: cron } }),
          message,
        );
      const task = (await t.request('GET', `/v1/scheduled-tasks/${id}`)).json().data;
      assert.equal(task.cron_expression, '0 0 * * *');
      assert.equal(task.next_execution_at, '2026-11-23T00:00:00.000Z');
      await t.request('DELETE', `/v1/scheduled-tasks/${id}`);
    });

    it("refuses an expression whose every time is skipped by daylight saving in the task's zone", async () => {
      // 02:xx on March 29 when it is a Sunday: always the last Sunday of March, when Berlin skips 02:00-03:00,
      // and a wildcard job (minute starts with '*') does not run in a skipped hour. In UTC it runs.
      const cron = '*/30 2 29 3 */7';
      assertCronRefused(
        await t.request('POST', '/v1/scheduled-tasks', { body: body(cron, { timezone: 'Europe/Berlin' }) }),
        /never runs in time zone Europe\/Berlin/,
      );
      const utc = await t.request('POST', '/v1/scheduled-tasks', { body: body(cron, { timezone: 'UTC' }) });
      assert.equal(utc.statusCode, 201, utc.body);
      const id = utc.json().data.task_id as string;
      assertCronRefused(
        await t.request('PUT', `/v1/scheduled-tasks/${id}`, { body: { timezone: 'Europe/Berlin' } }),
        /never runs in time zone Europe\/Berlin/,
      );
      await t.request('DELETE', `/v1/scheduled-tasks/${id}`);
    });

    it('accepts rare but real schedules, each with its next run', async () => {
      const rare: Array<[string, string]> = [
        ['0 0 29 2 *', '2028-02-29T00:00:00.000Z'], // leap years
        ['0 0 30 2 1', '2027-02-01T00:00:00.000Z'], // both day fields restricted: Mondays of February (Vixie's OR rule)
        ['0 0 31 4,6,9,11 SUN', '2026-11-29T00:00:00.000Z'],
        ['0 0 29 2 */7', '2032-02-29T00:00:00.000Z'], // Feb 29 that is a Sunday ('*/7' starts with '*': AND)
      ];
      for (const [cron, next] of rare) {
        const res = await t.request('POST', '/v1/scheduled-tasks', { body: body(cron) });
        assert.equal(res.statusCode, 201, `${cron}: ${res.body}`);
        assert.equal(res.json().data.next_execution_at, next, cron);
        await t.request('DELETE', `/v1/scheduled-tasks/${res.json().data.task_id as string}`);
      }
    });
  });
}

describe('seed check before a crawl or task is saved (blockedTarget)', () => {
  const to =
    (...addresses: string[]): Resolver =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  const guard = (resolve: Resolver, timeoutMs?: number) => ({
    allowPrivate: false,
    resolve,
    ...(timeoutMs ? { timeoutMs } : {}),
  });

  it('refuses private literals in every spelling without asking DNS', async () => {
    let asked = 0;
    const counting: Resolver = async () => {
      asked++;
      return [{ address: '93.184.216.34', family: 4 }];
    };
    for (const url of [
      'http://127.0.0.1/',
      'http://localhost:8080/',
      'http://a.localhost/',
      'http://[::1]/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:127.0.0.1]/',
      'http://[fd00::1]/',
      'http://[64:ff9b::a00:1]/',
    ]) {
      const blocked = await blockedTarget(url, guard(counting));
      assert.equal(blocked?.code, 'BLOCKED_ADDRESS', url);
      assert.match(blocked.message, /ALLOW_LOCAL_TARGETS/);
    }
    assert.equal(asked, 0);
  });

  it('refuses a name when any of its addresses is private (as the fetch would at connect time)', async () => {
    assert.match(
      (await blockedTarget('http://intranet.example/', guard(to('10.1.2.3'))))?.message ?? '',
      /intranet\.example: it resolves to 10\.1\.2\.3/,
    );
    assert.equal(
      (await blockedTarget('http://mixed.example/', guard(to('93.184.216.34', '127.0.0.1'))))?.code,
      'BLOCKED_ADDRESS',
    );
  });

  it('accepts public names and literals, names that do not resolve, and lookups that take too long', async () => {
    assert.equal(
      await blockedTarget('http://public.example/', guard(to('93.184.216.34', '2606:2800:220:1::1'))),
      undefined,
    );
    assert.equal(await blockedTarget('http://93.184.216.34/', guard(to())), undefined);
    const missing: Resolver = async (host) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    };
    assert.equal(await blockedTarget('http://nowhere.invalid/', guard(missing)), undefined);
    const started = Date.now();
    const hanging: Resolver = () => new Promise(() => undefined);
    assert.equal(await blockedTarget('http://slow.example/', guard(hanging, 100)), undefined);
    assert.ok(Date.now() - started < 2000, 'the lookup was given up after its timeout');
  });

  it('checks nothing when private targets are allowed', async () => {
    const never: Resolver = async () => assert.fail('no lookup when ALLOW_LOCAL_TARGETS is set');
    assert.equal(await blockedTarget('http://127.0.0.1/', { allowPrivate: true, resolve: never }), undefined);
    assert.equal(await blockedTarget('http://intranet.example/', { allowPrivate: true, resolve: never }), undefined);
  });
});

/** This machine's own name when it resolves to private addresses only (as in /etc/hosts), else undefined. */
async function localName(): Promise<string | undefined> {
  try {
    const addresses = await dns.lookup(os.hostname(), { all: true });
    return addresses.length > 0 &&
      addresses.every((a) => isPrivateAddress(a.address)) &&
      !os.hostname().endsWith('localhost')
      ? os.hostname()
      : undefined;
  } catch {
    return undefined;
  }
}

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`crawl seeds and task targets on a guarded deployment (${backend})`, () => {
    let t: TestApp;
    let site: CrawlSite;
    before(async () => {
      site = await startCrawlSite({ '/': { links: ['/a'] }, '/a': {} });
      t = await startTestApp({ backend, env: { ALLOW_LOCAL_TARGETS: 'false', RESPECT_ROBOTS_TXT: 'false' } });
    });
    after(async () => {
      await t.close();
      await site.close();
    });
    const get = (url: string) => t.request('GET', url);
    const crawlJobs = async () =>
      (await t.app.db.kysely.selectFrom('jobs').select('id').where('kind', '=', 'crawl').execute()).length;

    it('refuses a private seed at creation with the 400 a scrape gets, and creates no job', async () => {
      const before = await crawlJobs();
      const port = site.port;
      const urls = [
        `${site.url}/`,
        `http://localhost:${port}/`,
        `http://[::1]:${port}/`,
        `http://2130706433:${port}/`,
        `http://0x7f.1:${port}/`,
        'http://10.0.0.1/',
        'http://169.254.169.254/latest/meta-data/',
        `http://[::ffff:127.0.0.1]:${port}/`,
      ];
      const name = await localName();
      if (name) urls.push(`http://${name}:${port}/`); // a name that resolves to loopback only
      for (const url of urls) {
        const res = await t.request('POST', '/v1/crawl', { body: { url } });
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
        const json = res.json();
        assert.equal(json.success, false);
        assert.equal(json.error, 'Blocked address');
        assert.equal(json.code, 'BLOCKED_ADDRESS');
        assert.match(json.message, /^Refused to connect to .*; set ALLOW_LOCAL_TARGETS=true to allow$/);
        assert.equal(json.data.status, 'failed');
        assert.equal(typeof json.data.url, 'string');
        // The scrape's answer for the same target has the same error, code and message.
        const scrape = (await t.request('POST', '/v1/scrape', { body: { url, max_age: 0 } })).json();
        assert.deepEqual([scrape.error, scrape.code, scrape.message], [json.error, json.code, json.message], url);
      }
      assert.equal(await crawlJobs(), before, 'no crawl job was created');
      assert.equal(site.hits.size, 0, 'nothing reached the site');
    });

    it('accepts a seed whose name does not resolve, and the failed crawl says why in its status', async () => {
      const res = await t.request('POST', '/v1/crawl', { body: { url: 'http://no-such-host.invalid/' } });
      assert.equal(res.statusCode, 200, res.body);
      const status = await waitForCrawl(get, res.json().data.job_id);
      assert.equal(status.status, 'failed');
      const error = status.error as { code: string; message: string };
      assert.equal(error.code, 'DNS_FAILURE');
      assert.match(error.message, /no-such-host\.invalid/);
    });

    it('a seed refused at connect time (a name that changed its answer after creation) fails with BLOCKED_ADDRESS in its status', async () => {
      // As if the seed's name had resolved to a public address when the crawl was created and to
      // 127.0.0.1 when its page was fetched (DNS rebinding): the job exists, the fetch is refused.
      const probe = await t.request('POST', '/v1/crawl', { body: { url: 'http://no-such-host.invalid/' } });
      const owner = await t.app.db.kysely
        .selectFrom('jobs')
        .select('owner_id')
        .where('id', '=', probe.json().data.job_id)
        .executeTakeFirstOrThrow();
      const id = randomUUID();
      const seed = `${site.url}/`;
      const options = { ...resolveCrawlOptions(crawlRequestSchema.parse({ url: seed })), seed };
      await new CrawlStore(t.app.db.kysely, t.app.db.dialect).create({
        id,
        ownerId: owner.owner_id,
        options,
        request: { url: seed },
        now: new Date().toISOString(),
        retentionMs: 86_400_000,
      });
      t.app.runner?.notify();
      const status = await waitForCrawl(get, id);
      assert.equal(status.status, 'failed');
      const error = status.error as { code: string; message: string };
      assert.equal(error.code, 'BLOCKED_ADDRESS');
      assert.match(error.message, /Refused to connect to 127\.0\.0\.1.*ALLOW_LOCAL_TARGETS/);
      assert.equal(site.hits.size, 0, 'nothing reached the site');
    });

    it('refuses a private url in a scrape or crawl task payload, on create and update', async () => {
      const base = { name: 'internal', cron_expression: '0 0 * * *' };
      const cases: Array<[string, Record<string, unknown>]> = [
        ['scrape', { url: `${site.url}/` }],
        ['scrape', { url: 'http://169.254.169.254/latest/meta-data/' }],
        ['crawl', { url: 'http://[::1]/' }],
        ['crawl', { url: 'http://0x7f.1/', options: { limit: 5 } }],
      ];
      for (const [type, payload] of cases) {
        const res = await t.request('POST', '/v1/scheduled-tasks', {
          body: { ...base, task_type: type, task_payload: payload },
        });
        assert.equal(res.statusCode, 400, `${JSON.stringify(payload)}: ${res.body}`);
        const issue = (res.json().data.issues as Issue[]).find((i) => i.field === 'task_payload.url');
        assert.ok(issue, res.body);
        assert.match(issue.message, /Refused to connect to .*ALLOW_LOCAL_TARGETS=true/);
      }
      const created = await t.request('POST', '/v1/scheduled-tasks', {
        body: { ...base, task_type: 'crawl', task_payload: { url: 'http://no-such-host.invalid/' } },
      });
      assert.equal(created.statusCode, 201, created.body);
      const id = created.json().data.task_id as string;
      const updated = await t.request('PUT', `/v1/scheduled-tasks/${id}`, {
        body: { task_payload: { url: 'http://10.0.0.1/' } },
      });
      assert.equal(updated.statusCode, 400, updated.body);
      assert.ok((updated.json().data.issues as Issue[]).some((i) => i.field === 'task_payload.url'));
      assert.equal(
        (await t.request('GET', `/v1/scheduled-tasks/${id}`)).json().data.task_payload.url,
        'http://no-such-host.invalid/',
      );
      await t.request('DELETE', `/v1/scheduled-tasks/${id}`);
    });
  });
}
