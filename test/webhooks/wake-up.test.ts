// Events recorded in-process wake the dispatcher at once: delivery does not wait for the poll interval.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type SiteServer, startSiteServer } from '../fixtures/site-server.js';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

let t: TestApp;
let site: SiteServer;
let receiver: Receiver;
before(async () => {
  site = await startSiteServer();
  receiver = await startReceiver();
  // A poll far longer than the test: only the wake-up can deliver in time.
  t = await startTestApp({ env: { ALLOW_LOCAL_WEBHOOKS: 'true', WEBHOOK_POLL_MS: '60000' } });
});
after(async () => {
  await t.close();
  await site.close();
  await receiver.close();
});

it('delivers an event within a second although the dispatcher polls once a minute', async () => {
  const res = await t.request('POST', '/v1/webhooks', {
    body: { name: 'wake', webhook_url: receiver.url, event_types: ['scrape.completed'] },
  });
  assert.equal(res.statusCode, 201);
  // Let the dispatcher's loops reach their (one-minute) sleep first.
  await new Promise((r) => setTimeout(r, 100));
  const started = Date.now();
  await t.request('POST', '/v1/scrape', { body: { url: `${site.url}/pages/article.html`, max_age: 0 } });
  const [delivery] = await receiver.waitFor(1, 5_000);
  assert.equal(delivery?.headers['x-webhook-event'], 'scrape.completed');
  assert.ok(Date.now() - started < 1_000, `delivered ${Date.now() - started} ms after the scrape started`);
});
