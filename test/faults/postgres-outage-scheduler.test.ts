// The scheduler across a PostgreSQL outage: it goes on afterwards by itself, and no task minute runs twice.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { type SiteServer, startSiteServer } from '../fixtures/site-server.js';
import type { TcpProxy } from '../fixtures/tcp-proxy.js';
import { POSTGRES_URL, postgresDatabase, tempDir } from '../helpers/databases.js';
import { postgresUrlThrough, startPostgresProxy } from '../helpers/postgres-proxy.js';
import { type RunningService, startService } from '../helpers/process.js';

const KEY = 'outage-key';
const SPEEDUP = 60;

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

describe('the scheduler across a PostgreSQL outage (api + two workers)', () => {
  const database = postgresDatabase();
  const schema = database.target.schema as string;
  const anchor = Date.now();
  /** The services' clock: SPEEDUP times faster from the shared anchor. */
  const taskTime = (realMs: number): number => anchor + (realMs - anchor) * SPEEDUP;
  let admin: pg.Client;
  let proxy: TcpProxy;
  let site: SiteServer;
  const services: RunningService[] = [];

  before(async () => {
    admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    proxy = await startPostgresProxy();
    site = await startSiteServer();
    const env = {
      DATA_DIR: tempDir(),
      DATABASE_URL: postgresUrlThrough(proxy, schema),
      API_KEYS: KEY,
      ALLOW_LOCAL_TARGETS: 'true',
      SCHEDULER_TICK_MS: '100',
      // A task minute is a real second: the outage spans several of them.
      CLOCK_SPEEDUP: String(SPEEDUP),
      CLOCK_ANCHOR_MS: String(anchor),
    };
    services.push(await startService(env, 'api'), await startService(env, 'worker'), await startService(env, 'worker'));
  });

  after(async () => {
    for (const service of services) {
      if (service.child.exitCode === null) {
        service.child.kill('SIGTERM');
        await service.exited;
      }
    }
    await proxy?.close();
    await site?.close();
    await admin?.end();
    await database.drop();
  });

  async function minutesRun(taskId: string): Promise<string[]> {
    const { rows } = await admin.query<{ scheduled_for: string }>(
      `select scheduled_for from "${schema}".task_executions where task_id = $1 order by scheduled_for`,
      [taskId],
    );
    return rows.map((r) => String(r.scheduled_for));
  }

  it('runs the minutes after the outage, at most one catch-up for those in it, none twice', async () => {
    const res = await fetch(`${services[0]?.url}/v1/scheduled-tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'every minute',
        cron_expression: '* * * * *',
        task_type: 'scrape',
        task_payload: { url: `${site.url}/pages/article.html` },
      }),
    });
    assert.equal(res.status, 201);
    const taskId = String(((await res.json()) as { data: { task_id: string } }).data.task_id);
    for (const started = Date.now(); (await minutesRun(taskId)).length < 2;) {
      assert.ok(Date.now() - started < 10_000, 'the task ran before the outage');
      await sleep(100);
    }

    proxy.mode = 'refuse';
    proxy.cutAll();
    const outageStart = taskTime(Date.now());
    await sleep(5000); // five task minutes
    const before = await minutesRun(taskId);
    const outageEnd = taskTime(Date.now());
    proxy.mode = 'pass';

    let all = await minutesRun(taskId);
    for (const back = Date.now(); all.length < before.length + 3; all = await minutesRun(taskId)) {
      assert.ok(
        Date.now() - back < 20_000,
        `the scheduler went on after the outage: ${all.slice(before.length).join(', ')}`,
      );
      await sleep(200);
    }
    for (const service of services) assert.equal(service.child.exitCode, null, service.stdout().slice(-2000));
    assert.equal(new Set(all).size, all.length, `a minute ran twice: ${all.join(', ')}`);
    // The minutes that fell in the outage are caught up once at most (SCHEDULER_GRACE_MS), not one by one.
    const inOutage = all.filter((m) => Date.parse(m) > outageStart && Date.parse(m) < outageEnd - 60_000);
    assert.ok(inOutage.length <= 1, `minutes of the outage run: ${inOutage.join(', ')}`);
    const after = all.slice(before.length);
    const gaps = after.slice(1).map((m, i) => (Date.parse(m) - Date.parse(after[i] as string)) / 60_000);
    assert.ok(
      gaps.slice(1).every((g) => g === 1),
      `after the catch-up, one run a minute: gaps ${gaps.join(', ')}`,
    );
  });
});
