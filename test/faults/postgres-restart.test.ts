// A PostgreSQL restart as processes see it: every connection terminated by the server, or cut. No process may exit.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { TcpProxy } from '../fixtures/tcp-proxy.js';
import { POSTGRES_URL, postgresDatabase, tempDir } from '../helpers/databases.js';
import { postgresUrlThrough, startPostgresProxy } from '../helpers/postgres-proxy.js';
import { type RunningService, startService } from '../helpers/process.js';

const KEY = 'fault-key';
const database = postgresDatabase();
const schema = database.target.schema as string;

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** A request that needs the database: an unknown crawl is a 404 read from the store. */
async function storeAnswers(api: RunningService): Promise<number> {
  const res = await fetch(`${api.url}/v1/crawl/${randomUUID()}/status`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  await res.arrayBuffer();
  return res.status;
}

async function eventually(what: string, budgetMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + budgetMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    assert.ok(Date.now() < deadline, `${what} within ${budgetMs} ms`);
    await sleep(100);
  }
}

describe('PostgreSQL restarts and outages', () => {
  let admin: pg.Client;
  let proxy: TcpProxy;
  let api: RunningService;
  let worker: RunningService;

  before(async () => {
    admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    proxy = await startPostgresProxy();
    const env = {
      DATA_DIR: tempDir(),
      DATABASE_URL: postgresUrlThrough(proxy, schema),
      API_KEYS: KEY,
      WEBHOOK_POLL_MS: '50',
      SCHEDULER_TICK_MS: '100',
    };
    api = await startService(env, 'api');
    worker = await startService(env, 'worker');
  });

  after(async () => {
    for (const service of [api, worker]) {
      if (service && service.child.exitCode === null) {
        service.child.kill('SIGTERM');
        await service.exited;
      }
    }
    await proxy?.close();
    await admin?.end();
    await database.drop();
  });

  const alive = (): void => {
    for (const [name, service] of [
      ['api', api],
      ['worker', worker],
    ] as const) {
      assert.equal(
        service.child.exitCode,
        null,
        `the ${name} process exited:\n${service.stdout().slice(-3000)}\n${service.stderr().slice(-3000)}`,
      );
    }
  };

  it('keeps api and worker running when the server terminates their sessions (a fast restart)', async () => {
    await eventually('the store answers through the proxy', 5000, async () => (await storeAnswers(api)) === 404);
    const ports = proxy.upstreamPorts();
    assert.ok(ports.length >= 2, 'both processes hold sessions');
    const killed = await admin.query<{ pid: number }>(
      'select pg_terminate_backend(pid) as ok, pid from pg_stat_activity where client_port = any($1::int[]) and pid <> pg_backend_pid()',
      [ports],
    );
    assert.ok(killed.rows.length >= 2, `terminated ${killed.rows.length} sessions`);
    await sleep(1500);
    alive();
    await eventually(
      'a request that needs the store succeeds again',
      5000,
      async () => (await storeAnswers(api)) === 404,
    );
    alive();
    for (const service of [api, worker]) {
      const lost = service
        .stdout()
        .split('\n')
        .filter((line) => line.includes('database connection lost'));
      assert.equal(lost.length, 1, 'the burst of broken connections is logged once');
    }
  });

  it('keeps api and worker running when every connection is cut at once', async () => {
    await eventually('the store answers', 5000, async () => (await storeAnswers(api)) === 404);
    proxy.cutAll();
    await sleep(1500);
    alive();
    await eventually(
      'a request that needs the store succeeds again',
      5000,
      async () => (await storeAnswers(api)) === 404,
    );
    alive();
  });

  for (const mode of ['refuse', 'blackhole'] as const) {
    it(`answers 503 DATABASE_UNAVAILABLE within 5 s during an outage (${mode}), /health says so, and all is back after it`, async () => {
      await eventually('the store answers', 5000, async () => (await storeAnswers(api)) === 404);
      proxy.mode = mode;
      proxy.cutAll();
      try {
        const started = Date.now();
        const res = await fetch(`${api.url}/v1/crawl/${randomUUID()}/status`, {
          headers: { authorization: `Bearer ${KEY}` },
        });
        const body = (await res.json()) as { success: boolean; error: string; code: string; message: string };
        assert.ok(Date.now() - started < 5000, `answered after ${Date.now() - started} ms`);
        assert.equal(res.status, 503);
        assert.equal(body.success, false);
        assert.equal(body.code, 'DATABASE_UNAVAILABLE');
        assert.ok(Number(res.headers.get('retry-after')) > 0, 'Retry-After');

        const create = await fetch(`${api.url}/v1/crawl`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: 'https://example.com/' }),
        });
        assert.equal(create.status, 503, 'a create during the outage is refused, not half-done');

        const health = await fetch(`${api.url}/health`);
        const report = (await health.json()) as { success: boolean; status: string; database?: string };
        assert.equal(health.status, 503);
        assert.equal(report.success, false);
        assert.match(JSON.stringify(report), /database/i);
        alive();
      } finally {
        proxy.mode = 'pass';
      }
      await eventually('/health is 200 again', 5000, async () => (await fetch(`${api.url}/health`)).status === 200);
      await eventually(
        'a request that needs the store succeeds again',
        5000,
        async () => (await storeAnswers(api)) === 404,
      );
      alive();
    });
  }
});
