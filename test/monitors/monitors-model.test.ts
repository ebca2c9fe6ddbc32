// With a model configured, text changes are judged by it against the monitor's goal; a model that fails leaves the
// rules' judgment, saying why. The model's "not meaningful" keeps monitor.changed from being sent.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { readEvents } from '../../src/events/outbox.js';
import { type LlmServer, reply, startLlmServer } from '../fixtures/llm-server.js';
import { articlePage, type MutableSite, startMutableSite } from '../fixtures/mutable-site.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

let site: MutableSite;
let llm: LlmServer;
let t: TestApp;
const P = 'Our shop sells anvils, hammers and tongs to smiths everywhere.';
before(async () => {
  site = await startMutableSite({ '/shop': { body: articlePage('Shop', [P], '1') } });
  llm = await startLlmServer();
  t = await startTestApp({
    env: {
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'stand-in',
      LLM_MAX_RETRIES: '0',
      LLM_TIMEOUT_MS: '2000',
      MONITOR_POLL_MS: '20',
    },
  });
});
after(async () => {
  await t.close();
  await llm.close();
  await site.close();
});

async function checkNow(id: string, n: number): Promise<void> {
  assert.equal((await t.request('POST', `/v1/monitors/${id}/check`)).statusCode, 202);
  await until(`check ${n}`, async () => {
    const checks = (await t.request('GET', `/v1/monitors/${id}/checks`)).json().data as Array<{ state: string }>;
    return checks.length === n && checks[0]?.state === 'completed' ? true : undefined;
  });
}

it('asks the model with the goal and the diff, and follows its judgment', async () => {
  const id = (
    await t.request('POST', '/v1/monitors', {
      body: {
        name: 'shop',
        cron_expression: '0 0 1 1 *',
        goal: 'Tell me when the shop sells a new kind of tool',
        targets: [{ url: `${site.url}/shop` }],
      },
    })
  ).json().data.monitor_id as string;
  await checkNow(id, 1);
  assert.equal(llm.requests.length, 0, 'the first snapshot is not judged');

  llm.setBehaviour(() => reply.json({ meaningful: true, confidence: 'high', reason: 'Files are a new kind of tool' }));
  site.set('/shop', { body: articlePage('Shop', [P, 'New this week: files for every kind of metal work.'], '2') });
  await checkNow(id, 2);
  const prompt = JSON.stringify(llm.requests[0]?.body.messages);
  assert.match(prompt, /Tell me when the shop sells a new kind of tool/);
  assert.match(prompt, /\+New this week: files/);
  let [change] = (await t.request('GET', `/v1/monitors/${id}/changes`)).json().data;
  assert.deepEqual(change.judgment, {
    meaningful: true,
    confidence: 'high',
    reason: 'Files are a new kind of tool',
    status: 'complete',
    source: 'model',
  });
  assert.equal(change.notification_status, 'queued');

  llm.setBehaviour(() =>
    reply.json({ meaningful: false, confidence: 'medium', reason: 'A new opening hour, no tool' }),
  );
  site.set('/shop', {
    body: articlePage(
      'Shop',
      [P, 'New this week: files for every kind of metal work.', 'We open at nine on Saturdays from now on.'],
      '3',
    ),
  });
  await checkNow(id, 3);
  [change] = (await t.request('GET', `/v1/monitors/${id}/changes`)).json().data;
  assert.equal(change.judgment.source, 'model');
  assert.equal(change.judgment.meaningful, false);
  assert.equal(change.notification_status, 'skipped');

  llm.setBehaviour(() => reply.serverError(1));
  site.set('/shop', { body: articlePage('Shop', [P, 'Tongs are sold out until March, sorry for that.'], '4') });
  await checkNow(id, 4);
  [change] = (await t.request('GET', `/v1/monitors/${id}/changes`)).json().data;
  assert.equal(change.judgment.source, 'rules');
  assert.equal(change.judgment.meaningful, true);
  assert.ok(change.judgment.model_error, JSON.stringify(change.judgment));
  const sent = (await readEvents(t.app.db.kysely, { subjectId: id })).filter((e) => e.type === 'monitor.changed');
  assert.equal(sent.length, 2);
});

it('refuses a private target when saved, and fails the check with monitor.error when its name later resolves to one', async () => {
  const guarded = await startTestApp({
    env: { ALLOW_LOCAL_TARGETS: 'false', MONITOR_POLL_MS: '20' },
    // DNS rebinding: the name does not resolve when the monitor is saved (accepted), then leads to loopback.
    resolve: async () => [{ address: '127.0.0.1', family: 4 }],
  });
  try {
    const refused = await guarded.request('POST', '/v1/monitors', {
      body: { name: 'local', cron_expression: '* * * * *', targets: [{ url: `${site.url}/shop` }] },
    });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.equal(refused.json().data.issues[0].field, 'targets.0.url');
    const created = await guarded.request('POST', '/v1/monitors', {
      body: { name: 'rebind', cron_expression: '0 0 1 1 *', targets: [{ url: 'http://rebind.invalid/shop' }] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().data.monitor_id as string;
    assert.equal((await guarded.request('POST', `/v1/monitors/${id}/check`)).statusCode, 202);
    const [check] = await until('the refused check', async () => {
      const checks = (await guarded.request('GET', `/v1/monitors/${id}/checks`)).json().data;
      return checks[0]?.state === 'failed' ? checks : undefined;
    });
    assert.equal(check.source_error.code, 'BLOCKED_ADDRESS');
    const errors = (await readEvents(guarded.app.db.kysely, { subjectId: id })).filter(
      (e) => e.type === 'monitor.error',
    );
    assert.equal(errors.length, 1);
  } finally {
    await guarded.close();
  }
});
