// Two scheduler processes on one database fire every occurrence exactly once; a killed one leaves nothing running
// forever.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { type CrawlSite, startCrawlSite } from '../fixtures/crawl-site.js';
import { POSTGRES_URL, postgresDatabase, tempDir } from '../helpers/databases.js';
import { type RunningService, startService } from '../helpers/process.js';

const KEY = 'sched-key';
let site: CrawlSite;
before(async () => {
  site = await startCrawlSite({ '/': {}, '/slow': { delayMs: 4000 } });
});
after(async () => {
  await site.close();
});

async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> & { data: Record<string, unknown> } }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return {
    status: res.status,
    json: (await res.json()) as Record<string, unknown> & { data: Record<string, unknown> },
  };
}

const fires = (service: RunningService) =>
  service
    .stdout()
    .split('\n')
    .filter((l) => l.includes('"msg":"task fired"')).length;

type Row = { id: string; task_id: string; scheduled_for: string; status: string };

function checkEveryMinuteOnce(rows: Row[], tasks: string[]): void {
  for (const id of tasks) {
    const minutes = rows
      .filter((r) => r.task_id === id)
      .map((r) => Date.parse(r.scheduled_for))
      .sort((a, b) => a - b);
    // Queue mode: an occurrence that finds the previous execution running still gets its row.
    assert.ok(minutes.length >= 3, `task ${id} ran ${minutes.length} times`);
    for (let i = 1; i < minutes.length; i++)
      assert.equal(
        (minutes[i] as number) - (minutes[i - 1] as number),
        60_000,
        `task ${id}: each minute once, none lost`,
      );
  }
}

// 30x: one minute every 2 real seconds. Much faster, and a tick delayed past a whole (fast)
// minute turns into the decided at-most-one catch-up, which would show as a gap.
type Query = (sql: string) => Promise<Array<Record<string, unknown>>>;

async function runTwo(env: Record<string, string>, query: Query): Promise<void> {
  const shared = {
    API_KEYS: KEY,
    ALLOW_LOCAL_TARGETS: 'true',
    LOG_LEVEL: 'debug',
    CLOCK_SPEEDUP: '30',
    CLOCK_ANCHOR_MS: String(Date.now()),
    SCHEDULER_TICK_MS: '50',
    ...env,
  };
  const a = await startService(shared);
  const b = await startService(shared);
  try {
    const tasks: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await call(a.url, 'POST', '/v1/scheduled-tasks', {
        name: `t${i}`,
        cron_expression: '* * * * *',
        task_type: 'scrape',
        task_payload: { url: `${site.url}/` },
        concurrency_mode: 'queue',
      });
      assert.equal(res.status, 201, JSON.stringify(res.json));
      tasks.push(String(res.json.data.task_id));
    }
    // Monitors fire through the same scheduler, and each execution is one check, by whichever process claims it.
    const monitorTasks: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await call(a.url, 'POST', '/v1/monitors', {
        name: `m${i}`,
        cron_expression: '* * * * *',
        targets: [{ url: `${site.url}/` }],
        concurrency_mode: 'queue',
      });
      assert.equal(res.status, 201, JSON.stringify(res.json));
      monitorTasks.push(String(res.json.data.scheduled_task_id));
    }
    await new Promise((r) => setTimeout(r, 8500));
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    assert.equal(await a.exited, 0);
    assert.equal(await b.exited, 0);
    const rows = (await query('select id, task_id, scheduled_for, status from task_executions')) as Row[];
    checkEveryMinuteOnce(rows, [...tasks, ...monitorTasks]);
    const checks = await query('select execution_id, state from monitor_checks');
    assert.equal(checks.length, new Set(checks.map((c) => c.execution_id)).size, 'no execution checked twice');
    const completed = rows.filter((r) => monitorTasks.includes(r.task_id) && r.status === 'completed');
    assert.ok(completed.length >= 3 * monitorTasks.length, `${completed.length} monitor executions completed`);
    for (const execution of completed)
      assert.equal(
        checks.filter((c) => c.execution_id === execution.id && c.state === 'completed').length,
        1,
        `execution ${execution.id} has one completed check`,
      );
    // Both wake at each due time and race for it; which one wins is up to timing (on a loaded
    // machine one process may win every minute), so only the sum is asserted.
    assert.equal(
      fires(a) + fires(b),
      rows.length,
      `every execution was fired by exactly one process (${fires(a)} and ${fires(b)})`,
    );
  } finally {
    a.child.kill('SIGKILL');
    b.child.kill('SIGKILL');
  }
}

describe('scheduler processes', () => {
  it('fire each occurrence once with two processes on one SQLite file', async () => {
    const dataDir = tempDir();
    await runTwo({ DATA_DIR: dataDir }, async (sql) => {
      const db = new SqliteDatabase(`${dataDir}/crawlservice.sqlite`, { readonly: true });
      try {
        return db.prepare(sql).all() as Array<Record<string, unknown>>;
      } finally {
        db.close();
      }
    });
  });

  it('fire each occurrence once with two processes on one PostgreSQL database', async () => {
    const database = postgresDatabase();
    // The schema is created by the first process; both get it through the connection options.
    const url = `${POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${database.target.schema}`)}`;
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(`CREATE SCHEMA "${database.target.schema}"`);
    try {
      await runTwo({ DATA_DIR: tempDir(), DATABASE_URL: url }, async (sql) => {
        await client.query(`set search_path to "${database.target.schema}"`);
        return (await client.query(sql)).rows as Array<Record<string, unknown>>;
      });
    } finally {
      await client.end();
      await database.drop();
    }
  });

  it('ends every execution after a SIGKILL while executions run', async () => {
    const env = {
      DATA_DIR: tempDir(),
      API_KEYS: KEY,
      ALLOW_LOCAL_TARGETS: 'true',
      CLOCK_SPEEDUP: '60',
      CLOCK_ANCHOR_MS: String(Date.now()),
      SCHEDULER_TICK_MS: '50',
      CRAWL_LEASE_MS: '1000',
    };
    const first = await startService(env);
    const created = await call(first.url, 'POST', '/v1/scheduled-tasks', {
      name: 'slow',
      cron_expression: '* * * * *',
      task_type: 'crawl',
      task_payload: { url: `${site.url}/slow` },
    });
    const id = String(created.json.data.task_id);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const list = (await call(first.url, 'GET', `/v1/scheduled-tasks/${id}/executions`)).json
        .data as unknown as Array<{ status: string }>;
      if (list.some((e) => e.status === 'running')) break;
      assert.ok(Date.now() < deadline, 'no execution started');
      await new Promise((r) => setTimeout(r, 50));
    }
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await startService(env);
    try {
      await call(second.url, 'PATCH', `/v1/scheduled-tasks/${id}/pause`, { reason: 'stop new runs' });
      const end = Date.now() + 30_000;
      for (;;) {
        const list = (await call(second.url, 'GET', `/v1/scheduled-tasks/${id}/executions`)).json
          .data as unknown as Array<{ status: string }>;
        if (list.length > 0 && list.every((e) => e.status !== 'running' && e.status !== 'pending')) {
          const task = (await call(second.url, 'GET', `/v1/scheduled-tasks/${id}`)).json.data;
          assert.equal(task.total_executions, list.length, 'the counters agree with the executions');
          break;
        }
        assert.ok(Date.now() < end, `executions still running: ${JSON.stringify(list)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});
