import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { LoopFailures } from '../../src/util/loop-failures.js';

function recorder(): { lines: Array<{ level: number; msg: string; outageMs?: number }>; logger: pino.Logger } {
  const lines: Array<{ level: number; msg: string; outageMs?: number }> = [];
  return { lines, logger: pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) }) };
}

const unreachable = (): Error =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('LoopFailures', () => {
  it('logs an outage once when it starts and once when it ends, backing off with a cap', () => {
    const { lines, logger } = recorder();
    let now = 0;
    const failures = new LoopFailures({ name: 'crawl loop', logger, baseMs: 100, capMs: 5000, now: () => now });
    const waits = Array.from({ length: 10 }, () => failures.failed(unreachable()));
    assert.deepEqual(waits, [100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000, 5000]);
    assert.equal(lines.length, 1);
    assert.match(lines[0]?.msg ?? '', /crawl loop: the database is unreachable/);
    now = 30_000;
    failures.succeeded();
    assert.equal(lines.length, 2);
    assert.match(lines[1]?.msg ?? '', /back; resuming/);
    assert.equal(lines[1]?.outageMs, 30_000);
    now = 40_000;
    assert.equal(failures.failed(unreachable()), 100, 'a new streak starts from the base');
    failures.succeeded();
    failures.succeeded();
    assert.equal(
      lines.length,
      2,
      'an outage soon after the last one (a flapping store) is not logged again, and a success outside an outage logs nothing',
    );
    now = 200_000;
    failures.failed(unreachable());
    failures.succeeded();
    assert.equal(lines.length, 4, 'a later outage is logged again, start and end');
  });

  it('logs every failure that is not the store being out of reach', () => {
    const { lines, logger } = recorder();
    const failures = new LoopFailures({ name: 'scheduler tick', logger, baseMs: 10, capMs: 1000 });
    failures.failed(new TypeError('a bug'));
    failures.failed(new TypeError('a bug'));
    assert.equal(lines.length, 2);
    assert.ok(lines.every((l) => l.level === 50));
  });
});
