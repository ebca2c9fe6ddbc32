// Each app owns its outbox signal: the events one app records wake its own dispatcher, never another app's in the same
// process.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OutboxSignal, recordEvent } from '../../src/events/outbox.js';
import { type SiteServer, startSiteServer } from '../fixtures/site-server.js';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.js';
import { TEST_KEY, type TestApp, startTestApp } from '../helpers/test-app.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('OutboxSignal', () => {
  it('calls its listeners on the next turn, once for the events of one turn, until they stop listening', async () => {
    const signal = new OutboxSignal();
    let heard = 0;
    const stop = signal.listen(() => (heard += 1));
    signal.recorded();
    signal.recorded();
    assert.equal(heard, 0, 'not within the turn that recorded (the transaction has not committed yet)');
    await nextTurn();
    assert.equal(heard, 1);
    stop();
    signal.recorded();
    await nextTurn();
    assert.equal(heard, 1);
  });
});

describe('two apps in one process', () => {
  let a: TestApp;
  let b: TestApp;
  let site: SiteServer;
  let receiver: Receiver;
  before(async () => {
    site = await startSiteServer();
    receiver = await startReceiver();
    // Polls far longer than the test: only a wake-up can make a dispatcher look.
    const env = { ALLOW_LOCAL_WEBHOOKS: 'true', WEBHOOK_POLL_MS: '60000' };
    a = await startTestApp({ env });
    b = await startTestApp({ env });
  });
  after(async () => {
    await a.close();
    await b.close();
    await site.close();
    await receiver.close();
  });

  it("do not wake each other's webhook dispatcher", async () => {
    assert.notEqual(a.app.outbox, b.app.outbox);
    const created = await b.request('POST', '/v1/webhooks', {
      body: { name: 'b', webhook_url: receiver.url, event_types: ['scrape.completed'] },
    });
    assert.equal(created.statusCode, 201);
    // Let B's loops reach their (one-minute) sleep, then write an event to B's store without a
    // signal, as another process would: it waits for B's next poll.
    await new Promise((r) => setTimeout(r, 100));
    const owner = await b.app.keys.verify(TEST_KEY);
    assert.ok(owner);
    await recordEvent(b.app.db.kysely, {
      ownerId: owner,
      type: 'scrape.completed',
      subjectId: null,
      createdAt: new Date().toISOString(),
      payload: { job_id: 'of-b', status: 'completed' },
    });

    // A records events of its own (a scrape): they signal A's outbox, not B's.
    let heardByA = 0;
    const stop = a.app.outbox.listen(() => (heardByA += 1));
    const scraped = await a.request('POST', '/v1/scrape', {
      body: { url: `${site.url}/pages/article.html`, max_age: 0 },
    });
    assert.equal(scraped.statusCode, 200);
    await new Promise((r) => setTimeout(r, 500));
    stop();
    assert.ok(heardByA > 0, "A's events signal A's outbox");
    assert.equal(receiver.requests.length, 0, "A's events did not wake B's dispatcher");

    // B's own signal does wake it: the event was waiting for nothing else.
    b.app.outbox.recorded();
    const [delivery] = await receiver.waitFor(1, 2_000);
    assert.equal(delivery?.headers['x-webhook-event'], 'scrape.completed');
  });
});
