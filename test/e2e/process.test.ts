// The service as operators run it: a real process, its first key, its CLI, bad settings and graceful shutdown.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SiteServer, startSiteServer } from '../fixtures/site-server.js';
import { tempDir } from '../helpers/databases.js';
import { runCli, startService } from '../helpers/process.js';

describe('service process', () => {
  let site: SiteServer;
  before(async () => {
    site = await startSiteServer();
  });
  after(async () => {
    await site.close();
  });

  it('stops with a message naming a bad setting', () => {
    const result = runCli(['serve'], { PORT: 'eighty', DATA_DIR: tempDir() });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /PORT: must be a whole number/);
    const url = runCli(['serve'], { DATABASE_URL: 'mysql://x', DATA_DIR: tempDir() });
    assert.equal(url.status, 2);
    assert.match(url.stderr, /DATABASE_URL/);
    assert.ok(!url.stderr.includes('mysql://x'), 'the URL (it may hold a password) is not echoed');
  });

  it('creates and prints one key on the first start only, and it works', async () => {
    const dataDir = tempDir();
    const first = await startService({ DATA_DIR: dataDir });
    const key = /cs_[A-Za-z0-9_-]{43}/.exec(first.stderr())?.[0];
    assert.ok(key, first.stderr());
    assert.ok(!first.stdout().includes(key), 'the key never reaches the JSON log');
    const ok = await fetch(`${first.url}/v1/webhook-events`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(ok.status, 200);
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);

    const second = await startService({ DATA_DIR: dataDir });
    assert.ok(!/cs_[A-Za-z0-9_-]{43}/.test(second.stderr()), 'no second key');
    second.child.kill('SIGTERM');
    assert.equal(await second.exited, 0);
  });

  it('manages keys from the command line: create, list without secrets, revoke', async () => {
    const dataDir = tempDir();
    const created = runCli(['keys', 'create', '--name', 'ci'], { DATA_DIR: dataDir });
    assert.equal(created.status, 0, created.stderr);
    const key = /cs_[A-Za-z0-9_-]{43}/.exec(created.stdout)?.[0];
    assert.ok(key);
    const list = runCli(['keys', 'list'], { DATA_DIR: dataDir });
    assert.match(list.stdout, /ci/);
    assert.ok(!list.stdout.includes(key));

    const service = await startService({ DATA_DIR: dataDir });
    try {
      const auth = { authorization: `Bearer ${key}` };
      assert.equal((await fetch(`${service.url}/v1/webhook-events`, { headers: auth })).status, 200);
      const revoked = runCli(['keys', 'revoke', key.slice(0, 10)], { DATA_DIR: dataDir });
      assert.equal(revoked.status, 0, revoked.stderr);
      assert.equal((await fetch(`${service.url}/v1/webhook-events`, { headers: auth })).status, 401);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    const again = runCli(['keys', 'revoke', 'nope'], { DATA_DIR: dataDir });
    assert.equal(again.status, 2);
  });

  it('finishes an in-flight scrape on SIGTERM, then exits 0, logging JSON request lines', async () => {
    const service = await startService({ DATA_DIR: tempDir(), API_KEYS: 'e2e-key', ALLOW_LOCAL_TARGETS: 'true' });
    const pending = fetch(`${service.url}/v1/scrape`, {
      method: 'POST',
      headers: { authorization: 'Bearer e2e-key', 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.url}/slow?ms=1500`, max_age: 0 }),
    });
    await new Promise((r) => setTimeout(r, 500));
    service.child.kill('SIGTERM');
    const res = await pending;
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { success: boolean }).success, true);
    assert.equal(await service.exited, 0);
    const lines = service
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const request = lines.find((l) => l.msg === 'request');
    assert.ok(request);
    assert.equal(request.route, '/v1/scrape');
    assert.equal(request.status, 200);
    assert.equal(typeof request.durationMs, 'number');
    assert.equal(typeof request.reqId, 'string');
    assert.ok(!service.stdout().includes('e2e-key'), 'the key is never logged');
  });
});
