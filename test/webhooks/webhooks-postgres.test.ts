// The webhook engine on PostgreSQL: fan-out, leased claims (SKIP LOCKED), retries, counters and auto-disable.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type SiteServer, startSiteServer } from '../fixtures/site-server.js';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

let t: TestApp;
let site: SiteServer;
let ok: Receiver;
let flaky: Receiver;
before(async () => {
  site = await startSiteServer();
  ok = await startReceiver();
  flaky = await startReceiver();
  t = await startTestApp({
    backend: 'postgres',
    env: { ALLOW_LOCAL_WEBHOOKS: 'true', WEBHOOK_RETRY_UNIT_MS: '40', WEBHOOK_POLL_MS: '10' },
  });
});
after(async () => {
  await t.close();
  await site.close();
  await ok.close();
  await flaky.close();
});

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    assert.ok(Date.now() < deadline, 'timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

it('delivers, retries and counts on PostgreSQL', async () => {
  flaky.setMode('status:500');
  const a = (
    await t.request('POST', '/v1/webhooks', {
      body: { name: 'ok', webhook_url: ok.url, event_types: ['scrape.completed', 'scrape.started'] },
    })
  ).json().data;
  const b = (
    await t.request('POST', '/v1/webhooks', {
      body: { name: 'flaky', webhook_url: flaky.url, event_types: ['scrape.completed'], max_retries: 1 },
    })
  ).json().data;
  for (let i = 0; i < 3; i++) {
    const res = await t.request('POST', '/v1/scrape', { body: { url: `${site.url}/pages/article.html`, max_age: 0 } });
    assert.equal(res.statusCode, 200);
  }
  await ok.waitFor(6);
  const subA = await until(async () => {
    const s = (await t.request('GET', `/v1/webhooks/${a.webhook_id}`)).json().data;
    return s.successful_deliveries === 6 ? s : undefined;
  });
  assert.equal(subA.total_deliveries, 6);
  const subB = await until(async () => {
    const s = (await t.request('GET', `/v1/webhooks/${b.webhook_id}`)).json().data;
    return s.failed_deliveries === 3 ? s : undefined;
  });
  assert.equal(subB.consecutive_failures, 3);
  assert.equal(flaky.requests.length, 6, 'each of 3 deliveries tried twice');
  const history = (await t.request('GET', `/v1/webhooks/${b.webhook_id}/deliveries?status=failed`)).json();
  assert.equal(history.data.length, 3);
  assert.ok(
    history.data.every(
      (d: { attempt_number: number; error_code: string }) => d.attempt_number === 2 && d.error_code === 'HTTP_500',
    ),
  );
});
