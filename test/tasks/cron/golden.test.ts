// Checks every hand-derived row of golden.json (expected values reasoned from the wall clock, not printed from the
// code).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { nextRun } from '../../../src/tasks/cron/index.js';

interface GoldenRow {
  expression: string;
  zone: string;
  after: string;
  expected: string | null;
  local: string;
  why: string;
}

const rows = JSON.parse(readFileSync(new URL('./golden.json', import.meta.url), 'utf8')) as GoldenRow[];

test('golden list has at least 40 rows', () => {
  assert.ok(rows.length >= 40, `only ${rows.length} rows`);
});

for (const row of rows) {
  test(`golden: '${row.expression}' ${row.zone} after ${row.after} -> ${row.local} (${row.why})`, () => {
    const next = nextRun(row.expression, row.zone, new Date(row.after));
    const expected = row.expected === null ? undefined : new Date(row.expected).toISOString();
    assert.equal(next?.toISOString(), expected);
  });
}
