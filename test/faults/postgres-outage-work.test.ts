// Work across a PostgreSQL outage, as operators run it: api + two workers, a crawl, webhooks and a task, then the
// database goes away and comes back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { type CrawlSite, startCrawlSite, treeSitePages } from '../fixtures/crawl-site.js';
import type { TcpProxy } from '../fixtures/tcp-proxy.js';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.js';
import { POSTGRES_URL, postgresDatabase, tempDir } from '../helpers/databases.js';
import { postgresUrlThrough, startPostgresProxy } from '../helpers/postgres-proxy.js';
import { type RunningService, startService } from '../helpers/process.js';

const KEY = 'outage-key';
const PAGES = 60;
const OUTAGE_MS = 6000;

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

interface Answer {
  status: number;
  json: { success: boolean; data: Record<string, unknown> & Array<Record<string, unknown>>; next?: string };
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as Answer['json'] };
}

describe('work across a PostgreSQL outage (api + two workers)', () => {
  const database = postgresDatabase();
  const schema = database.target.schema as string;
  let admin: pg.Client;
  let proxy: TcpProxy;
  let site: CrawlSite;
  let receiver: Receiver;
  const services: Array<[string, RunningService]> = [];
  const api = (): RunningService => services[0]?.[1] as RunningService;

  before(async () => {
    admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    proxy = await startPostgresProxy();
    site = await startCrawlSite(treeSitePages(PAGES, 150));
    receiver = await startReceiver();
    const env = {
      DATA_DIR: tempDir(),
      DATABASE_URL: postgresUrlThrough(proxy, schema),
      API_KEYS: KEY,
      ALLOW_LOCAL_TARGETS: 'true',
      ALLOW_LOCAL_WEBHOOKS: 'true',
      RESPECT_ROBOTS_TXT: 'false',
      CRAWL_CONCURRENCY: '4',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_RETRY_UNIT_MS: '500',
      SCHEDULER_TICK_MS: '200',
      // A lease far longer than the time allowed to finish after the outage: a page whose lease
      // nobody lost must not wait it out.
      CRAWL_LEASE_MS: '30000',
    };
    services.push(['api', await startService(env, 'api')]);
    services.push(['worker 1', await startService(env, 'worker')]);
    services.push(['worker 2', await startService(env, 'worker')]);
  });

  after(async () => {
    for (const [, service] of services) {
      if (service.child.exitCode === null) {
        service.child.kill('SIGTERM');
        await service.exited;
      }
    }
    await proxy?.close();
    await site?.close();
    await receiver?.close();
    await admin?.end();
    await database.drop();
  });

  const alive = (): void => {
    for (const [name, service] of services) {
      assert.equal(
        service.child.exitCode,
        null,
        `${name} exited:\n${service.stdout().slice(-2000)}\n${service.stderr().slice(-2000)}`,
      );
    }
  };

  it('finishes the crawl exactly (every page once, none waiting out a lease nobody lost) and delivers its events', async () => {
    const hook = await call(api().url, 'POST', '/v1/webhooks', {
      name: 'all',
      webhook_url: receiver.url,
      event_types: ['crawl.started', 'crawl.completed'],
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.json));
    const crawl = await call(api().url, 'POST', '/v1/crawl', {
      url: `${site.url}/`,
      limit: PAGES,
      max_depth: 20,
      formats: ['markdown'],
    });
    assert.equal(crawl.status, 200, JSON.stringify(crawl.json));
    const jobId = String(crawl.json.data.job_id);

    for (let waited = 0; ; waited += 100) {
      const status = await call(api().url, 'GET', `/v1/crawl/${jobId}/status`);
      if (Number(status.json.data.completed) >= 5) break;
      assert.ok(waited < 20_000, 'the crawl got going');
      await sleep(100);
    }

    proxy.mode = 'refuse';
    proxy.cutAll();
    await sleep(OUTAGE_MS / 2);
    alive();
    const during = await call(api().url, 'GET', `/v1/crawl/${jobId}/status`);
    assert.equal(during.status, 503);
    await sleep(OUTAGE_MS / 2);
    proxy.mode = 'pass';
    const back = Date.now();

    let final: Answer;
    for (;;) {
      final = await call(api().url, 'GET', `/v1/crawl/${jobId}/status`).catch(
        () => ({ status: 0, json: { success: false, data: {} } }) as unknown as Answer,
      );
      if (final.status === 200 && final.json.data.status !== 'pending') break;
      assert.ok(Date.now() - back < 20_000, `the crawl ended within 20 s of the outage: ${JSON.stringify(final.json)}`);
      alive();
      await sleep(200);
    }
    assert.equal(final.json.data.status, 'completed', JSON.stringify(final.json.data));
    assert.equal(final.json.data.total, PAGES);
    assert.equal(final.json.data.completed, PAGES, JSON.stringify(final.json.data));
    const urls: string[] = [];
    for (let skip = 0; ; skip += 100) {
      const page = await call(api().url, 'GET', `/v1/crawl/${jobId}?skip=${skip}`);
      urls.push(...(page.json.data as unknown as Array<{ url: string }>).map((r) => r.url));
      if (!page.json.next) break;
    }
    assert.equal(new Set(urls).size, PAGES, 'every page once');
    assert.equal(urls.length, PAGES, 'no page twice');

    const completedHooks = async (): Promise<number> =>
      receiver.requests.filter((r) => r.headers['x-webhook-event'] === 'crawl.completed' && r.body.includes(jobId))
        .length;
    for (const started = Date.now(); (await completedHooks()) === 0;) {
      assert.ok(Date.now() - started < 15_000, 'crawl.completed was delivered');
      await sleep(100);
    }
  });
});
