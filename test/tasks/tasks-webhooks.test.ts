// Scheduled tasks and webhooks: webhook_url creates a task-scoped subscription; webhook_ids route task events; queue
// mode.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, it } from 'node:test';
import { type CrawlSite, startCrawlSite } from '../fixtures/crawl-site.js';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

let t: TestApp;
let site: CrawlSite;
let receiver: Receiver;
let other: Receiver;
let now = new Date('2026-11-22T10:00:30.000Z');
before(async () => {
  site = await startCrawlSite({ '/': {}, '/slow': { delayMs: 600 } });
  receiver = await startReceiver();
  other = await startReceiver();
  t = await startTestApp({
    clock: () => now,
    env: { SCHEDULER_TICK_MS: '60000', ALLOW_LOCAL_WEBHOOKS: 'true', WEBHOOK_POLL_MS: '10' },
  });
});
after(async () => {
  await t.close();
  await site.close();
  await receiver.close();
  await other.close();
});
const tick = () => (t.app.scheduler as NonNullable<typeof t.app.scheduler>).tick();

it('webhook_url creates a subscription scoped to the task that receives its signed task events', async () => {
  const res = await t.request('POST', '/v1/scheduled-tasks', {
    body: {
      name: 'hooked',
      cron_expression: '* * * * *',
      task_type: 'scrape',
      task_payload: { url: `${site.url}/` },
      webhook_url: `${receiver.url}/task`,
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  const { task_id, webhook_id, webhook_secret } = res.json().data;
  assert.match(webhook_secret, /^whsec_/);
  const sub = (await t.request('GET', `/v1/webhooks/${webhook_id}`)).json().data;
  assert.equal(sub.scope, 'specific');
  assert.deepEqual(sub.specific_task_ids, [task_id]);
  assert.deepEqual(sub.event_types, ['task.executed', 'task.failed', 'task.paused', 'task.resumed']);
  now = new Date(now.getTime() + 60_000);
  await tick();
  const [delivery] = await receiver.waitFor(1, 10_000);
  assert.equal(delivery?.headers['x-webhook-event'], 'task.executed');
  const body = JSON.parse(delivery?.body ?? '{}');
  assert.equal(body.task_id, task_id);
  assert.equal(body.status, 'completed');
  assert.equal(
    delivery?.headers['x-service-signature'],
    `sha256=${createHmac('sha256', webhook_secret)
      .update(delivery?.body ?? '')
      .digest('hex')}`,
  );
  await t.request('DELETE', `/v1/scheduled-tasks/${task_id}`);
  assert.equal(
    (await t.request('GET', `/v1/webhooks/${webhook_id}`)).statusCode,
    404,
    'the implicit subscription goes with its task',
  );
});

it('webhook_ids route task events to the named subscriptions, and only those of the caller are accepted', async () => {
  const hook = (
    await t.request('POST', '/v1/webhooks', {
      body: {
        name: 'named',
        webhook_url: other.url,
        event_types: ['task.paused'],
        scope: 'specific',
        specific_task_ids: ['00000000-0000-4000-8000-000000000000'],
      },
    })
  ).json().data;
  const res = await t.request('POST', '/v1/scheduled-tasks', {
    body: {
      name: 'routed',
      cron_expression: '0 0 * * *',
      task_type: 'scrape',
      task_payload: { url: `${site.url}/` },
      webhook_ids: [hook.webhook_id],
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  const id = res.json().data.task_id;
  await t.request('PATCH', `/v1/scheduled-tasks/${id}/pause`, { body: { reason: 'routing test' } });
  const [delivery] = await other.waitFor(1, 10_000);
  assert.equal(delivery?.headers['x-webhook-event'], 'task.paused');
  assert.equal(JSON.parse(delivery?.body ?? '{}').pause_reason, 'routing test');
});

it('queue mode keeps later occurrences as pending executions and runs them in order', async () => {
  const res = await t.request('POST', '/v1/scheduled-tasks', {
    body: {
      name: 'queued',
      cron_expression: '* * * * *',
      task_type: 'crawl',
      task_payload: { url: `${site.url}/slow` },
      concurrency_mode: 'queue',
    },
  });
  const id = res.json().data.task_id;
  for (let i = 0; i < 3; i++) {
    now = new Date(now.getTime() + 60_000);
    await tick();
  }
  const list = (await t.request('GET', `/v1/scheduled-tasks/${id}/executions`)).json().data as Array<{
    status: string;
    execution_number: number;
  }>;
  assert.deepEqual(
    list.map((e) => [e.execution_number, e.status]),
    [
      [3, 'pending'],
      [2, 'pending'],
      [1, 'running'],
    ],
  );
  const deadline = Date.now() + 15_000;
  for (;;) {
    await tick();
    const done = (await t.request('GET', `/v1/scheduled-tasks/${id}/executions`)).json().data as Array<{
      status: string;
      started_at: string;
      execution_number: number;
    }>;
    if (done.every((e) => e.status === 'completed')) {
      const starts = done.sort((a, b) => a.execution_number - b.execution_number).map((e) => e.started_at);
      assert.deepEqual([...starts].sort(), starts, 'they ran in order');
      break;
    }
    assert.ok(Date.now() < deadline, JSON.stringify(done));
    await new Promise((r) => setTimeout(r, 100));
  }
  await t.request('DELETE', `/v1/scheduled-tasks/${id}`);
});
