// Exactly once, on SQLite and PostgreSQL: a runner that died holding a check (its lease runs out) leaves the check to
// another runner, whose commit is the only one kept; two schedulers on one store check each occurrence once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readEvents } from '../../src/events/outbox.js';
import { MonitorStore, RETENTION } from '../../src/monitors/store.js';
import { articlePage, type MutableSite, startMutableSite } from '../fixtures/mutable-site.js';
import { allDatabases, postgresDatabase } from '../helpers/databases.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

let site: MutableSite;
before(async () => {
  site = await startMutableSite({ '/page': { body: articlePage('Steady', ['One paragraph of steady text.'], '1') } });
});
after(async () => {
  await site.close();
});

for (const makeDatabase of allDatabases()) {
  const database = makeDatabase();
  describe(`a dead runner's check, on ${database.target.url ? 'PostgreSQL' : 'SQLite'}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ database, env: { MONITOR_CHECK_LEASE_MS: '1000', MONITOR_POLL_MS: '20' } });
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('is done again by a live runner once its lease ran out, and committed once', async () => {
      const created = await t.request('POST', '/v1/monitors', {
        body: { name: 'm', cron_expression: '0 0 1 1 *', targets: [{ url: `${site.url}/page` }] },
      });
      const id = created.json().data.monitor_id as string;
      // The app's runner stops: the test plays the runner that claims the check and dies.
      await t.app.monitorChecks?.stop();
      assert.equal((await t.request('POST', `/v1/monitors/${id}/check`)).statusCode, 202);
      const store = new MonitorStore(t.app.db.kysely, t.app.outbox);
      const now = Date.now();
      const [dead] = await store.claim(new Date(now).toISOString(), new Date(now + 800).toISOString(), 10);
      assert.ok(dead);
      // Held: nobody else may claim it before the lease runs out.
      assert.deepEqual(await store.claim(new Date(now + 100).toISOString(), new Date(now + 900).toISOString(), 10), []);
      t.app.monitorChecks?.start();
      const [check] = await until('the check done by the live runner', async () => {
        const list = (await t.request('GET', `/v1/monitors/${id}/checks`)).json().data;
        return list[0]?.state === 'completed' ? list : undefined;
      });
      assert.equal(check.attempts, 2);
      // The dead runner's late commit is refused and writes nothing.
      const late = await store.commit(dead, dead.lease_token, {
        state: 'completed',
        resultStatus: 'new',
        sourceError: null,
        now: new Date().toISOString(),
        snapshot: {
          monitor_revision: 1,
          url: 'x',
          content_hash: 'x',
          content_complete: 1,
          status: 'new',
          content: 'late',
          content_length: 4,
          extracted: null,
          captured_at: new Date().toISOString(),
        },
        events: () => [],
      });
      assert.equal(late, false);
      const snapshots = (await t.request('GET', `/v1/monitors/${id}/snapshots`)).json().data;
      assert.equal(snapshots.length, 1);
      const completed = (await readEvents(t.app.db.kysely, { subjectId: id })).filter(
        (e) => e.type === 'monitor.check.completed',
      );
      assert.equal(completed.length, 1);
    });
  });
}

// On SQLite two apps in one process deadlock (better-sqlite3 waits for a lock synchronously, holding up the event loop
// of the app that holds it): test/e2e/scheduler-processes.test.ts runs monitors in two processes on one SQLite file.
describe('two schedulers on one PostgreSQL store', () => {
  const database = postgresDatabase();
  let now = new Date('2026-11-22T10:00:30.000Z');
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    const env = { SCHEDULER_TICK_MS: '60000', MONITOR_POLL_MS: '20', MONITOR_CHECK_CONCURRENCY: '4' };
    a = await startTestApp({ database, clock: () => now, env });
    b = await startTestApp({ database, clock: () => now, env });
  });
  after(async () => {
    await a.close();
    await b.close();
    await database.drop();
  });

  it('check each monitor once per occurrence', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await a.request('POST', '/v1/monitors', {
        body: { name: `m${i}`, cron_expression: '* * * * *', targets: [{ url: `${site.url}/page` }] },
      });
      assert.equal(res.statusCode, 201, res.body);
      ids.push(res.json().data.monitor_id);
    }
    const executionsEnded = async (id: string) => {
      const monitor = (await a.request('GET', `/v1/monitors/${id}`)).json().data;
      const path = `/v1/scheduled-tasks/${monitor.scheduled_task_uuid}/executions`;
      const executions = (await a.request('GET', path)).json().data as Array<{ status: string }>;
      return executions.every((e) => e.status === 'completed') ? executions : undefined;
    };
    for (let round = 1; round <= 2; round++) {
      // Skip mode: the next occurrence fires only once the last execution ended.
      for (const id of ids)
        await until(`executions of ${id}`, async () => {
          await Promise.all([a.app.scheduler?.tick(), b.app.scheduler?.tick()]);
          return executionsEnded(id);
        });
      now = new Date(now.getTime() + 60_000);
      await Promise.all([a.app.scheduler?.tick(), b.app.scheduler?.tick()]);
      for (const id of ids)
        await until(`round ${round} of ${id}`, async () => {
          const list = (await a.request('GET', `/v1/monitors/${id}/checks`)).json().data;
          return list.length >= round && list.every((c: { state: string }) => c.state === 'completed')
            ? list
            : undefined;
        });
    }
    await new Promise((r) => setTimeout(r, 200));
    for (const id of ids) {
      const checks = (await a.request('GET', `/v1/monitors/${id}/checks`)).json().data;
      assert.equal(checks.length, 2, `${id} checked ${checks.length} times`);
      const snapshots = (await b.request('GET', `/v1/monitors/${id}/snapshots`)).json().data;
      assert.deepEqual(
        snapshots.map((s: { status: string }) => s.status),
        ['same', 'new'],
      );
      assert.equal((await executionsEnded(id))?.length, 2);
      const events = (await readEvents(a.app.db.kysely, { subjectId: id })).filter(
        (e) => e.type === 'monitor.check.completed',
      );
      assert.equal(events.length, 2);
    }
  });
});

describe('retention', () => {
  it('keeps the newest RETENTION snapshots of a monitor and deletes the older ones', async () => {
    const t = await startTestApp({ env: { MONITOR_POLL_MS: '60000' } });
    try {
      const created = await t.request('POST', '/v1/monitors', {
        body: { name: 'r', cron_expression: '0 0 1 1 *', targets: [{ url: `${site.url}/page` }] },
      });
      const id = created.json().data.monitor_id as string;
      await t.app.monitorChecks?.stop();
      const store = new MonitorStore(t.app.db.kysely, t.app.outbox);
      const total = RETENTION.snapshots + 5;
      for (let i = 0; i < total; i++) {
        assert.equal((await t.request('POST', `/v1/monitors/${id}/check`)).statusCode, 202);
        const at = new Date(Date.now() + i).toISOString();
        const [check] = await store.claim(at, new Date(Date.now() + 60_000).toISOString(), 1);
        assert.ok(check);
        await store.commit(check, check.lease_token, {
          state: 'completed',
          resultStatus: 'same',
          sourceError: null,
          now: at,
          snapshot: {
            monitor_revision: 1,
            url: 'u',
            content_hash: String(i),
            content_complete: 1,
            status: 'same',
            content: `text ${i}`,
            content_length: 6,
            extracted: null,
            captured_at: at,
          },
          events: () => [],
        });
        // Its execution ends, so that the next "check now" is accepted.
        await t.app.scheduler?.tick();
      }
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor ? `?limit=200&cursor=${cursor}` : '?limit=200';
        const page = (await t.request('GET', `/v1/monitors/${id}/snapshots${query}`)).json();
        seen.push(...page.data.map((s: { sequence_number: number }) => s.sequence_number));
        cursor = page.pagination.next_cursor;
      } while (cursor);
      assert.equal(seen.length, RETENTION.snapshots);
      assert.equal(seen[0], total);
      assert.equal(seen.at(-1), total - RETENTION.snapshots + 1);
    } finally {
      await t.close();
    }
  });
});
