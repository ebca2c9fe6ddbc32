// Abuse of the webhook API: test deliveries are rate limited (429 + Retry-After), refused for inactive subscriptions,
// and every attempt is bounded in time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.js';
import { OTHER_KEY, type TestApp, startTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

describe('webhook API abuse', () => {
  let t: TestApp;
  const receivers: Receiver[] = [];
  before(async () => {
    t = await startTestApp({
      env: {
        ALLOW_LOCAL_WEBHOOKS: 'true',
        WEBHOOK_POLL_MS: '10',
        WEBHOOK_TEST_PER_MINUTE: '3',
        WEBHOOK_TEST_PER_MINUTE_PER_KEY: '5',
      },
    });
  });
  after(async () => {
    await t.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  async function receiver(): Promise<Receiver> {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  }
  async function subscribe(body: Record<string, unknown>, key?: string): Promise<string> {
    const res = await t.request('POST', '/v1/webhooks', {
      body: { name: 'hook', event_types: ['scrape.completed'], ...body },
      ...(key ? { key } : {}),
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.webhook_id as string;
  }
  const test = (id: string, key?: string) => t.request('POST', `/v1/webhooks/${id}/test`, key ? { key } : {});

  function assertTooMany(res: Awaited<ReturnType<typeof test>>, what: string): void {
    assert.equal(res.statusCode, 429, `${what}: ${res.body}`);
    const body = res.json();
    assert.equal(body.success, false);
    assert.equal(body.error, 'Too many requests');
    assert.equal(typeof body.message, 'string');
    const retryAfter = Number(res.headers['retry-after']);
    assert.ok(
      Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60,
      `Retry-After ${String(res.headers['retry-after'])}`,
    );
  }

  it('limits test deliveries per subscription and per key with 429 and Retry-After; other keys are not affected', async () => {
    const r = await receiver();
    const first = await subscribe({ webhook_url: r.url });
    const second = await subscribe({ webhook_url: r.url });
    for (let i = 0; i < 3; i++) assert.equal((await test(first)).statusCode, 200);
    assertTooMany(await test(first), 'the 4th test of one subscription in a minute');
    // The key has used 3 of its 5: the second subscription gets 2 more, then the key's limit applies.
    for (let i = 0; i < 2; i++) assert.equal((await test(second)).statusCode, 200);
    assertTooMany(await test(second), 'the 6th test of one key in a minute');
    await r.waitFor(5);
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(r.requests.length, 5, 'refused tests are not sent');

    const theirs = await subscribe({ webhook_url: r.url }, OTHER_KEY);
    assert.equal((await test(theirs, OTHER_KEY)).statusCode, 200, "another key's tests are counted apart");
  });

  it('refuses a test delivery to a deactivated subscription with 409 and sends nothing', async () => {
    const r = await receiver();
    const id = await subscribe({ webhook_url: r.url }, OTHER_KEY);
    assert.equal((await t.request('PUT', `/v1/webhooks/${id}/deactivate`, { key: OTHER_KEY })).statusCode, 200);
    const res = await test(id, OTHER_KEY);
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json().success, false);
    assert.equal(res.json().error, 'Subscription inactive');
    const history = (await t.request('GET', `/v1/webhooks/${id}/deliveries`, { key: OTHER_KEY })).json();
    assert.equal(history.data.length, 0, 'no delivery was queued');
    await new Promise((res2) => setTimeout(res2, 200));
    assert.equal(r.requests.length, 0);

    assert.equal((await t.request('PUT', `/v1/webhooks/${id}/activate`, { key: OTHER_KEY })).statusCode, 200);
    assert.equal((await test(id, OTHER_KEY)).statusCode, 200);
    await r.waitFor(1);
  });

  it('sends nothing a subscription had queued once it is deactivated: the delivery ends failed, SUBSCRIPTION_INACTIVE', async () => {
    const r = await receiver();
    const id = await subscribe({ webhook_url: r.url }, OTHER_KEY);
    const dispatcher = t.app.dispatcher;
    assert.ok(dispatcher);
    await dispatcher.stop();
    let deliveryId: string;
    try {
      const res = await test(id, OTHER_KEY);
      assert.equal(res.statusCode, 200, res.body);
      deliveryId = res.json().data.delivery_id as string;
      assert.equal((await t.request('PUT', `/v1/webhooks/${id}/deactivate`, { key: OTHER_KEY })).statusCode, 200);
    } finally {
      dispatcher.start();
    }
    const delivery = await until('the queued delivery to end', async () => {
      const d = (await t.request('GET', `/v1/webhooks/${id}/deliveries/${deliveryId}`, { key: OTHER_KEY })).json().data;
      return d.status === 'pending' || d.status === 'retrying' ? undefined : d;
    });
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.error_code, 'SUBSCRIPTION_INACTIVE');
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(r.requests.length, 0, 'the receiver got nothing');
  });

  it('refuses to replay a delivery of a deactivated subscription with 409', async () => {
    const r = await receiver();
    r.setMode('status:404');
    const id = await subscribe({ webhook_url: r.url }, OTHER_KEY);
    const deliveryId = (await test(id, OTHER_KEY)).json().data.delivery_id as string;
    await until('the test delivery failed', async () => {
      const d = (await t.request('GET', `/v1/webhooks/${id}/deliveries/${deliveryId}`, { key: OTHER_KEY })).json().data;
      return d.status === 'failed' ? true : undefined;
    });
    await t.request('PUT', `/v1/webhooks/${id}/deactivate`, { key: OTHER_KEY });
    const res = await t.request('POST', `/v1/webhooks/${id}/deliveries/${deliveryId}/replay`, { key: OTHER_KEY });
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json().error, 'Subscription inactive');
    await new Promise((res2) => setTimeout(res2, 200));
    assert.equal(r.requests.length, 1);
  });

  it('bounds every attempt: a receiver that never answers fails with ETIMEDOUT at timeout_seconds, and no longer than 60 s is accepted', async () => {
    for (const timeout_seconds of [61, 3600, 1e9]) {
      const res = await t.request('POST', '/v1/webhooks', {
        key: OTHER_KEY,
        body: { name: 'x', webhook_url: 'http://127.0.0.1:9/', event_types: ['scrape.completed'], timeout_seconds },
      });
      assert.equal(res.statusCode, 400, `timeout_seconds ${timeout_seconds}`);
      assert.equal(res.json().data.issues[0].field, 'timeout_seconds');
    }
    const r = await receiver();
    r.setMode('hang');
    const id = await subscribe({ webhook_url: r.url, timeout_seconds: 1, max_retries: 0 }, OTHER_KEY);
    const deliveryId = (await test(id, OTHER_KEY)).json().data.delivery_id as string;
    const d = await until('the hanging delivery failed', async () => {
      const one = (await t.request('GET', `/v1/webhooks/${id}/deliveries/${deliveryId}`, { key: OTHER_KEY })).json()
        .data;
      return one.status === 'failed' ? one : undefined;
    });
    assert.equal(d.error_code, 'ETIMEDOUT');
    assert.equal(d.attempts.length, 1);
    assert.ok(
      d.attempts[0].duration_ms >= 900 && d.attempts[0].duration_ms < 5_000,
      `attempt took ${d.attempts[0].duration_ms} ms`,
    );
    await r.waitForNoConnections(5_000);
  });
});
