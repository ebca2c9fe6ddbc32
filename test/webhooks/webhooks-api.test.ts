// Webhook subscriptions through the API: CRUD, validation, catalogue, isolation, and real deliveries to local
// receivers.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type SiteServer, startSiteServer } from '../fixtures/site-server.js';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.js';
import { OTHER_KEY, type TestApp, startTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('webhooks API', () => {
  let t: TestApp;
  let site: SiteServer;
  const receivers: Receiver[] = [];
  before(async () => {
    site = await startSiteServer();
    t = await startTestApp({
      env: { ALLOW_LOCAL_WEBHOOKS: 'true', WEBHOOK_RETRY_UNIT_MS: '40', WEBHOOK_POLL_MS: '10' },
    });
  });
  after(async () => {
    await t.close();
    await site.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  async function receiver(): Promise<Receiver> {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  }
  async function subscribe(
    body: Record<string, unknown>,
    key?: string,
  ): Promise<{ webhook_id: string; secret: string }> {
    const res = await t.request('POST', '/v1/webhooks', {
      body: { name: 'hook', event_types: ['scrape.completed'], ...body },
      ...(key ? { key } : {}),
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data;
  }
  const scrape = (key?: string) =>
    t.request('POST', '/v1/scrape', {
      body: { url: `${site.url}/pages/article.html`, max_age: 0 },
      ...(key ? { key } : {}),
    });
  const deliveries = async (id: string, query = '') =>
    (await t.request('GET', `/v1/webhooks/${id}/deliveries${query}`)).json();

  it('creates a subscription with defaults and shows its secret only once', async () => {
    const r = await receiver();
    const created = await subscribe({ webhook_url: r.url });
    assert.match(created.webhook_id, UUID);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/=]{40,}$/);
    const one = (await t.request('GET', `/v1/webhooks/${created.webhook_id}`)).json().data;
    assert.equal(one.webhook_secret, '***hidden***');
    assert.equal(one.timeout_seconds, 10);
    assert.equal(one.max_retries, 3);
    assert.equal(one.retry_backoff_multiplier, 2);
    assert.equal(one.scope, 'all');
    assert.equal(one.is_active, true);
    const list = await t.request('GET', '/v1/webhooks');
    assert.ok(
      !list.body.includes(created.secret) && !JSON.stringify(one).includes(created.secret),
      'the secret never shows again',
    );
    const item = list.json().data.find((w: { uuid: string }) => w.uuid === created.webhook_id);
    assert.deepEqual(Object.keys(item).sort(), [
      'consecutive_failures',
      'created_at',
      'event_types',
      'failed_deliveries',
      'is_active',
      'last_failure_at',
      'last_success_at',
      'name',
      'scope',
      'successful_deliveries',
      'total_deliveries',
      'uuid',
      'webhook_secret',
      'webhook_url',
    ]);
  });

  it('validates create bodies with field paths and codes', async () => {
    const url = 'http://127.0.0.1:9/hook';
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: '', webhook_url: url, event_types: ['scrape.completed'] }, 'name', 'too_small'],
      [{ name: 'x', webhook_url: url, event_types: ['scrape.done'] }, 'event_types.0', 'custom'],
      [{ name: 'x', webhook_url: url, event_types: [] }, 'event_types', 'too_small'],
      [
        { name: 'x', webhook_url: url, event_types: ['task.executed'], scope: 'specific' },
        'specific_task_ids',
        'custom',
      ],
      [
        { name: 'x', webhook_url: url, event_types: ['scrape.completed'], timeout_seconds: 0 },
        'timeout_seconds',
        'too_small',
      ],
      [
        { name: 'x', webhook_url: url, event_types: ['scrape.completed'], timeout_seconds: 61 },
        'timeout_seconds',
        'too_big',
      ],
      [{ name: 'x', webhook_url: url, event_types: ['scrape.completed'], max_retries: 11 }, 'max_retries', 'too_big'],
      [
        { name: 'x', webhook_url: url, event_types: ['scrape.completed'], retry_backoff_multiplier: 0.5 },
        'retry_backoff_multiplier',
        'too_small',
      ],
      [
        { name: 'x', webhook_url: url, event_types: ['scrape.completed'], custom_headers: { 'X-Webhook-Event': 'x' } },
        'custom_headers.X-Webhook-Event',
        'custom',
      ],
      [
        { name: 'x', webhook_url: url, event_types: ['scrape.completed'], custom_headers: { 'bad name': 'x' } },
        'custom_headers.bad name',
        'custom',
      ],
      [
        {
          name: 'x',
          webhook_url: url,
          event_types: ['scrape.completed'],
          custom_headers: { 'X-Ok': 'a\r\nInjected: 1' },
        },
        'custom_headers.X-Ok',
        'custom',
      ],
      [
        {
          name: 'x',
          webhook_url: url,
          event_types: ['scrape.completed'],
          custom_headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])),
        },
        'custom_headers',
        'too_big',
      ],
      [
        { name: 'x', webhook_url: url, event_types: ['scrape.completed'], secret: 'mine' },
        'secret',
        'unrecognized_keys',
      ],
      [{ name: 'x', webhook_url: 'ftp://example.com/', event_types: ['scrape.completed'] }, 'webhook_url', 'custom'],
      [{ name: 'x', event_types: ['scrape.completed'] }, 'webhook_url', 'invalid_type'],
    ];
    for (const [body, field, code] of cases) {
      const res = await t.request('POST', '/v1/webhooks', { body });
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.ok(
        res.json().data.issues.some((i: { field: string; code: string }) => i.field === field && i.code === code),
        `${JSON.stringify(body)} -> ${res.body}`,
      );
    }
  });

  it('updates any subset, keeps the secret, and answers with the whole subscription', async () => {
    const { webhook_id } = await subscribe({
      webhook_url: 'http://127.0.0.1:9/hook',
      custom_headers: { Authorization: 'Bearer receiver-token' },
    });
    const before = (await t.request('GET', `/v1/webhooks/${webhook_id}`)).json().data;
    assert.deepEqual(before.custom_headers, { Authorization: '***hidden***' }, 'header values may be credentials');
    await new Promise((r) => setTimeout(r, 5));
    const res = await t.request('PUT', `/v1/webhooks/${webhook_id}`, { body: { name: 'renamed', max_retries: 5 } });
    assert.equal(res.statusCode, 200, res.body);
    const after = res.json().data;
    assert.equal(after.name, 'renamed');
    assert.equal(after.max_retries, 5);
    assert.equal(after.timeout_seconds, before.timeout_seconds);
    assert.equal(after.webhook_secret, '***hidden***');
    assert.ok(after.updated_at > before.updated_at);
    const bad = await t.request('PUT', `/v1/webhooks/${webhook_id}`, { body: { scope: 'specific' } });
    assert.equal(bad.statusCode, 400);
  });

  it('activates, deactivates, deletes, and answers 400/404 for bad, unknown or foreign ids', async () => {
    const { webhook_id } = await subscribe({ webhook_url: 'http://127.0.0.1:9/hook' });
    const off = await t.request('PUT', `/v1/webhooks/${webhook_id}/deactivate`);
    assert.deepEqual(off.json(), {
      success: true,
      message: 'Webhook subscription deactivated',
      data: { uuid: webhook_id, is_active: false },
    });
    const on = await t.request('PUT', `/v1/webhooks/${webhook_id}/activate`);
    assert.equal(on.json().data.is_active, true);
    const foreignCalls: Array<[string, string, unknown]> = [
      ['GET', '', undefined],
      ['PUT', '', { name: 'mine now' }],
      ['PUT', '/activate', undefined],
      ['DELETE', '', undefined],
      ['POST', '/test', undefined],
      ['GET', '/deliveries', undefined],
    ];
    for (const [method, path, body] of foreignCalls) {
      const foreign = await t.request(method, `/v1/webhooks/${webhook_id}${path}`, {
        key: OTHER_KEY,
        ...(body ? { body } : {}),
      });
      assert.equal(foreign.statusCode, 404, `${method} ${path} by another key`);
      assert.deepEqual(foreign.json(), { success: false, error: 'Not found', message: 'Webhook not found' });
    }
    const bad = await t.request('GET', '/v1/webhooks/nope');
    assert.deepEqual(bad.json(), {
      success: false,
      error: 'Invalid webhook ID',
      message: 'Webhook ID must be a valid UUID',
    });
    const del = await t.request('DELETE', `/v1/webhooks/${webhook_id}`);
    assert.deepEqual(del.json(), { success: true, message: 'Webhook subscription deleted' });
    assert.equal((await t.request('GET', `/v1/webhooks/${webhook_id}`)).statusCode, 404);
    assert.equal((await t.request('PUT', `/v1/webhooks/${webhook_id}/activate`)).statusCode, 404);
  });

  it('lists the event catalogue', async () => {
    const res = await t.request('GET', '/v1/webhook-events');
    const data = res.json().data;
    assert.ok(data.event_types.includes('crawl.completed'));
    assert.ok(data.event_types.includes('webhook.test'));
    assert.deepEqual(Object.keys(data.categories).sort(), [
      'crawl',
      'map',
      'monitor',
      'scheduled_tasks',
      'scrape',
      'search',
      'webhook',
    ]);
    assert.deepEqual(data.categories.scheduled_tasks, ['task.executed', 'task.failed', 'task.paused', 'task.resumed']);
    assert.equal(data.events.length, data.event_types.length);
    assert.ok(
      data.events.every(
        (e: { name: string; category: string; description: string }) => e.name && e.category && e.description,
      ),
    );
  });

  it('delivers an event signed, with the interface headers, and records it', async () => {
    const r = await receiver();
    const { webhook_id, secret } = await subscribe({
      webhook_url: `${r.url}/hook`,
      custom_headers: { 'X-Custom': 'yes' },
    });
    const job = (await scrape()).json().data.job_id;
    const [req] = await r.waitFor(1);
    assert.ok(req);
    assert.equal(req.method, 'POST');
    assert.equal(req.path, '/hook');
    const body = JSON.parse(req.body);
    assert.equal(body.job_id, job);
    assert.equal(body.status, 'completed');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers['x-webhook-event'], 'scrape.completed');
    assert.equal(req.headers['x-custom'], 'yes');
    assert.match(String(req.headers['x-webhook-timestamp']), /Z$/);
    // The receiver's own check: HMAC-SHA256 of the exact bytes received, keyed with the secret.
    const expected = `sha256=${createHmac('sha256', secret).update(req.body).digest('hex')}`;
    assert.equal(req.headers['x-service-signature'], expected);
    const sw = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
      .update(`${req.headers['webhook-id']}.${req.headers['webhook-timestamp']}.${req.body}`)
      .digest('base64');
    assert.equal(req.headers['webhook-signature'], `v1,${sw}`);
    const deliveryId = String(req.headers['x-webhook-delivery-id']);
    assert.equal(req.headers['webhook-id'], deliveryId);

    const record = await until('delivered record', async () => {
      const list = await deliveries(webhook_id);
      return list.data[0]?.status === 'delivered' ? list : undefined;
    });
    const d = record.data[0];
    assert.equal(d.uuid, deliveryId);
    assert.equal(d.webhookSubscriptionUuid, webhook_id);
    assert.equal(d.eventType, 'scrape.completed');
    assert.equal(d.attempt_number, 1);
    assert.equal(d.request_method, 'POST');
    assert.equal(d.response_status, 200);
    assert.equal(typeof d.response_duration_ms, 'number');
    assert.deepEqual(record.meta, { limit: 100, offset: 0, filters: { status: null, from: null, to: null } });
    const sub = (await t.request('GET', `/v1/webhooks/${webhook_id}`)).json().data;
    assert.equal(sub.total_deliveries, 1);
    assert.equal(sub.successful_deliveries, 1);
    assert.ok(sub.last_success_at);
  });

  it('retries 5xx with backoff up to max_retries, then fails; the attempts are logged', async () => {
    const r = await receiver();
    r.setMode('status:500');
    const { webhook_id } = await subscribe({ webhook_url: r.url, max_retries: 2 });
    await scrape();
    const failed = await until('failed delivery', async () => {
      const list = await deliveries(webhook_id);
      return list.data[0]?.status === 'failed' ? list.data[0] : undefined;
    });
    assert.equal(r.requests.length, 3, '1 attempt + 2 retries');
    assert.equal(failed.attempt_number, 3);
    assert.equal(failed.error_code, 'HTTP_500');
    assert.equal(failed.response_status, undefined, 'failed records omit the response fields');
    const ids = new Set(r.requests.map((q) => q.headers['x-webhook-delivery-id']));
    assert.equal(ids.size, 1, 'the same delivery id on every retry');
    const one = (await t.request('GET', `/v1/webhooks/${webhook_id}/deliveries/${failed.uuid}`)).json().data;
    assert.deepEqual(
      one.attempts.map((a: { response_status: number }) => a.response_status),
      [500, 500, 500],
    );
    const gaps = [r.requests[1]!.at - r.requests[0]!.at, r.requests[2]!.at - r.requests[1]!.at];
    assert.ok(gaps[0]! >= 35 && gaps[1]! >= 75, `backoff 1 then 2 units of 40 ms: ${gaps}`);
  });

  it('fails 4xx and 3xx at once without retrying or following the redirect', async () => {
    for (const mode of ['status:404', 'redirect'] as const) {
      const r = await receiver();
      r.setMode(mode);
      const { webhook_id } = await subscribe({ webhook_url: r.url });
      await scrape();
      const failed = await until(`failed on ${mode}`, async () =>
        (await deliveries(webhook_id)).data.find((d: { status: string }) => d.status === 'failed'),
      );
      assert.equal(failed.attempt_number, 1);
      await new Promise((res) => setTimeout(res, 150));
      assert.equal(r.requests.length, 1, `${mode}: one request, no retry, no redirect followed`);
    }
  });

  it('sends test deliveries whatever the event types, and replays only failed deliveries', async () => {
    const r = await receiver();
    r.setMode('status:404');
    const { webhook_id } = await subscribe({ webhook_url: r.url, event_types: ['crawl.completed'] });
    const test = await t.request('POST', `/v1/webhooks/${webhook_id}/test`);
    assert.equal(test.statusCode, 200);
    const testId = test.json().data.delivery_id;
    const [req] = await r.waitFor(1);
    assert.equal(req?.headers['x-webhook-event'], 'webhook.test');
    assert.deepEqual(Object.keys(JSON.parse(req?.body ?? '{}')).sort(), ['message', 'timestamp', 'webhook_id']);
    await until('test failed', async () =>
      (await deliveries(webhook_id)).data[0]?.status === 'failed' ? true : undefined,
    );

    r.setMode('ok');
    const replay = await t.request('POST', `/v1/webhooks/${webhook_id}/deliveries/${testId}/replay`);
    assert.equal(replay.statusCode, 200, replay.body);
    assert.equal(replay.json().data.status, 'pending');
    const replayId = replay.json().data.delivery_id;
    assert.notEqual(replayId, testId);
    await r.waitFor(2);
    assert.equal(r.requests[1]?.body, r.requests[0]?.body, 'the same payload');
    await until('replay delivered', async () =>
      (await deliveries(webhook_id, '?status=delivered')).data[0]?.uuid === replayId ? true : undefined,
    );
    const again = await t.request('POST', `/v1/webhooks/${webhook_id}/deliveries/${replayId}/replay`);
    assert.equal(again.statusCode, 409);
    const missing = await t.request(
      'POST',
      `/v1/webhooks/${webhook_id}/deliveries/00000000-0000-4000-8000-000000000000/replay`,
    );
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().message, 'Delivery not found');
    const sub = (await t.request('GET', `/v1/webhooks/${webhook_id}`)).json().data;
    assert.equal(sub.consecutive_failures, 0, 'test deliveries never count towards auto-disable');
  });

  it('disables a subscription after 10 consecutive failed deliveries; activation re-enables it', async () => {
    const r = await receiver();
    r.setMode('status:410');
    const { webhook_id } = await subscribe({ webhook_url: r.url, max_retries: 0 });
    for (let i = 0; i < 10; i++) await scrape();
    const sub = await until('auto-disabled', async () => {
      const s = (await t.request('GET', `/v1/webhooks/${webhook_id}`)).json().data;
      return s.is_active === false ? s : undefined;
    });
    assert.equal(sub.consecutive_failures, 10);
    assert.equal(sub.failed_deliveries, 10);
    await scrape();
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(r.requests.length, 10, 'a disabled subscription receives nothing');
    const on = await t.request('PUT', `/v1/webhooks/${webhook_id}/activate`);
    assert.equal(on.json().data.is_active, true);
    assert.equal((await t.request('GET', `/v1/webhooks/${webhook_id}`)).json().data.consecutive_failures, 0);
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(r.requests.length, 10, 'nothing from the inactive time is sent after activation');
  });

  it('keeps a hanging receiver from delaying deliveries to others', async () => {
    const slow = await receiver();
    slow.setMode('hang');
    const fast = await receiver();
    await subscribe({ webhook_url: slow.url, timeout_seconds: 5, max_retries: 0 });
    await subscribe({ webhook_url: fast.url });
    const started = Date.now();
    for (let i = 0; i < 6; i++) await scrape();
    await fast.waitFor(6, 5000);
    assert.ok(
      Date.now() - started < 4000,
      `fast receiver got all 6 in ${Date.now() - started} ms while the other hangs`,
    );
  });

  it('filters, pages and orders the delivery history', async () => {
    const r = await receiver();
    const { webhook_id } = await subscribe({ webhook_url: r.url });
    for (let i = 0; i < 3; i++) await scrape();
    await until('3 delivered', async () =>
      (await deliveries(webhook_id, '?status=delivered')).data.length === 3 ? true : undefined,
    );
    const page = await deliveries(webhook_id, '?limit=2&offset=1');
    assert.equal(page.data.length, 2);
    assert.deepEqual(page.meta, { limit: 2, offset: 1, filters: { status: null, from: null, to: null } });
    const all = (await deliveries(webhook_id)).data;
    assert.ok(all[0].created_at >= all[1].created_at && all[1].created_at >= all[2].created_at, 'newest first');
    const future = await deliveries(webhook_id, '?from=2999-01-01');
    assert.equal(future.data.length, 0);
    assert.equal(future.meta.filters.from, '2999-01-01');
    const today = new Date().toISOString().slice(0, 10);
    assert.equal((await deliveries(webhook_id, `?to=${today}`)).data.length, 3, 'a date-only `to` covers that day');
    for (const q of ['?limit=0', '?limit=1001', '?status=bogus', '?from=yesterday', '?offset=-1']) {
      const res = await t.request('GET', `/v1/webhooks/${webhook_id}/deliveries${q}`);
      assert.equal(res.statusCode, 400, q);
    }
  });

  it('notifies only the owner of an event', async () => {
    const mine = await receiver();
    const theirs = await receiver();
    await subscribe({ webhook_url: mine.url });
    await subscribe({ webhook_url: theirs.url }, OTHER_KEY);
    await scrape(OTHER_KEY);
    await theirs.waitFor(1);
    await new Promise((res) => setTimeout(res, 150));
    assert.equal(mine.requests.length, 0);
  });
});

describe('webhooks address guard', () => {
  it('refuses private and local webhook URLs at create and update unless ALLOW_LOCAL_WEBHOOKS', async () => {
    const t = await startTestApp();
    try {
      const urls = [
        'http://127.0.0.1/hook',
        'http://localhost/hook',
        'http://localhost./hook',
        'http://api.localhost/hook',
        'http://[::1]/hook',
        'http://2130706433/hook',
        'http://0177.0.0.1/hook',
        'http://0x7f.0.0.1/hook',
        'http://127.1/hook',
        'http://[::ffff:127.0.0.1]/hook',
        'http://0.0.0.0/hook',
        'http://10.1.2.3/hook',
        'http://172.16.0.1/hook',
        'http://192.168.1.1/hook',
        'http://169.254.169.254/hook',
      ];
      for (const url of urls) {
        const res = await t.request('POST', '/v1/webhooks', {
          body: { name: 'x', webhook_url: url, event_types: ['scrape.completed'] },
        });
        assert.equal(res.statusCode, 400, url);
        assert.equal(res.json().data.issues[0].field, 'webhook_url', url);
      }
      const ok = await t.request('POST', '/v1/webhooks', {
        body: { name: 'x', webhook_url: 'https://hooks.example.com/in', event_types: ['scrape.completed'] },
      });
      assert.equal(ok.statusCode, 201, ok.body);
      const id = ok.json().data.webhook_id;
      const update = await t.request('PUT', `/v1/webhooks/${id}`, { body: { webhook_url: 'http://192.168.0.10/x' } });
      assert.equal(update.statusCode, 400);
    } finally {
      await t.close();
    }
  });
});
