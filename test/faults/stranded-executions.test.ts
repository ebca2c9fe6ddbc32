// An execution whose job never started (the store failed while starting it, or the process died between firing and
// starting) ends, instead of holding its task forever.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type CrawlSite, startCrawlSite } from '../fixtures/crawl-site.js';
import { readEvents } from '../../src/events/outbox.js';
import { insertJob } from '../../src/jobs/job-store.js';
import { allDatabases } from '../helpers/databases.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

for (const make of allDatabases()) {
  const database = make();
  describe(`executions stranded without a job on ${database.name}`, () => {
    let t: TestApp;
    let site: CrawlSite;
    let now = new Date('2026-11-22T10:00:30.000Z');
    before(async () => {
      site = await startCrawlSite({ '/': {} });
      t = await startTestApp({ database, clock: () => now, env: { SCHEDULER_TICK_MS: '60000' } });
    });
    after(async () => {
      await t.close();
      await database.drop();
      await site.close();
    });
    const tick = () => (t.app.scheduler as NonNullable<typeof t.app.scheduler>).tick();

    it('fails an execution left running without its job, and the task runs again at its next minute', async () => {
      const created = await t.request('POST', '/v1/scheduled-tasks', {
        body: {
          name: 'task',
          cron_expression: '* * * * *',
          task_type: 'scrape',
          task_payload: { url: `${site.url}/` },
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const taskId = created.json().data.task_id as string;
      const task = await t.app.db.kysely
        .selectFrom('scheduled_tasks')
        .selectAll()
        .where('id', '=', taskId)
        .executeTakeFirstOrThrow();
      // What a failed start leaves: an execution marked running whose job row was never written.
      const strandedId = randomUUID();
      const at = '2026-11-22T10:00:00.000Z';
      await t.app.db.kysely
        .insertInto('task_executions')
        .values({
          id: strandedId,
          task_id: taskId,
          owner_id: task.owner_id,
          execution_number: 1,
          status: 'running',
          scheduled_for: at,
          started_at: at,
          completed_at: null,
          job_uuid: randomUUID(),
          job_kind: 'scrape',
          triggered_by: 'schedule',
          error_message: null,
          credits_used: 0,
          items_processed: 0,
          items_succeeded: 0,
          items_failed: 0,
          job_status: null,
          created_at: at,
        })
        .execute();

      now = new Date('2026-11-22T10:01:00.500Z');
      await tick();
      const early = await t.app.db.kysely
        .selectFrom('task_executions')
        .select('status')
        .where('id', '=', strandedId)
        .executeTakeFirstOrThrow();
      assert.equal(early.status, 'running', 'a start that may still be on its way is left alone for a while');

      now = new Date('2026-11-22T10:05:30.000Z');
      await tick();
      const ended = await t.app.db.kysely
        .selectFrom('task_executions')
        .selectAll()
        .where('id', '=', strandedId)
        .executeTakeFirstOrThrow();
      assert.equal(ended.status, 'failed');
      assert.match(ended.error_message ?? '', /never started|interrupted/i);

      now = new Date('2026-11-22T10:06:00.500Z');
      await tick();
      const list = (await t.request('GET', `/v1/scheduled-tasks/${taskId}/executions`)).json().data as Array<{
        status: string;
        scheduled_for: string;
      }>;
      assert.ok(
        list.some((e) => e.scheduled_for === '2026-11-22T10:06:00.000Z'),
        `the task ran again: ${JSON.stringify(list)}`,
      );
    });

    it('fails an execution whose scrape was cut off, and ends the scrape job as every job ends: with updated_at and its scrape.failed event', async () => {
      const created = await t.request('POST', '/v1/scheduled-tasks', {
        body: {
          name: 'cut-off',
          cron_expression: '0 0 1 1 *',
          task_type: 'scrape',
          task_payload: { url: `${site.url}/` },
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const taskId = created.json().data.task_id as string;
      const task = await t.app.db.kysely
        .selectFrom('scheduled_tasks')
        .selectAll()
        .where('id', '=', taskId)
        .executeTakeFirstOrThrow();
      // What a process that died mid-scrape leaves: the execution running, its scrape job pending.
      const at = '2026-11-22T11:00:00.000Z';
      const jobId = randomUUID();
      await insertJob(t.app.db.kysely, {
        id: jobId,
        ownerId: task.owner_id,
        kind: 'scrape',
        status: 'pending',
        url: `${site.url}/`,
        options: {},
        createdAt: at,
        startedAt: at,
      });
      const executionId = randomUUID();
      await t.app.db.kysely
        .insertInto('task_executions')
        .values({
          id: executionId,
          task_id: taskId,
          owner_id: task.owner_id,
          execution_number: 1,
          status: 'running',
          scheduled_for: at,
          started_at: at,
          completed_at: null,
          job_uuid: jobId,
          job_kind: 'scrape',
          triggered_by: 'schedule',
          error_message: null,
          credits_used: 0,
          items_processed: 0,
          items_succeeded: 0,
          items_failed: 0,
          job_status: null,
          created_at: at,
        })
        .execute();

      now = new Date('2026-11-22T11:05:00.000Z');
      await tick();
      assert.equal(
        (await t.app.db.kysely.selectFrom('jobs').select('status').where('id', '=', jobId).executeTakeFirstOrThrow())
          .status,
        'pending',
        'a scrape may still be running 5 minutes on',
      );

      now = new Date('2026-11-22T11:11:00.000Z');
      await tick();
      const job = await t.app.db.kysely
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', jobId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        { status: job.status, error_code: job.error_code, finished_at: job.finished_at, updated_at: job.updated_at },
        { status: 'failed', error_code: 'INTERRUPTED', finished_at: now.toISOString(), updated_at: now.toISOString() },
      );
      const events = await readEvents(t.app.db.kysely, { subjectId: jobId });
      assert.deepEqual(
        events.map((e) => e.type),
        ['scrape.failed'],
      );
      assert.equal(events[0]?.payload.error_code, 'INTERRUPTED');
      const execution = await t.app.db.kysely
        .selectFrom('task_executions')
        .selectAll()
        .where('id', '=', executionId)
        .executeTakeFirstOrThrow();
      assert.equal(execution.status, 'failed');
      assert.equal(execution.job_status, 'failed');
      assert.match(execution.error_message ?? '', /interrupted/i);
    });
  });
}
