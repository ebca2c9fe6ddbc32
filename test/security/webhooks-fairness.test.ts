// Webhook slots are shared fairly, on SQLite and PostgreSQL: one key's slow receivers cannot hold the deliveries of
// other keys (or of its other receivers) back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.js';
import { allDatabases } from '../helpers/databases.js';
import { OTHER_KEY, type TestApp, startTestApp, TEST_KEY } from '../helpers/test-app.js';

/** A receiver that holds every request open until `release()`, counting the requests it holds. */
interface HoldingReceiver {
  receiver: Receiver;
  /** Requests being held right now. */
  readonly held: number;
  /** The most held at once. */
  readonly peak: number;
  release(): void;
}

async function holdingReceiver(): Promise<HoldingReceiver> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  let peak = 0;
  const receiver = await startReceiver(async (_received, res) => {
    held += 1;
    peak = Math.max(peak, held);
    await gate;
    held -= 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  });
  return {
    receiver,
    get held() {
      return held;
    },
    get peak() {
      return peak;
    },
    release,
  };
}

async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// Small numbers with the shape of the production defaults: slots > per owner > per receiver.
const SLOTS = {
  WEBHOOK_CONCURRENCY: '8',
  WEBHOOK_SUBSCRIPTION_CONCURRENCY: '4',
  WEBHOOK_OWNER_CONCURRENCY: '4',
  WEBHOOK_RECEIVER_CONCURRENCY: '2',
};

for (const make of allDatabases()) {
  const database = make();
  describe(`webhook slots are fair on ${database.name}`, () => {
    let t: TestApp;
    const receivers: Receiver[] = [];
    const holders: HoldingReceiver[] = [];
    before(async () => {
      t = await startTestApp({
        database,
        env: {
          ALLOW_LOCAL_WEBHOOKS: 'true',
          WEBHOOK_POLL_MS: '20',
          WEBHOOK_TEST_PER_MINUTE: '100',
          WEBHOOK_TEST_PER_MINUTE_PER_KEY: '1000',
          ...SLOTS,
        },
      });
    });
    after(async () => {
      for (const h of holders) h.release();
      await t.close();
      await database.drop();
      await Promise.all([...receivers, ...holders.map((h) => h.receiver)].map((r) => r.close()));
    });

    async function fast(): Promise<Receiver> {
      const r = await startReceiver();
      receivers.push(r);
      return r;
    }
    async function holding(): Promise<HoldingReceiver> {
      const h = await holdingReceiver();
      holders.push(h);
      return h;
    }
    async function subscribe(url: string, key: string): Promise<string> {
      const res = await t.request('POST', '/v1/webhooks', {
        key,
        body: { name: 'hook', webhook_url: url, event_types: ['scrape.completed'], timeout_seconds: 60 },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data.webhook_id as string;
    }
    async function test(id: string, key: string): Promise<string> {
      const res = await t.request('POST', `/v1/webhooks/${id}/test`, { key });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.delivery_id as string;
    }
    const heldBy = (hs: HoldingReceiver[]) => hs.reduce((n, h) => n + h.held, 0);

    it("one key's many subscriptions to receivers that never answer leave room for another key's delivery", async () => {
      // Three slow receivers, two subscriptions each, three test deliveries per subscription: 18
      // deliveries, more than the 8 slots, all from one key.
      const slow = [await holding(), await holding(), await holding()];
      const mine: string[] = [];
      for (const h of slow) for (let i = 0; i < 2; i++) mine.push(await subscribe(h.receiver.url, TEST_KEY));
      const queued: Array<[string, string]> = [];
      for (let round = 0; round < 3; round++) for (const id of mine) queued.push([id, await test(id, TEST_KEY)]);
      // Wait until the slow receivers hold what the dispatcher lets them, and a little longer.
      await until('the slow receivers to fill up', () => heldBy(slow) >= 4);
      await new Promise((r) => setTimeout(r, 300));

      try {
        const other = await fast();
        const theirs = await subscribe(other.url, OTHER_KEY);
        await test(theirs, OTHER_KEY);
        await other.waitFor(1, 3_000);
        assert.ok(heldBy(slow) <= 4, `one key holds at most WEBHOOK_OWNER_CONCURRENCY (4) slots, held ${heldBy(slow)}`);
        for (const h of slow)
          assert.ok(h.peak <= 2, `a receiver holds at most WEBHOOK_RECEIVER_CONCURRENCY (2) slots, held ${h.peak}`);
      } finally {
        // Nothing is lost: once released, every held-back delivery is delivered.
        for (const h of slow) h.release();
      }
      await until(
        'every slow delivery delivered',
        async () => {
          for (const [sub, delivery] of queued) {
            const d = (await t.request('GET', `/v1/webhooks/${sub}/deliveries/${delivery}`)).json().data;
            if (d.status !== 'delivered') return false;
          }
          return true;
        },
        20_000,
      );
      for (const h of slow) assert.ok(h.peak <= 2, `a receiver held at most 2 at once, held ${h.peak}`);
    });

    it("one key's slow receiver does not hold back the same key's fast receiver", async () => {
      const slow = await holding();
      const subs: string[] = [];
      for (let i = 0; i < 4; i++) subs.push(await subscribe(slow.receiver.url, TEST_KEY));
      for (let round = 0; round < 4; round++) for (const id of subs) await test(id, TEST_KEY);
      await until('the slow receiver to fill up', () => slow.held >= 2);
      await new Promise((r) => setTimeout(r, 300));

      try {
        const quick = await fast();
        const id = await subscribe(quick.url, TEST_KEY);
        await test(id, TEST_KEY);
        await quick.waitFor(1, 3_000);
        assert.ok(slow.peak <= 2, `the slow receiver holds at most 2 slots, held ${slow.peak}`);
      } finally {
        slow.release();
      }
    });
  });
}
