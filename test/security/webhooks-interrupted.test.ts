// A delivery whose sender died mid-attempt, on SQLite and PostgreSQL: the interrupted attempt is counted and logged,
// and max_retries holds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deliveryHeaders } from '../../src/webhooks/dispatcher.js';
import { DeliveryStore } from '../../src/webhooks/delivery-store.js';
import { sendWebhook } from '../../src/webhooks/sender.js';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.js';
import { allDatabases } from '../helpers/databases.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';
import { webhookIdsOfTasks } from '../../src/tasks/task-store.js';

const LEASE_MS = 500;

for (const make of allDatabases()) {
  const database = make();
  describe(`interrupted delivery attempts on ${database.name}`, () => {
    let t: TestApp;
    let receiver: Receiver;
    let store: DeliveryStore;
    before(async () => {
      receiver = await startReceiver();
      t = await startTestApp({
        database,
        env: {
          ALLOW_LOCAL_WEBHOOKS: 'true',
          WEBHOOK_POLL_MS: '20',
          WEBHOOK_LEASE_MS: String(LEASE_MS),
          WEBHOOK_RETRY_UNIT_MS: '50',
        },
      });
      store = new DeliveryStore(t.app.db.kysely, t.app.db.dialect, webhookIdsOfTasks);
    });
    after(async () => {
      await t.close();
      await database.drop();
      await receiver.close();
    });

    /**
     * Queues a test delivery while the service's own sender is stopped, then plays a sender that
     * claims it, sends it (the receiver sees the request) and dies before recording anything.
     */
    async function interruptedDelivery(maxRetries: number): Promise<{ webhookId: string; deliveryId: string }> {
      const dispatcher = t.app.dispatcher;
      assert.ok(dispatcher);
      await dispatcher.stop();
      const created = await t.request('POST', '/v1/webhooks', {
        body: { name: 'hook', webhook_url: receiver.url, event_types: ['scrape.completed'], max_retries: maxRetries },
      });
      const webhookId = created.json().data.webhook_id as string;
      const deliveryId = (await t.request('POST', `/v1/webhooks/${webhookId}/test`)).json().data.delivery_id as string;
      const [claimed] = await store.claim({
        owner: 'dead-sender',
        now: new Date().toISOString(),
        leaseMs: LEASE_MS,
        max: 1,
        full: { subscriptions: [], owners: [], receivers: [] },
        choose: (due) => due.slice(0, 1),
      });
      assert.equal(claimed?.delivery.id, deliveryId);
      const outcome = await sendWebhook({
        url: claimed.delivery.request_url,
        body: claimed.delivery.payload,
        headers: deliveryHeaders(claimed, new Date(), 'test'),
        timeoutMs: 5_000,
        allowPrivateAddresses: true,
      });
      assert.equal(outcome.kind, 'delivered');
      dispatcher.start();
      return { webhookId, deliveryId };
    }
    const delivery = async (webhookId: string, deliveryId: string) =>
      (await t.request('GET', `/v1/webhooks/${webhookId}/deliveries/${deliveryId}`)).json().data;

    it('counts the interrupted attempt: the re-send is attempt 2, with the interrupted one in the log', async () => {
      receiver.clear();
      const { webhookId, deliveryId } = await interruptedDelivery(3);
      const d = await until('delivered after the takeover', async () => {
        const one = await delivery(webhookId, deliveryId);
        return one.status === 'delivered' ? one : undefined;
      });
      assert.equal(receiver.requests.length, 2, 'the receiver saw two requests');
      assert.deepEqual(
        receiver.requests.map((r) => r.headers['x-webhook-delivery-id']),
        [deliveryId, deliveryId],
        'with the same delivery id',
      );
      assert.equal(d.uuid, deliveryId);
      assert.equal(d.attempt_number, 2);
      assert.equal(d.attempts.length, 2);
      const [interrupted, resent] = d.attempts;
      assert.equal(interrupted.attempt_number, 1);
      assert.equal(interrupted.error_code, 'INTERRUPTED');
      assert.equal(interrupted.response_status, null);
      assert.equal(resent.attempt_number, 2);
      assert.equal(resent.response_status, 200);
      // The dead sender coming back to life cannot record over the takeover.
      const late = await store.recordAttempt({
        deliveryId,
        leaseOwner: 'dead-sender',
        attemptNumber: 1,
        startedAt: interrupted.started_at,
        finishedAt: new Date().toISOString(),
        durationMs: 1,
        statusCode: 200,
        result: 'delivered',
      });
      assert.equal(late, 'ignored');
      assert.equal((await delivery(webhookId, deliveryId)).attempts.length, 2);
    });

    it('an interrupted last attempt uses up max_retries: the delivery fails with INTERRUPTED and is not sent again', async () => {
      receiver.clear();
      const { webhookId, deliveryId } = await interruptedDelivery(0);
      const d = await until('failed after the takeover', async () => {
        const one = await delivery(webhookId, deliveryId);
        return one.status === 'failed' ? one : undefined;
      });
      assert.equal(d.error_code, 'INTERRUPTED');
      assert.equal(d.attempt_number, 1);
      assert.equal(d.attempts.length, 1);
      assert.equal(d.attempts[0].error_code, 'INTERRUPTED');
      await new Promise((r) => setTimeout(r, LEASE_MS));
      assert.equal(receiver.requests.length, 1, 'no request beyond max_retries + 1 attempts');
      const sub = (await t.request('GET', `/v1/webhooks/${webhookId}`)).json().data;
      assert.equal(sub.failed_deliveries, 1);
    });
  });
}
