// Webhook deliveries across a PostgreSQL outage: an attempt that ends while the store is down is recorded once it is
// back, and the delivery goes on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TcpProxy } from '../fixtures/tcp-proxy.js';
import { postgresUrlThrough, startPostgresProxy } from '../helpers/postgres-proxy.js';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.js';
import { postgresDatabase, type TestDatabase } from '../helpers/databases.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

describe('webhook deliveries across a PostgreSQL outage', () => {
  const real = postgresDatabase();
  let proxy: TcpProxy;
  let receiver: Receiver;
  let t: TestApp;

  before(async () => {
    proxy = await startPostgresProxy();
    receiver = await startReceiver();
    const throughProxy: TestDatabase = { ...real, target: { ...real.target, url: postgresUrlThrough(proxy) } };
    t = await startTestApp({
      database: throughProxy,
      env: {
        ALLOW_LOCAL_WEBHOOKS: 'true',
        WEBHOOK_POLL_MS: '50',
        WEBHOOK_RETRY_UNIT_MS: '200',
        WEBHOOK_LEASE_MS: '3000',
      },
    });
  });

  after(async () => {
    proxy.mode = 'pass';
    await t?.close();
    await real.drop();
    await proxy?.close();
    await receiver?.close();
  });

  it('records the attempt that ended during the outage and retries the delivery afterwards, with its id', async () => {
    receiver.setMode('hang');
    const created = await t.request('POST', '/v1/webhooks', {
      body: { name: 'hook', webhook_url: receiver.url, event_types: ['scrape.completed'], timeout_seconds: 1 },
    });
    assert.equal(created.statusCode, 201, created.body);
    const webhookId = created.json().data.webhook_id as string;
    const deliveryId = (await t.request('POST', `/v1/webhooks/${webhookId}/test`)).json().data.delivery_id as string;
    await receiver.waitFor(1, 5000);

    // The attempt times out (1 s) while the store is unreachable: its record cannot be written.
    proxy.mode = 'refuse';
    proxy.cutAll();
    await sleep(2500);
    receiver.setMode('ok');
    proxy.mode = 'pass';

    const deadline = Date.now() + 15_000;
    let delivery: Record<string, unknown> | undefined;
    for (;;) {
      const res = await t.request('GET', `/v1/webhooks/${webhookId}/deliveries/${deliveryId}`);
      if (res.statusCode === 200) {
        delivery = res.json().data as Record<string, unknown>;
        if (delivery.status === 'delivered') break;
      }
      assert.ok(Date.now() < deadline, `delivered after the outage: ${JSON.stringify(delivery)}`);
      await sleep(100);
    }
    // The messages carry the whole record: this test failed once on a loaded CI machine and was not reproduced since.
    assert.equal(
      delivery.attempt_number,
      2,
      `the timed-out attempt was recorded, the retry is attempt 2: ${JSON.stringify(delivery)}`,
    );
    const ids = receiver.requests.map((r) => r.headers['x-webhook-delivery-id']);
    assert.deepEqual(ids, [deliveryId, deliveryId], `sent twice in all, with its id: ${JSON.stringify(delivery)}`);
  });
});
