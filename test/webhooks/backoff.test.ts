// The delivery retry schedule as a table: the example of docs/webhooks.md (attempts at 0, 1, 3 and 7 minutes) and the
// edges.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { hasRetryLeft, nextRetryDelayMs } from '../../src/webhooks/backoff.js';

const MIN = 60_000;

it('follows multiplier^(n-1) minutes up to max_retries', () => {
  const table: Array<[attempt: number, maxRetries: number, multiplier: number, expected: number | undefined]> = [
    [1, 3, 2, 1 * MIN],
    [2, 3, 2, 2 * MIN],
    [3, 3, 2, 4 * MIN],
    [4, 3, 2, undefined],
    [1, 0, 2, undefined],
    [1, 10, 1, MIN],
    [10, 10, 1, MIN],
    [11, 10, 1, undefined],
    [3, 5, 10, 100 * MIN],
    [2, 5, 1.5, 1.5 * MIN],
  ];
  for (const [attempt, maxRetries, multiplier, expected] of table) {
    assert.equal(
      nextRetryDelayMs(attempt, { maxRetries, multiplier, unitMs: MIN }),
      expected,
      `attempt ${attempt}, max ${maxRetries}, x${multiplier}`,
    );
  }
});

it('gives the defaults attempts at 0, 1, 3 and 7 minutes', () => {
  let at = 0;
  const times = [at];
  for (let attempt = 1; ; attempt++) {
    const delay = nextRetryDelayMs(attempt, { maxRetries: 3, multiplier: 2, unitMs: MIN });
    if (delay === undefined) break;
    at += delay;
    times.push(at / MIN);
  }
  assert.deepEqual(times, [0, 1, 3, 7]);
});

it('allows 1 + max_retries attempts in all, however an attempt ended', () => {
  const table: Array<[attempt: number, maxRetries: number, expected: boolean]> = [
    [1, 0, false],
    [1, 3, true],
    [3, 3, true],
    [4, 3, false],
    [10, 10, true],
    [11, 10, false],
  ];
  for (const [attempt, maxRetries, expected] of table)
    assert.equal(hasRetryLeft(attempt, maxRetries), expected, `attempt ${attempt}, max ${maxRetries}`);
});
