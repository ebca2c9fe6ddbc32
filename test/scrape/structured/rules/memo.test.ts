// The bounded cache of the rules' string functions (memo.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoized } from '../../../../src/scrape/structured/rules/memo.js';

test('a memoized function computes each text once while it is cached, and stays right past its bound', () => {
  let calls = 0;
  const upper = memoized((s) => {
    calls++;
    return s.toUpperCase();
  }, 3);
  assert.equal(upper('a'), 'A');
  assert.equal(upper('a'), 'A');
  assert.equal(calls, 1);
  for (const s of ['b', 'c', 'd', 'e']) assert.equal(upper(s), s.toUpperCase());
  // The cache was emptied when it filled: 'a' is computed again, and rightly.
  assert.equal(upper('a'), 'A');
  assert.equal(calls, 6);
});
