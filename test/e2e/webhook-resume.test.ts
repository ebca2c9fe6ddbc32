// Kill the service with SIGKILL while deliveries are in flight and waiting for retry: after restart each is sent, same
// id.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type SiteServer, startSiteServer } from '../fixtures/site-server.js';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.js';
import { tempDir } from '../helpers/databases.js';
import { startService } from '../helpers/process.js';

const KEY = 'hook-key';
let site: SiteServer;
let hanging: Receiver;
let flaky: Receiver;
before(async () => {
  site = await startSiteServer();
  hanging = await startReceiver();
  flaky = await startReceiver();
});
after(async () => {
  await site.close();
  await hanging.close();
  await flaky.close();
});

async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ data: Record<string, unknown> & Array<Record<string, unknown>> }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as { data: Record<string, unknown> & Array<Record<string, unknown>> };
}

it('loses no delivery across a SIGKILL: in-flight and retry-waiting deliveries are sent after restart with their ids', async () => {
  const env = {
    DATA_DIR: tempDir(),
    API_KEYS: KEY,
    ALLOW_LOCAL_TARGETS: 'true',
    ALLOW_LOCAL_WEBHOOKS: 'true',
    WEBHOOK_LEASE_MS: '1000',
    WEBHOOK_RETRY_UNIT_MS: '1500',
  };
  hanging.setMode('hang');
  flaky.setMode('status:503');
  const first = await startService(env);
  const a = (
    await call(first.url, 'POST', '/v1/webhooks', {
      name: 'hang',
      webhook_url: hanging.url,
      event_types: ['scrape.completed'],
      timeout_seconds: 30,
    })
  ).data;
  const b = (
    await call(first.url, 'POST', '/v1/webhooks', {
      name: 'flaky',
      webhook_url: flaky.url,
      event_types: ['scrape.completed'],
    })
  ).data;
  await call(first.url, 'POST', '/v1/scrape', { url: `${site.url}/pages/article.html` });
  const [inFlight] = await hanging.waitFor(1, 10_000);
  const [failedOnce] = await flaky.waitFor(1, 10_000);
  const hangingId = String(inFlight?.headers['x-webhook-delivery-id']);
  const flakyId = String(failedOnce?.headers['x-webhook-delivery-id']);
  // The 503 is recorded (the delivery waits for its retry) before the kill.
  for (const deadline = Date.now() + 10_000; ;) {
    const list = (await call(first.url, 'GET', `/v1/webhooks/${String(b.webhook_id)}/deliveries`)).data;
    if (list[0]?.status === 'retrying') break;
    assert.ok(Date.now() < deadline, `the 503 was not recorded: ${JSON.stringify(list)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  first.child.kill('SIGKILL');
  await first.exited;

  hanging.setMode('ok');
  flaky.setMode('ok');
  const second = await startService(env);
  try {
    const resent = await hanging.waitFor(2, 15_000);
    const retried = await flaky.waitFor(2, 15_000);
    assert.equal(
      resent[1]?.headers['x-webhook-delivery-id'],
      hangingId,
      'the in-flight delivery is sent again with its id',
    );
    assert.equal(
      retried[1]?.headers['x-webhook-delivery-id'],
      flakyId,
      'the retry-waiting delivery is retried with its id',
    );
    assert.equal(resent[1]?.body, resent[0]?.body);
    assert.ok((retried[1]?.at ?? 0) - (retried[0]?.at ?? 0) >= 1400, 'the retry time survived the restart');
    for (const [sub, id] of [
      [a.webhook_id, hangingId],
      [b.webhook_id, flakyId],
    ] as const) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const list = (await call(second.url, 'GET', `/v1/webhooks/${String(sub)}/deliveries`)).data;
        if (list[0]?.status === 'delivered') {
          assert.equal(list.length, 1);
          assert.equal(list[0]?.uuid, id);
          // Each receiver saw two requests, and the delivery says so: the killed attempt counts
          // (in the log as INTERRUPTED for the one cut off mid-request).
          const one = (await call(second.url, 'GET', `/v1/webhooks/${String(sub)}/deliveries/${id}`))
            .data as unknown as { attempt_number: number; attempts: Array<Record<string, unknown>> };
          assert.equal(one.attempt_number, 2);
          assert.deepEqual(
            one.attempts.map((x) => [x.attempt_number, x.error_code, x.response_status]),
            [
              [1, id === hangingId ? 'INTERRUPTED' : 'HTTP_503', id === hangingId ? null : 503],
              [2, null, 200],
            ],
          );
          break;
        }
        assert.ok(Date.now() < deadline, `delivery ${id} not delivered: ${JSON.stringify(list)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
});
