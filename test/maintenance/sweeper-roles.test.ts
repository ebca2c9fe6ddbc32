// The sweeper is background work: it runs where the worker role does (`worker`, `serve`), not in an api-only process.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sqliteDatabase } from '../helpers/databases.js';
import { startTestApp } from '../helpers/test-app.js';

it('an app in the api role starts no sweeper (nor other background work); a worker on the same store does', async () => {
  // A scale-out deployment: an api process and a worker process on one store.
  const database = sqliteDatabase();
  const api = await startTestApp({ database, roles: { worker: false } });
  const worker = await startTestApp({ database, roles: { worker: true } });
  try {
    assert.equal(api.app.sweeper, undefined);
    assert.equal(api.app.runner, undefined);
    assert.equal(api.app.dispatcher, undefined);
    assert.equal(api.app.scheduler, undefined);
    // The worker sweeps, so interrupted scrapes of the api process are still failed, and expired data removed.
    assert.ok(worker.app.sweeper);
    assert.ok(worker.app.runner);
    assert.ok(worker.app.dispatcher);
    assert.ok(worker.app.scheduler);
    // The api process still answers.
    assert.equal((await api.request('GET', '/health')).statusCode, 200);
  } finally {
    await api.close();
    await worker.close();
    await database.drop();
  }
});

it('an app with every role (serve, the default) starts the sweeper', async () => {
  const t = await startTestApp();
  try {
    assert.ok(t.app.sweeper);
    assert.ok(t.app.runner);
  } finally {
    await t.close();
  }
});
