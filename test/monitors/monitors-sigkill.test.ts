// SIGKILL during a monitor check: after the restart the check completes once (its lease runs out and the new process
// does it again), with one snapshot, one execution and one monitor.check.completed delivered.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { articlePage, type MutableSite, startMutableSite } from '../fixtures/mutable-site.js';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.js';
import { tempDir } from '../helpers/databases.js';
import { startService } from '../helpers/process.js';

const KEY = 'monitor-sigkill-key';
let site: MutableSite;
let receiver: Receiver;
before(async () => {
  site = await startMutableSite({
    '/slow': { body: articlePage('Slow', ['Steady text of the page.'], '1'), delayMs: 8000 },
  });
  receiver = await startReceiver();
});
after(async () => {
  await site.close();
  await receiver.close();
});

async function api(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return {
    status: res.status,
    json: (await res.json()) as { data: Record<string, unknown> & { monitor_id?: string; scheduled_task_id?: string } },
  };
}

it('completes a check killed mid-way exactly once after the restart', async () => {
  const env = {
    DATA_DIR: tempDir(),
    API_KEYS: KEY,
    ALLOW_LOCAL_TARGETS: 'true',
    ALLOW_LOCAL_WEBHOOKS: 'true',
    MONITOR_CHECK_LEASE_MS: '2000',
    MONITOR_POLL_MS: '100',
  };
  const first = await startService(env);
  const hook = await api(first.url, 'POST', '/v1/webhooks', {
    name: 'checks',
    webhook_url: `${receiver.url}/hook`,
    event_types: ['monitor.check.completed'],
  });
  assert.equal(hook.status, 201);
  const created = await api(first.url, 'POST', '/v1/monitors', {
    name: 'slow page',
    cron_expression: '0 0 1 1 *',
    targets: [{ url: `${site.url}/slow` }],
  });
  assert.equal(created.status, 201);
  const id = created.json.data.monitor_id as string;
  const taskId = created.json.data.scheduled_task_id as string;
  assert.equal((await api(first.url, 'POST', `/v1/monitors/${id}/check`)).status, 202);
  // Killed while the page is being fetched.
  while (site.hits('/slow') === 0) await new Promise((r) => setTimeout(r, 20));
  first.child.kill('SIGKILL');
  await first.exited;
  site.set('/slow', { body: articlePage('Slow', ['Steady text of the page.'], '2') });

  const second = await startService(env);
  try {
    let checks: Array<{ state: string; attempts: number }> = [];
    const deadline = Date.now() + 30_000;
    while (checks[0]?.state !== 'completed') {
      assert.ok(Date.now() < deadline, `the check did not complete: ${JSON.stringify(checks)}`);
      await new Promise((r) => setTimeout(r, 100));
      checks = (await api(second.url, 'GET', `/v1/monitors/${id}/checks`)).json.data as unknown as typeof checks;
    }
    assert.equal(checks.length, 1);
    assert.equal(checks[0]?.attempts, 2);
    assert.equal(site.hits('/slow'), 2);
    const snapshots = (await api(second.url, 'GET', `/v1/monitors/${id}/snapshots`)).json.data as unknown as unknown[];
    assert.equal(snapshots.length, 1);
    const [delivery] = await receiver.waitFor(1, 10_000);
    assert.equal(JSON.parse(delivery?.body ?? '{}').monitor_id, id);
    let executions: Array<{ status: string }> = [];
    while (executions[0]?.status !== 'completed') {
      assert.ok(Date.now() < deadline, `the execution did not end: ${JSON.stringify(executions)}`);
      await new Promise((r) => setTimeout(r, 100));
      executions = (await api(second.url, 'GET', `/v1/scheduled-tasks/${taskId}/executions`)).json
        .data as unknown as typeof executions;
    }
    assert.equal(executions.length, 1);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(receiver.requests.length, 1);
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
});
