// The background loop helper with real (short) timers: wakes are not lost, stop() never waits out a sleep, failures
// back off.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { pino } from 'pino';
import { BackgroundLoop } from '../../src/util/background-loop.js';

const LONG = 60_000;
const silent = pino({ level: 'silent' });

function recorder(): { lines: Array<{ level: number; msg: string }>; logger: pino.Logger } {
  const lines: Array<{ level: number; msg: string }> = [];
  return { lines, logger: pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) }) };
}

function gate(): { wait: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await tick(5);
  }
}

// Every loop a test made is stopped after it, whatever its assertions did: a test that fails leaves no timer behind.
const loops: BackgroundLoop[] = [];
function newLoop(logger: pino.Logger = silent, backoffBaseMs = 10): BackgroundLoop {
  const loop = new BackgroundLoop({ name: 'test loop', logger, backoffBaseMs });
  loops.push(loop);
  return loop;
}
afterEach(async () => {
  await Promise.all(loops.splice(0).map((loop) => loop.stop()));
});

const unreachable = (): Error =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('BackgroundLoop', () => {
  it('a wake during a sleep ends it', async () => {
    const loop = newLoop();
    let steps = 0;
    loop.start(async () => {
      steps += 1;
      return LONG;
    });
    await until(() => steps === 1);
    await tick(20);
    loop.wake();
    await until(() => steps === 2, 1000);
    await loop.stop();
  });

  it('a wake that comes while a step runs is not lost: the sleep after that step returns at once', async () => {
    const loop = newLoop();
    const first = gate();
    let steps = 0;
    loop.start(async () => {
      steps += 1;
      if (steps === 1) await first.wait;
      return LONG;
    });
    await until(() => steps === 1);
    loop.wake();
    first.open();
    await until(() => steps === 2, 1000);
    // The wake was used up: the second step's sleep is the whole one.
    await tick(50);
    assert.equal(steps, 2);
    await loop.stop();
  });

  it('stop() during a sleep returns at once', async () => {
    const loop = newLoop();
    let steps = 0;
    loop.start(async () => {
      steps += 1;
      return LONG;
    });
    await until(() => steps === 1);
    await tick(20);
    const started = Date.now();
    await loop.stop();
    assert.ok(Date.now() - started < 500, `stop() took ${Date.now() - started} ms`);
    assert.equal(steps, 1);
    assert.equal(loop.stopped, true);
  });

  it('stop() during a step waits for that step, then takes no other and does not sleep', async () => {
    const loop = newLoop();
    const held = gate();
    let steps = 0;
    let ended = false;
    loop.start(async () => {
      steps += 1;
      await held.wait;
      ended = true;
      return LONG;
    });
    await until(() => steps === 1);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    assert.equal(loop.stopped, true, 'stopped from the call on');
    await tick(50);
    assert.equal(stopped, false, 'stop() waits for the step in progress');
    const released = Date.now();
    held.open();
    await stopping;
    assert.ok(ended);
    assert.ok(Date.now() - released < 500, `stop() took ${Date.now() - released} ms after the step ended`);
    await tick(20);
    assert.equal(steps, 1);
  });

  it('a step answering 0 is followed at once by the next', async () => {
    const loop = newLoop();
    let steps = 0;
    loop.start(async () => {
      steps += 1;
      return steps < 5 ? 0 : LONG;
    });
    await until(() => steps === 5, 1000);
    await loop.stop();
  });

  it('a throwing step backs off, doubling, and an outage is logged once when it starts and once when it ends', async () => {
    const { lines, logger } = recorder();
    const loop = newLoop(logger, 20);
    const times: number[] = [];
    loop.start(async () => {
      times.push(Date.now());
      if (times.length <= 4) throw unreachable();
      return LONG;
    });
    await until(() => times.length === 5, 3000);
    await loop.stop();
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    // 20, 40, 80, 160 ms: timers fire no earlier than asked.
    [20, 40, 80, 160].forEach((want, i) =>
      assert.ok((gaps[i] as number) >= want - 2, `wait ${i + 1} was ${gaps[i]} ms, want ${want}`),
    );
    assert.equal(lines.filter((l) => /test loop: the database is unreachable/.test(l.msg)).length, 1);
    assert.equal(lines.filter((l) => /test loop: the database is back/.test(l.msg)).length, 1);
    assert.equal(lines.length, 2);
  });

  it('a step that tried nothing neither ends an outage nor lengthens its back-off', async () => {
    const { lines, logger } = recorder();
    const loop = newLoop(logger);
    const results: Array<'fail' | 'idle' | 'ok'> = ['fail', 'idle', 'fail', 'ok'];
    const times: number[] = [];
    loop.start(async () => {
      times.push(Date.now());
      const next = results.shift();
      if (next === 'fail') throw unreachable();
      if (next === 'idle') return { sleepMs: 1, tried: false };
      return LONG;
    });
    await until(() => times.length === 4, 3000);
    await loop.stop();
    assert.ok(
      (times[3] as number) - (times[2] as number) >= 18,
      'the second failure in the streak waits twice the base',
    );
    assert.deepEqual(
      lines.map((l) => l.msg),
      [
        'test loop: the database is unreachable; backing off until it is back',
        'test loop: the database is back; resuming',
      ],
    );
  });

  it('starts again after a stop, and a second start while running is ignored', async () => {
    const loop = newLoop();
    let steps = 0;
    const step = async () => {
      steps += 1;
      return LONG;
    };
    loop.start(step);
    loop.start(step);
    await until(() => steps === 1);
    await tick(20);
    assert.equal(steps, 1);
    await loop.stop();
    loop.start(step);
    await until(() => steps === 2);
    await loop.stop();
  });
});
