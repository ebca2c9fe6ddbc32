// Proves why src/tasks/cron corrects croner: each case shows croner's own answer next to classic (Vixie) cron's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Cron } from 'croner';
import { nextRun, validateCron } from '../../../src/tasks/cron/index.js';

const croner = (pattern: string, zone: string, after: string): string | undefined =>
  new Cron(pattern, { timezone: zone, mode: '5-part', fixedTimeRule: 'no-wildcard' })
    .nextRun(new Date(after))
    ?.toISOString();

test("croner reads '*/2' in day of month as restricted (OR); Vixie treats it as '*' (AND)", () => {
  // 2026-01-02 is an even Friday: croner runs (Friday OR odd day); Vixie needs odd AND Friday: 01-09.
  assert.equal(croner('0 0 */2 * 5', 'UTC', '2026-01-01T00:00:00Z'), '2026-01-02T00:00:00.000Z');
  assert.equal(
    nextRun('0 0 */2 * 5', 'UTC', new Date('2026-01-01T00:00:00Z'))?.toISOString(),
    '2026-01-09T00:00:00.000Z',
  );
});

test('croner calls a stepped range in minute/hour a wildcard job; Vixie calls it fixed-time', () => {
  // 2026-03-08 02:00/02:30 do not exist in New York: croner skips them, Vixie runs the fixed job at the jump.
  assert.equal(croner('0-59/30 2 * * *', 'America/New_York', '2026-03-08T00:00:00Z'), '2026-03-09T06:00:00.000Z');
  assert.equal(
    nextRun('0-59/30 2 * * *', 'America/New_York', new Date('2026-03-08T00:00:00Z'))?.toISOString(),
    '2026-03-08T07:00:00.000Z',
  );
});

test('croner accepts syntax the interface refuses', () => {
  for (const pattern of ['@daily', '0 0 L * *', '0 0 * * 5#2', '0 0 ? * *', '0 0 0 * * *']) {
    assert.doesNotThrow(() => new Cron(pattern), pattern);
    assert.ok(validateCron(pattern), pattern);
  }
});
