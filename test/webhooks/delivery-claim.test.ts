// Delivery claims on SQLite and PostgreSQL: groups at their limit are left out in SQL, owners share a claim, attempts
// count from their start.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type Db, openDatabase } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrations.js';
import { type ClaimInput, DeliveryStore } from '../../src/webhooks/delivery-store.js';
import { DeliverySlots } from '../../src/webhooks/slots.js';
import { type Subscription, SubscriptionStore } from '../../src/webhooks/subscription-store.js';
import { allDatabases } from '../helpers/databases.js';
import { webhookIdsOfTasks } from '../../src/tasks/task-store.js';

const NOW = '2026-11-23T12:00:00.000Z';

for (const make of allDatabases()) {
  const database = make();
  describe(`webhook delivery claims on ${database.name}`, () => {
    let db: Db;
    let deliveries: DeliveryStore;
    let subscriptions: SubscriptionStore;
    before(async () => {
      db = await openDatabase(database.target);
      await migrateToLatest(db.kysely);
      deliveries = new DeliveryStore(db.kysely, db.dialect, webhookIdsOfTasks);
      subscriptions = new SubscriptionStore(db.kysely);
    });
    after(async () => {
      await db.close();
      await database.drop();
    });

    async function subscription(owner: string, url: string): Promise<Subscription> {
      const id = randomUUID();
      await subscriptions.insert({
        id,
        ownerId: owner,
        secret: 'whsec_dGVzdA==',
        now: NOW,
        fields: {
          name: 'x',
          description: null,
          webhookUrl: url,
          eventTypes: ['scrape.completed'],
          scope: 'all',
          specificTaskIds: null,
          timeoutSeconds: 10,
          maxRetries: 3,
          retryBackoffMultiplier: 2,
          customHeaders: null,
          tags: null,
          metadata: null,
        },
      });
      return (await subscriptions.find(owner, id)) as Subscription;
    }
    async function queue(sub: Subscription, n: number, at = NOW): Promise<void> {
      for (let i = 0; i < n; i++)
        await deliveries.insertDirect({ sub, eventType: 'webhook.test', body: '{}', now: at });
    }
    const claim = (max: number, slots: DeliverySlots, extra: Partial<ClaimInput> = {}) =>
      deliveries.claim({
        owner: 'sender',
        now: NOW,
        leaseMs: 60_000,
        max,
        full: slots.full(),
        choose: (due, m) => slots.choose(due, m),
        ...extra,
      });
    const clear = () => db.kysely.deleteFrom('webhook_deliveries').execute();

    it('leaves full owners and receivers out in SQL: a newer delivery of another key is found behind a long backlog', async () => {
      await clear();
      const big = await subscription('owner-a', 'https://slow.example/hook');
      const small = await subscription('owner-b', 'https://fast.example/hook');
      await queue(big, 40, '2026-11-23T11:00:00.000Z');
      await queue(small, 1);
      for (const [limits, holder] of [
        [{ total: 64, perSubscription: 64, perOwner: 4, perReceiver: 64 }, 'owner'],
        [{ total: 64, perSubscription: 64, perOwner: 64, perReceiver: 4 }, 'receiver'],
      ] as const) {
        const slots = new DeliverySlots(limits);
        for (let i = 0; i < 4; i++)
          slots.take({ subscription_id: big.id, owner_id: 'owner-a', receiver: 'https://slow.example' });
        // A window of 2 rows (max 1) would hold only owner-a's old backlog without the SQL filter.
        const claimed = await claim(1, slots);
        assert.deepEqual(
          claimed.map((c) => c.subscription.ownerId),
          ['owner-b'],
          `with a full ${holder}`,
        );
        await db.kysely
          .updateTable('webhook_deliveries')
          .set({ lease_owner: null, lease_until: null, attempt_number: 0 })
          .execute();
      }
    });

    it('shares one claim among owners and counts each attempt when it starts', async () => {
      await clear();
      const a = await subscription('owner-a', 'https://a.example/hook');
      const b = await subscription('owner-b', 'https://b.example/hook');
      await queue(a, 3, '2026-11-23T11:00:00.000Z');
      await queue(b, 3);
      // The claim reads twice as many due rows as it may take (a, a, a, b here) and serves their
      // owners in turn; the per-owner limit, not this, is what keeps a bigger backlog from
      // taking every slot (previous test).
      const slots = new DeliverySlots({ total: 2, perSubscription: 4, perOwner: 4, perReceiver: 4 });
      const claimed = await claim(2, slots);
      assert.deepEqual(claimed.map((c) => c.subscription.ownerId).sort(), ['owner-a', 'owner-b']);
      for (const c of claimed) {
        assert.equal(c.delivery.attempt_number, 1);
        const row = await db.kysely
          .selectFrom('webhook_deliveries')
          .selectAll()
          .where('id', '=', c.delivery.id)
          .executeTakeFirstOrThrow();
        assert.equal(row.attempt_number, 1, 'stored at the claim');
        assert.equal(row.attempt_started_at, NOW);
        assert.equal(row.receiver, c.subscription.ownerId === 'owner-a' ? 'https://a.example' : 'https://b.example');
      }
    });
  });
}
