// Scheduled tasks through the API with a clock the test controls: CRUD, firing, executions, limits, pause.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readEvents } from '../../src/events/outbox.js';
import { type CrawlSite, startCrawlSite } from '../fixtures/crawl-site.js';
import { OTHER_KEY, type TestApp, startTestApp } from '../helpers/test-app.js';

describe('scheduled tasks', () => {
  let t: TestApp;
  let site: CrawlSite;
  let now = new Date('2026-11-22T10:00:30.000Z');
  const clock = () => now;
  before(async () => {
    site = await startCrawlSite({ '/': { links: ['/a'] }, '/a': {}, '/slow': { delayMs: 1500 } });
    t = await startTestApp({ clock, env: { SCHEDULER_TICK_MS: '60000' } });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const tick = () => (t.app.scheduler as NonNullable<typeof t.app.scheduler>).tick();
  async function create(body: Record<string, unknown>): Promise<string> {
    const res = await t.request('POST', '/v1/scheduled-tasks', {
      body: {
        name: 'task',
        cron_expression: '* * * * *',
        task_type: 'scrape',
        task_payload: { url: `${site.url}/` },
        ...body,
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.task_id;
  }
  const executions = async (id: string) => (await t.request('GET', `/v1/scheduled-tasks/${id}/executions`)).json();
  const task = async (id: string) => (await t.request('GET', `/v1/scheduled-tasks/${id}`)).json().data;
  async function settle(id: string, count: number): Promise<Array<Record<string, unknown>>> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const list = (await executions(id)).data as Array<Record<string, unknown>>;
      if (list.length >= count && list.every((e) => e.status !== 'running' && e.status !== 'pending')) return list;
      assert.ok(Date.now() < deadline, `executions did not settle: ${JSON.stringify(list)}`);
      await tick();
      await new Promise((r) => setTimeout(r, 30));
    }
  }
  const advance = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };

  it('creates a task and answers with its id and next run', async () => {
    const res = await t.request('POST', '/v1/scheduled-tasks', {
      body: {
        name: 'hourly',
        cron_expression: '15 * * * *',
        timezone: 'Asia/Kolkata',
        task_type: 'scrape',
        task_payload: { url: `${site.url}/` },
      },
    });
    assert.equal(res.statusCode, 201);
    const data = res.json().data;
    assert.deepEqual(Object.keys(data).sort(), ['next_execution_at', 'task_id']);
    // 15 past the hour in +05:30 is :45 past in UTC.
    assert.equal(data.next_execution_at, '2026-11-22T10:45:00.000Z');
    const detail = await task(data.task_id);
    assert.equal(detail.concurrency_mode, 'skip');
    assert.equal(detail.min_credits_required, 1);
    assert.equal(detail.is_paused, false);
    assert.equal(typeof detail.icon, 'string');
    const list = (await t.request('GET', '/v1/scheduled-tasks')).json().data;
    const item = list.find((x: { uuid: string }) => x.uuid === data.task_id);
    for (const hidden of ['description', 'task_payload', 'concurrency_mode', 'updated_at', 'icon'])
      assert.ok(!(hidden in item), hidden);
    assert.equal((await t.request('GET', `/v1/scheduled-tasks/${data.task_id}`, { key: OTHER_KEY })).statusCode, 404);
  });

  it('validates bodies: cron, zone, payload against type, read-only fields, webhook ids', async () => {
    const base = {
      name: 'x',
      cron_expression: '* * * * *',
      task_type: 'scrape',
      task_payload: { url: 'https://example.com' },
    };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ ...base, cron_expression: '0 * * * * *' }, 'cron_expression', 'custom'],
      [{ ...base, cron_expression: '@daily' }, 'cron_expression', 'custom'],
      [{ ...base, cron_expression: '61 * * * *' }, 'cron_expression', 'custom'],
      [{ ...base, timezone: 'Mars/Olympus' }, 'timezone', 'custom'],
      [{ ...base, task_payload: {} }, 'task_payload.url', 'invalid_type'],
      [
        { ...base, task_type: 'crawl', task_payload: { url: 'https://example.com', options: { limit: 0 } } },
        'task_payload.options.limit',
        'too_small',
      ],
      [
        { ...base, task_type: 'search', task_payload: { url: 'https://example.com' } },
        'task_payload.url',
        'unrecognized_keys',
      ],
      [{ ...base, task_type: 'bogus' }, 'task_type', 'invalid_enum_value'],
      [{ ...base, min_credits_required: 5 }, 'min_credits_required', 'unrecognized_keys'],
      [{ ...base, consecutive_failures: 0 }, 'consecutive_failures', 'unrecognized_keys'],
      [{ ...base, name: 'n'.repeat(256) }, 'name', 'too_big'],
      [
        {
          ...base,
          task_payload: {
            url: 'https://example.com',
            exclude_tags: Array.from({ length: 100 }, () => 'x'.repeat(1000)),
            include_tags: Array.from({ length: 100 }, () => 'y'.repeat(1000)),
          },
        },
        'task_payload',
        'too_big',
      ],
      [{ ...base, webhook_ids: ['00000000-0000-4000-8000-000000000000'] }, 'webhook_ids.0', 'custom'],
      [{ ...base, concurrency_mode: 'parallel' }, 'concurrency_mode', 'invalid_enum_value'],
    ];
    for (const [body, field, code] of cases) {
      const res = await t.request('POST', '/v1/scheduled-tasks', { body });
      assert.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 200));
      assert.ok(
        res.json().data.issues.some((i: { field: string; code: string }) => i.field === field && i.code === code),
        `${field}: ${res.body.slice(0, 400)}`,
      );
    }
    assert.equal((await t.request('GET', '/v1/scheduled-tasks/nope')).json().error, 'Invalid task ID');
  });

  it('fires a due crawl task once, with its job usable on the crawl routes, and ends it when the job ends', async () => {
    const id = await create({ task_type: 'crawl', task_payload: { url: `${site.url}/`, options: { limit: 5 } } });
    assert.equal((await task(id)).min_credits_required, 5);
    advance(60_000);
    await Promise.all([tick(), tick()]);
    const [execution] = await settle(id, 1);
    assert.ok(execution);
    assert.equal((await executions(id)).data.length, 1, 'two ticks at once fire one execution');
    assert.equal(execution.status, 'completed');
    assert.equal(execution.execution_number, 1);
    assert.equal(execution.triggered_by, 'scheduler');
    assert.equal(execution.scheduled_for, '2026-11-22T10:01:00.000Z');
    assert.equal(execution.items_succeeded, 2);
    assert.equal(execution.credits_used, 2);
    assert.equal(execution.job_status, 'completed');
    assert.equal(execution.job_success, true);
    assert.equal(typeof execution.duration_ms, 'number');
    const job = await t.request('GET', `/v1/crawl/${execution.job_uuid}/status`);
    assert.equal(job.json().data.status, 'completed');
    const detail = await task(id);
    assert.equal(detail.total_executions, 1);
    assert.equal(detail.successful_executions, 1);
    assert.equal(detail.next_execution_at, '2026-11-22T10:02:00.000Z');
    const events = await readEvents(t.app.db.kysely, { subjectId: id });
    const executed = events.find((e) => e.type === 'task.executed');
    assert.ok(executed);
    for (const field of [
      'task_id',
      'task_name',
      'execution_id',
      'execution_number',
      'status',
      'job_id',
      'credits_used',
      'scheduled_for',
      'completed_at',
    ])
      assert.ok(field in executed.payload, field);
    await t.request('DELETE', `/v1/scheduled-tasks/${id}`);
  });

  it('fails executions whose job fails, and pauses the task after 5 failures in a row', async () => {
    // Nothing listens on port 9 of loopback: each scrape fails with CONNECTION_REFUSED.
    const id = await create({ task_type: 'scrape', task_payload: { url: 'http://127.0.0.1:9/' } });
    for (let i = 0; i < 6; i++) {
      advance(60_000);
      await tick();
      await new Promise((r) => setTimeout(r, 20));
    }
    const list = await settle(id, 5);
    assert.equal(list.length, 5, 'the 6th occurrence finds the task paused');
    assert.ok(
      list.every((e) => e.status === 'failed' && /refused|127\.0\.0\.1:9/i.test(String(e.error_message))),
      JSON.stringify(list.map((e) => e.error_message)),
    );
    const detail = await task(id);
    assert.equal(detail.is_paused, true);
    assert.match(detail.pause_reason, /5 consecutive failed/);
    assert.equal(detail.next_execution_at, null);
    assert.equal(detail.consecutive_failures, 5);
    const types = (await readEvents(t.app.db.kysely, { subjectId: id })).map((e) => e.type);
    assert.equal(types.filter((x) => x === 'task.failed').length, 5);
    assert.ok(types.includes('task.paused'));
  });

  it('pauses with a reason and resumes from now without a burst of missed runs', async () => {
    const id = await create({});
    const paused = await t.request('PATCH', `/v1/scheduled-tasks/${id}/pause`, { body: { reason: 'maintenance' } });
    assert.deepEqual(paused.json(), {
      success: true,
      message: 'Task paused',
      data: { uuid: id, is_paused: true, pause_reason: 'maintenance' },
    });
    advance(10 * 60_000);
    await tick();
    assert.equal((await executions(id)).data.length, 0);
    const resumed = await t.request('PATCH', `/v1/scheduled-tasks/${id}/resume`);
    const data = resumed.json().data;
    assert.equal(data.is_paused, false);
    assert.equal(data.pause_reason, null);
    assert.ok(Date.parse(data.next_execution_at) > now.getTime());
    await tick();
    assert.equal((await executions(id)).data.length, 0, 'no run fires for the paused time');
    const types = (await readEvents(t.app.db.kysely, { subjectId: id })).map((e) => e.type);
    assert.deepEqual(types, ['task.paused', 'task.resumed']);
    await t.request('DELETE', `/v1/scheduled-tasks/${id}`);
  });

  it('skips the runs of the day once max_executions_per_day is reached', async () => {
    const id = await create({ max_executions_per_day: 2 });
    for (let i = 0; i < 3; i++) {
      advance(60_000);
      await tick();
      await settle(id, Math.min(i + 1, 2));
    }
    assert.equal((await executions(id)).data.length, 2);
    assert.equal((await task(id)).is_paused, false, 'the limit neither fails nor pauses the task');
    await t.request('DELETE', `/v1/scheduled-tasks/${id}`);
  });

  it('skips an occurrence while the previous execution runs (skip mode) and cancels a running execution with its job', async () => {
    const id = await create({ task_type: 'crawl', task_payload: { url: `${site.url}/slow` } });
    advance(60_000);
    await tick();
    advance(60_000);
    await tick();
    const list = (await executions(id)).data;
    assert.equal(list.length, 1, 'the second occurrence is skipped');
    assert.equal(list[0].status, 'running');
    const cancel = await t.request('DELETE', `/v1/scheduled-tasks/${id}/executions/${list[0].uuid}`);
    assert.equal(cancel.statusCode, 200, cancel.body);
    assert.equal((await t.request('GET', `/v1/crawl/${list[0].job_uuid}/status`)).json().data.status, 'cancelled');
    const again = await t.request('DELETE', `/v1/scheduled-tasks/${id}/executions/${list[0].uuid}`);
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().error, 'Execution already finished');
    await t.request('DELETE', `/v1/scheduled-tasks/${id}`);
  });

  it('does not catch up a run missed by more than the grace period', async () => {
    const id = await create({});
    advance(2 * 3600_000);
    await tick();
    assert.equal((await executions(id)).data.length, 0);
    assert.ok(Date.parse((await task(id)).next_execution_at) > now.getTime());
    await t.request('DELETE', `/v1/scheduled-tasks/${id}`);
  });

  it('catches up one missed run within the grace period, not every missed one', async () => {
    const id = await create({});
    advance(30 * 60_000);
    await tick();
    const list = await settle(id, 1);
    assert.equal(list.length, 1, 'thirty missed minutes give one catch-up execution');
    assert.ok(Date.parse((await task(id)).next_execution_at) > now.getTime());
    await t.request('DELETE', `/v1/scheduled-tasks/${id}`);
  });

  it('runs a scrape task with the json and summary formats (built-in rules) to a completed execution', async () => {
    const id = await create({
      task_payload: {
        url: `${site.url}/`,
        formats: ['markdown', 'json', 'summary'],
        json_options: { schema: { type: 'object', properties: { title: { type: 'string' } } } },
      },
    });
    advance(60_000);
    await tick();
    const [execution] = await settle(id, 1);
    assert.ok(execution);
    assert.equal(execution.status, 'completed', JSON.stringify(execution));
    assert.equal(execution.job_status, 'completed');
    await t.request('DELETE', `/v1/scheduled-tasks/${id}`);
  });

  it('fails an execution whose payload the scrape refuses at run time, instead of leaving it running', async () => {
    const id = await create({});
    // What a deployment refuses can change after creation (Chromium removed, a model required and unset):
    // write a payload the scrape service refuses straight into the store.
    await t.app.db.kysely
      .updateTable('scheduled_tasks')
      .set({ task_payload: JSON.stringify({ url: `${site.url}/`, formats: ['json'] }) })
      .where('id', '=', id)
      .execute();
    advance(60_000);
    await tick();
    const [execution] = await settle(id, 1);
    assert.ok(execution);
    assert.equal(execution.status, 'failed');
    assert.match(String(execution.error_message), /json_options.*Format 'json' needs json_options/);
    await t.request('DELETE', `/v1/scheduled-tasks/${id}`);
  });

  it('updates any subset, recomputes the next run, and deletes with the history', async () => {
    const id = await create({});
    advance(60_000);
    await tick();
    await settle(id, 1);
    const res = await t.request('PUT', `/v1/scheduled-tasks/${id}`, {
      body: { cron_expression: '0 12 * * *', timezone: 'Europe/Berlin' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.next_execution_at, '2026-11-23T11:00:00.000Z');
    assert.equal(res.json().data.name, 'task');
    const del = await t.request('DELETE', `/v1/scheduled-tasks/${id}`);
    assert.deepEqual(del.json(), { success: true, message: 'Task deleted' });
    assert.equal((await t.request('GET', `/v1/scheduled-tasks/${id}/executions`)).statusCode, 404);
    const left = await t.app.db.kysely.selectFrom('task_executions').select('id').where('task_id', '=', id).execute();
    assert.equal(left.length, 0);
  });
});

describe('scheduled tasks on a deployment without Chromium', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { CHROMIUM_PATH: '/nonexistent/chromium', SCHEDULER_TICK_MS: '60000' } });
  });
  after(async () => {
    await t.close();
  });

  it('refuses at creation and update what the scrape or crawl would refuse, under task_payload', async () => {
    const base = { name: 'x', cron_expression: '* * * * *' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { ...base, task_type: 'scrape', task_payload: { url: 'https://example.com', engine: 'playwright' } },
        'task_payload.engine',
      ],
      [
        {
          ...base,
          task_type: 'scrape',
          task_payload: { url: 'https://example.com', formats: ['markdown', 'screenshot'] },
        },
        'task_payload.formats.1',
      ],
      [
        { ...base, task_type: 'scrape', task_payload: { url: 'https://example.com', formats: ['json'] } },
        'task_payload.json_options',
      ],
      [
        {
          ...base,
          task_type: 'crawl',
          task_payload: {
            url: 'https://example.com',
            options: {
              scrape_options: {
                formats: ['json'],
                json_options: { schema: { type: 'object', properties: { a: { type: 'nope' } } } },
              },
            },
          },
        },
        'task_payload.options.json_options.schema.properties.a.type',
      ],
      [
        { ...base, task_type: 'crawl', task_payload: { url: 'https://example.com', engine: 'puppeteer' } },
        'task_payload.engine',
      ],
      [
        {
          ...base,
          task_type: 'crawl',
          task_payload: { url: 'https://example.com', options: { scrape_options: { wait_for: 100 } } },
        },
        'task_payload.options.wait_for',
      ],
      [
        { ...base, task_type: 'crawl', task_payload: { url: 'https://example.com', options: { variables: { a: 1 } } } },
        'task_payload.options.variables',
      ],
    ];
    // An unknown template is a 404 in a task's payload, as wherever a template is named.
    const unknownTemplate = await t.request('POST', '/v1/scheduled-tasks', {
      body: {
        ...base,
        task_type: 'crawl',
        task_payload: { url: 'https://example.com', options: { template_id: 'tpl' } },
      },
    });
    assert.equal(unknownTemplate.statusCode, 404, unknownTemplate.body);
    for (const [body, field] of cases) {
      const res = await t.request('POST', '/v1/scheduled-tasks', { body });
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body.slice(0, 300)}`);
      const issues = res.json().data.issues as Array<{ field: string; code: string; message: string }>;
      assert.ok(
        issues.some((i) => i.field === field && i.code === 'custom'),
        `${field}: ${res.body.slice(0, 400)}`,
      );
    }
    const created = await t.request('POST', '/v1/scheduled-tasks', {
      body: { ...base, task_type: 'scrape', task_payload: { url: 'https://example.com' } },
    });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().data.task_id as string;
    const updated = await t.request('PUT', `/v1/scheduled-tasks/${id}`, {
      body: { task_payload: { url: 'https://example.com', engine: 'puppeteer' } },
    });
    assert.equal(updated.statusCode, 400, updated.body);
    assert.match(updated.json().data.issues[0].message, /apt-get install -y chromium/);
  });
});
