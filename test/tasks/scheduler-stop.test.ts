// stop() while the scheduler's loop is inside a tick: the loop must not then sleep a whole tick interval before it
// notices.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Scheduler } from '../../src/tasks/scheduler.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

describe('scheduler stop during a tick', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { SCHEDULER_TICK_MS: '60000' } });
  });
  after(async () => {
    await t.close();
  });

  it('returns as soon as the tick in progress ends, not a tick interval later', async () => {
    const scheduler = t.app.scheduler as Scheduler;
    await scheduler.stop();
    // Hold the loop's next tick open until the test lets it go: stop() then comes mid-tick.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tick = scheduler.tick.bind(scheduler);
    let entered = false;
    scheduler.tick = async () => {
      entered = true;
      await gate;
      return tick();
    };
    scheduler.start();
    for (let i = 0; i < 100 && !entered; i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(entered, 'the loop is inside its tick');
    const started = Date.now();
    const stopped = scheduler.stop();
    release();
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      stopped.then(() => 'stopped'),
      new Promise((r) => (timer = setTimeout(() => r('still waiting'), 5000))),
    ]);
    // The 5 s guard must not keep the file's process alive after the test.
    clearTimeout(timer);
    assert.equal(outcome, 'stopped', `stop() took over 5 s (the loop slept its 60 s tick interval)`);
    assert.ok(Date.now() - started < 5000);
  });
});
