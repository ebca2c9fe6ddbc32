// Monitors through the API on a local site whose pages the test rewrites between checks: one change and one event per
// real change, none for noise, price moves with thresholds, a page gone and back, bad input, history paging, and the
// monitor's schedule (check now, pause/resume, the task API's refusal to edit it).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { articlePage, type MutableSite, productPage, startMutableSite } from '../fixtures/mutable-site.js';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';
import { readEvents } from '../../src/events/outbox.js';

let t: TestApp;
let site: MutableSite;
let receiver: Receiver;
let now = new Date('2026-11-22T10:00:30.000Z');
const P1 = 'Anvils are heavy tools made of one block of steel.';
const P2 = 'A good anvil lasts a lifetime of daily work.';

before(async () => {
  site = await startMutableSite();
  receiver = await startReceiver();
  t = await startTestApp({
    clock: () => now,
    env: { SCHEDULER_TICK_MS: '60000', MONITOR_POLL_MS: '20', ALLOW_LOCAL_WEBHOOKS: 'true', WEBHOOK_POLL_MS: '10' },
  });
  const hook = await t.request('POST', '/v1/webhooks', {
    body: {
      name: 'monitor events',
      webhook_url: `${receiver.url}/hook`,
      event_types: ['monitor.changed', 'monitor.price.changed', 'monitor.error'],
    },
  });
  assert.equal(hook.statusCode, 201, hook.body);
});
after(async () => {
  await t.close();
  await site.close();
  await receiver.close();
});

async function create(body: Record<string, unknown>): Promise<{ monitor_id: string; scheduled_task_id: string }> {
  const res = await t.request('POST', '/v1/monitors', { body: { cron_expression: '* * * * *', ...body } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data;
}

async function checks(id: string): Promise<Array<Record<string, unknown>>> {
  return (await t.request('GET', `/v1/monitors/${id}/checks`)).json().data;
}

/** Moves the clock a minute, lets the scheduler fire, waits for `n` ended checks of `id` and its executions' end. */
async function nextMinute(id: string, n: number): Promise<void> {
  now = new Date(now.getTime() + 60_000);
  await (t.app.scheduler as NonNullable<typeof t.app.scheduler>).tick();
  await until(`check ${n} of ${id}`, async () => {
    const list = await checks(id);
    return list.length >= n && list.every((c) => c.state === 'completed' || c.state === 'failed') ? list : undefined;
  });
  // No tick here: the check's end ends its execution (the next tick is a minute away).
  await until('execution ended', async () => {
    const monitor = (await t.request('GET', `/v1/monitors/${id}`)).json().data;
    const execs = (await t.request('GET', `/v1/scheduled-tasks/${monitor.scheduled_task_uuid}/executions`)).json()
      .data as Array<{ status: string }>;
    return execs.every((e) => e.status !== 'running' && e.status !== 'pending') ? true : undefined;
  });
}

type Item = Record<string, unknown>;
interface ChangeView {
  uuid: string;
  change_type: string;
  diff_text: string | null;
  diff_json: unknown;
  judgment: { meaningful: boolean; source: string; reason: string };
  notification_status: string;
}

async function changes(id: string): Promise<ChangeView[]> {
  return (await t.request('GET', `/v1/monitors/${id}/changes`)).json().data;
}

async function eventsOf(id: string, type: string) {
  return (await readEvents(t.app.db.kysely, { subjectId: id })).filter((e) => e.type === type);
}

describe('a webpage monitor', () => {
  let id: string;
  before(async () => {
    site.set('/article', { body: articlePage('Anvils', [P1, P2], '10:00:01') });
    id = (await create({ name: 'anvil article', targets: [{ url: `${site.url}/article` }], goal: 'New products' }))
      .monitor_id;
  });

  it('stores the first snapshot as new, without a change or a change event', async () => {
    await nextMinute(id, 1);
    const snapshots = (await t.request('GET', `/v1/monitors/${id}/snapshots`)).json();
    assert.equal(snapshots.data.length, 1);
    assert.equal(snapshots.data[0].status, 'new');
    assert.deepEqual(snapshots.pagination, { has_more: false, next_cursor: null });
    assert.deepEqual(await changes(id), []);
    assert.equal((await eventsOf(id, 'monitor.check.completed')).length, 1);
    const detail = (await t.request('GET', `/v1/monitors/${id}/snapshots/${snapshots.data[0].uuid}`)).json().data;
    assert.match(detail.content, /Anvils are heavy tools/);
    assert.equal(detail.content_truncated, false);
    const monitor = (await t.request('GET', `/v1/monitors/${id}`)).json().data;
    assert.equal(monitor.last_check_state, 'completed');
    assert.equal(monitor.in_progress, false);
    const executions = (await t.request('GET', `/v1/scheduled-tasks/${monitor.scheduled_task_uuid}/executions`)).json();
    assert.equal(executions.data.length, 1);
    assert.equal(executions.data[0].status, 'completed');
    assert.equal(executions.data[0].credits_used, 1);
    assert.equal(executions.data[0].triggered_by, 'scheduler');
  });

  it('sees no change when only the clock and the view counter moved', async () => {
    site.set('/article', {
      body: articlePage('Anvils', [P1, P2], '10:01:59').replace('1234 people', '1301 people'),
    });
    await nextMinute(id, 2);
    const [latest] = (await t.request('GET', `/v1/monitors/${id}/snapshots`)).json().data;
    assert.equal(latest.status, 'same');
    assert.deepEqual(await changes(id), []);
    assert.equal((await eventsOf(id, 'monitor.changed')).length, 0);
  });

  it('records one change with a unified diff and sends one signed monitor.changed for a real change', async () => {
    site.set('/article', {
      body: articlePage('Anvils', [P1, P2, 'New: every anvil now ships with a free hammer.'], '10:02:30'),
    });
    await nextMinute(id, 3);
    const list = await changes(id);
    assert.equal(list.length, 1);
    const change = list[0] as ChangeView;
    assert.equal(change.change_type, 'text');
    assert.match(String(change.diff_text), /^\+New: every anvil now ships with a free hammer\.$/m);
    assert.equal(change.judgment.meaningful, true);
    assert.equal(change.judgment.source, 'rules');
    // Queued, or already delivered: the dispatcher may have been quicker than this read.
    assert.ok(['queued', 'delivered'].includes(String(change.notification_status)), change.notification_status);
    const events = await eventsOf(id, 'monitor.changed');
    assert.equal(events.length, 1);
    const payload = events[0]?.payload as Item;
    assert.equal(payload.change_id, change.uuid);
    assert.equal(payload.monitor_id, id);
    assert.match(String(payload.diff_text), /free hammer/);
    assert.equal(payload.change_url, `/v1/monitors/${id}/changes/${change.uuid}`);
    const [delivery] = await receiver.waitFor(1, 10_000);
    assert.equal(delivery?.headers['x-webhook-event'], 'monitor.changed');
    assert.equal(JSON.parse(delivery?.body ?? '{}').change_id, change.uuid);
    // The change's record names the delivery among its notifications.
    const one = await until('delivered', async () => {
      const detail = (await t.request('GET', `/v1/monitors/${id}/changes/${change.uuid}`)).json().data;
      return detail.notifications?.[0]?.status === 'delivered' ? detail : undefined;
    });
    assert.equal(one.notifications.length, 1);
    assert.equal(one.notification_status, 'delivered');
    assert.equal((await changes(id))[0]?.notification_status, 'delivered');
    const sent = (await t.request('GET', `/v1/monitors/${id}/notifications`)).json().data;
    assert.equal(sent.length, 1);
    assert.equal(sent[0].channel, 'webhook');
    assert.equal(sent[0].event_type, 'monitor.changed');
  });

  it('records the page gone on a 404, and back when it returns, one event each', async () => {
    site.set('/article', { status: 404, body: '<html><body>Not here</body></html>' });
    await nextMinute(id, 4);
    site.set('/article', { status: 404, body: '<html><body>Still not here</body></html>' });
    await nextMinute(id, 5);
    site.set('/article', { body: articlePage('Anvils', [P1, P2], '10:05:00') });
    await nextMinute(id, 6);
    const types = (await changes(id)).map((c) => c.change_type);
    assert.deepEqual(types, ['new', 'removed', 'text']);
    const statuses = (await t.request('GET', `/v1/monitors/${id}/snapshots`)).json().data.map((s: Item) => s.status);
    assert.deepEqual(statuses, ['new', 'removed', 'removed', 'changed', 'same', 'new']);
    assert.equal((await eventsOf(id, 'monitor.changed')).length, 3);
    assert.equal((await eventsOf(id, 'monitor.check.completed')).length, 6);
  });

  it('pages its history with cursors, and the feed lists changes across monitors', async () => {
    const seen: unknown[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const query: string = cursor ? `?limit=4&cursor=${cursor}` : '?limit=4';
      const page = (await t.request('GET', `/v1/monitors/${id}/snapshots${query}`)).json();
      seen.push(...page.data.map((s: Item) => s.sequence_number));
      if (!page.pagination.has_more) break;
      cursor = page.pagination.next_cursor;
    }
    assert.deepEqual(seen, [6, 5, 4, 3, 2, 1]);
    // AnyCrawl's older clients page by offset.
    const second = (await t.request('GET', `/v1/monitors/${id}/snapshots?limit=2&offset=2`)).json().data;
    assert.deepEqual(
      second.map((s: Item) => s.sequence_number),
      [4, 3],
    );
    const feed = (await t.request('GET', '/v1/monitors/changes?limit=2')).json();
    assert.equal(feed.data.length, 2);
    assert.equal(feed.pagination.has_more, true);
    assert.equal(feed.data[0].monitor_name, 'anvil article');
    const rest = (await t.request('GET', `/v1/monitors/changes?cursor=${feed.pagination.next_cursor}`)).json();
    assert.ok(rest.data.every((c: Item) => !feed.data.some((d: Item) => d.uuid === c.uuid)));
    const removed = (await t.request('GET', '/v1/monitors/changes?change_type=removed')).json().data;
    assert.ok(removed.length >= 1 && removed.every((c: Item) => c.change_type === 'removed'));
  });
});

describe('ignore_selectors and min_change_ratio', () => {
  it('leaves out the elements named, and changes under the ratio', async () => {
    const page = (stock: string, tail: string) =>
      `<html><body><main><h1>Shop news</h1><p>${P1}</p><p>${P2}</p><p>${tail}</p><div class="ticker">${stock}</div></main></body></html>`;
    site.set('/ticker', { body: page('ACME 101.5 up 2%', 'Open daily.') });
    const { monitor_id: id } = await create({
      name: 'ticker',
      targets: [{ url: `${site.url}/ticker` }],
      diff_options: { ignore_selectors: ['.ticker'], min_change_ratio: 0.5 },
    });
    await nextMinute(id, 1);
    site.set('/ticker', { body: page('ACME 99.1 down 1%', 'Open daily!') });
    await nextMinute(id, 2);
    const [latest] = (await t.request('GET', `/v1/monitors/${id}/snapshots`)).json().data;
    assert.equal(latest.status, 'same');
    const detail = (await t.request('GET', `/v1/monitors/${id}/snapshots/${latest.uuid}`)).json().data;
    assert.doesNotMatch(detail.content, /ACME/);
    assert.deepEqual(await changes(id), []);
  });
});

describe('a price monitor', () => {
  let id: string;
  before(async () => {
    site.set('/anvil', { body: productPage('Anvil A1', '100.00', 'EUR') });
    id = (
      await create({
        name: 'anvil price',
        monitor_type: 'price',
        targets: [{ url: `${site.url}/anvil` }],
        notify_options: { thresholds: { price_change_pct: 5 } },
      })
    ).monitor_id;
    await nextMinute(id, 1);
  });

  it('extracts the price with the built-in schema', async () => {
    const [first] = (await t.request('GET', `/v1/monitors/${id}/snapshots`)).json().data;
    const detail = (await t.request('GET', `/v1/monitors/${id}/snapshots/${first.uuid}`)).json().data;
    assert.equal(detail.extracted.price, 100);
    assert.equal(detail.extracted.currency, 'EUR');
  });

  it('reports a rise over the threshold as price_up with delta and currency, in one monitor.price.changed', async () => {
    site.set('/anvil', { body: productPage('Anvil A1', '110.00', 'EUR') });
    await nextMinute(id, 2);
    const [change] = await changes(id);
    assert.equal(change?.change_type, 'price_up');
    assert.deepEqual(change?.diff_json, [{ path: 'price', from: 100, to: 110, currency: 'EUR', delta: 10 }]);
    assert.equal(change?.judgment.meaningful, true);
    const events = await eventsOf(id, 'monitor.price.changed');
    assert.equal(events.length, 1);
    assert.equal((events[0]?.payload as { diff_json: Array<{ delta: number }> }).diff_json[0]?.delta, 10);
  });

  it('records a move under the threshold as not meaningful, and sends nothing', async () => {
    site.set('/anvil', { body: productPage('Anvil A1', '108.00', 'EUR') });
    await nextMinute(id, 3);
    const [change] = await changes(id);
    assert.equal(change?.change_type, 'price_down');
    assert.equal(change?.judgment.meaningful, false);
    assert.match(String(change?.judgment.reason), /under the 5% threshold/);
    assert.equal(change?.notification_status, 'skipped');
    assert.equal((await eventsOf(id, 'monitor.price.changed')).length, 1);
  });

  it('reports stock, and removal on a 404, as price events', async () => {
    site.set('/anvil', { body: productPage('Anvil A1', '108.00', 'EUR', 'OutOfStock') });
    await nextMinute(id, 4);
    site.set('/anvil', { status: 404, body: 'gone' });
    await nextMinute(id, 5);
    const [removed, stock] = await changes(id);
    assert.equal(stock?.change_type, 'stock');
    assert.equal(removed?.change_type, 'removed');
    assert.equal((await eventsOf(id, 'monitor.price.changed')).length, 3);
  });
});

describe('failed checks', () => {
  it('fail the check with monitor.error, keep the schedule, and pause the monitor after 5 in a row', async () => {
    const { monitor_id: id } = await create({ name: 'dead', targets: [{ url: 'http://127.0.0.1:1/nothing' }] });
    for (let n = 1; n <= 5; n++) await nextMinute(id, n);
    const list = await checks(id);
    assert.equal(list.length, 5);
    assert.ok(
      list.every((c) => c.state === 'failed' && (c.source_error as { code: string }).code === 'CONNECTION_REFUSED'),
    );
    const errors = await eventsOf(id, 'monitor.error');
    assert.equal(errors.length, 5);
    assert.equal((errors[0]?.payload as Item).error_code, 'CONNECTION_REFUSED');
    const monitor = (await t.request('GET', `/v1/monitors/${id}`)).json().data;
    assert.equal(monitor.last_check_state, 'failed');
    assert.equal(monitor.is_paused, true);
    assert.match(monitor.pause_reason, /5 consecutive failed/);
    assert.equal(monitor.next_execution_at, null);
  });
});

describe('the monitor resource', () => {
  it('refuses bad input with the validation shape', async () => {
    const target = { url: `${site.url}/article` };
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ name: 'x', cron_expression: '61 * * * *', targets: [target] }, 'cron_expression'],
      [{ name: 'x', cron_expression: '* * * * *', timezone: 'Mars/Base', targets: [target] }, 'timezone'],
      [{ name: 'x', cron_expression: '* * * * *', targets: [{ url: 'ftp://x' }] }, 'targets.0.url'],
      [{ name: 'x', cron_expression: '* * * * *', targets: [target, target] }, 'targets'],
      [{ name: 'x', cron_expression: '* * * * *', targets: [] }, 'targets'],
      [
        { name: 'x', cron_expression: '* * * * *', targets: [target], notify_options: { channels: ['email'] } },
        'notify_options.channels',
      ],
      [{ name: 'x', cron_expression: '* * * * *', targets: [target], track_mode: 'json' }, 'extract_schema'],
      [
        {
          name: 'x',
          cron_expression: '* * * * *',
          targets: [target],
          track_mode: 'json',
          extract_schema: { type: 'string' },
        },
        'extract_schema.type',
      ],
      [{ name: 'x', cron_expression: '* * * * *', targets: [target], surprise: 1 }, ''],
      [
        { name: 'x', cron_expression: '* * * * *', targets: [{ ...target, location: { country: 'DE' } }] },
        'targets.0.location',
      ],
    ];
    for (const [body, field] of bad) {
      const res = await t.request('POST', '/v1/monitors', { body });
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      const json = res.json();
      assert.equal(json.error, 'Validation error');
      if (field)
        assert.ok(
          json.data.issues.some((i: Item) => i.field === field),
          `${field}: ${res.body}`,
        );
    }
    assert.equal((await t.request('GET', '/v1/monitors/not-a-uuid')).statusCode, 400);
    assert.equal((await t.request('GET', '/v1/monitors/00000000-0000-4000-8000-000000000000')).statusCode, 404);
  });

  it('checks now (once at a time), pauses and resumes, updates with a revision bump, and deletes', async () => {
    site.set('/slow', { body: articlePage('Slow', [P1], '1'), delayMs: 300 });
    const { monitor_id: id, scheduled_task_id: taskId } = await create({
      name: 'manual',
      cron_expression: '0 0 1 1 *',
      targets: [{ url: `${site.url}/slow` }],
    });
    const first = await t.request('POST', `/v1/monitors/${id}/check`);
    assert.equal(first.statusCode, 202, first.body);
    assert.equal(first.json().data.state, 'pending');
    const second = await t.request('POST', `/v1/monitors/${id}/check`);
    assert.equal(second.statusCode, 409, second.body);
    await until('manual check', async () => ((await checks(id))[0]?.state === 'completed' ? true : undefined));
    assert.equal((await checks(id))[0]?.triggered_by, 'manual');

    // A client that sees the check completed may ask for the next one at once, before the scheduler has ended the
    // check's execution (a moment later, in whichever process ran the check): that is not a check in progress.
    await until('the execution ended', async () => {
      const rows = await t.app.db.kysely
        .selectFrom('task_executions')
        .select('status')
        .where('task_id', '=', taskId)
        .execute();
      return rows.every((r) => r.status !== 'running') ? true : undefined;
    });
    await t.app.db.kysely
      .updateTable('task_executions')
      .set({ status: 'running' })
      .where('task_id', '=', taskId)
      .execute();
    now = new Date(now.getTime() + 1_000);
    const again = await t.request('POST', `/v1/monitors/${id}/check`);
    assert.equal(again.statusCode, 202, again.body);
    await until('the next manual check', async () =>
      (await checks(id)).filter((c) => c.state === 'completed').length === 2 ? true : undefined,
    );
    // The reopened execution is ended by the scheduler's next pass, as any whose check ended.
    await (t.app.scheduler as NonNullable<typeof t.app.scheduler>).tick();
    await until('both executions ended', async () => {
      const rows = await t.app.db.kysely
        .selectFrom('task_executions')
        .select('status')
        .where('task_id', '=', taskId)
        .execute();
      return rows.length === 2 && rows.every((r) => r.status === 'completed') ? true : undefined;
    });

    const paused = await t.request('POST', `/v1/monitors/${id}/pause`, { body: { reason: 'holiday' } });
    assert.equal(paused.statusCode, 200, paused.body);
    assert.equal(paused.json().data.is_paused, true);
    assert.equal(paused.json().data.pause_reason, 'holiday');
    const resumed = (await t.request('POST', `/v1/monitors/${id}/resume`)).json().data;
    assert.equal(resumed.is_paused, false);
    assert.ok(resumed.next_execution_at);

    const updated = await t.request('PATCH', `/v1/monitors/${id}`, {
      body: { name: 'manual 2', diff_options: { min_change_ratio: 0.2 }, is_active: false },
    });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.equal(updated.json().data.revision, 2);
    assert.equal(updated.json().data.name, 'manual 2');
    assert.equal(updated.json().data.is_paused, true);
    const renamed = (await t.request('PATCH', `/v1/monitors/${id}`, { body: { tags: ['x'] } })).json().data;
    assert.equal(renamed.revision, 2);

    // Its task is listed with the others, and changed only through the monitor.
    const task = (await t.request('GET', `/v1/scheduled-tasks/${taskId}`)).json().data;
    assert.equal(task.task_type, 'monitor');
    const edit = await t.request('PUT', `/v1/scheduled-tasks/${taskId}`, { body: { name: 'hijack' } });
    assert.equal(edit.statusCode, 409, edit.body);
    assert.match(edit.json().message, new RegExp(`/v1/monitors/${id}`));
    assert.equal((await t.request('DELETE', `/v1/scheduled-tasks/${taskId}`)).statusCode, 409);
    const refused = await t.request('POST', '/v1/scheduled-tasks', {
      body: { name: 'm', cron_expression: '* * * * *', task_type: 'monitor', task_payload: { monitor_id: id } },
    });
    assert.equal(refused.statusCode, 400);

    assert.ok((await t.request('GET', '/v1/monitors')).json().data.some((m: Item) => m.uuid === id));
    const deleted = await t.request('DELETE', `/v1/monitors/${id}`);
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.equal((await t.request('GET', `/v1/monitors/${id}`)).statusCode, 404);
    assert.equal((await t.request('GET', `/v1/scheduled-tasks/${taskId}`)).statusCode, 404);
    assert.ok(!(await t.request('GET', '/v1/monitors')).json().data.some((m: Item) => m.uuid === id));
  });

  it("keeps keys apart: another key's monitor is a 404", async () => {
    site.set('/mine', { body: articlePage('Mine', [P1], '1') });
    const { monitor_id: id } = await create({ name: 'mine', targets: [{ url: `${site.url}/mine` }] });
    const other = await t.request('GET', `/v1/monitors/${id}`, { key: 'other-key-9876543210' });
    assert.equal(other.statusCode, 404);
    assert.equal(
      (await t.request('POST', `/v1/monitors/${id}/check`, { key: 'other-key-9876543210' })).statusCode,
      404,
    );
  });
});
