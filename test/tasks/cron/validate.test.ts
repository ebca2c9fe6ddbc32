// Table tests for cron expression validation and time-zone acceptance.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isValidTimeZone, nextRun, validateCron } from '../../../src/tasks/cron/index.js';

const valid = [
  '* * * * *',
  '0 0 * * *',
  '*/15 * * * *',
  '0-30/10 9-17/4 * * *',
  '0 9 * JAN-MAR MON-FRI',
  '0 9 * jan-mar mon-fri',
  '0 9 * Jul Wed',
  '0 0 * * 7',
  '0 0 * * 0,7',
  '0 0 * * 5-7',
  '0 0 1,15 * 1',
  '59 23 31 12 6',
  '0 0 29 2 *', // leap years only: runs every 4 years (nextRun finds it within its 5-year horizon)
  '0 0 31 2,3 *', // March 31 exists
  '0 0 30 2 1', // both day fields restricted: either matches (Vixie's OR), so every Monday in February
  '0 0 31 4 SUN', // ditto: Sundays in April
  '  0   0 * * *  ', // extra blanks between and around fields
  '0\t0\t*\t*\t*',
  '00 09 01 01 01', // leading zeros
  '*/59 */23 */31 */12 */7',
  '0 0 */2 * 5',
];

for (const expression of valid) {
  test(`valid: ${JSON.stringify(expression)}`, () => {
    assert.equal(validateCron(expression), undefined);
  });
}

const invalid: Array<[string, RegExp]> = [
  ['', /empty/],
  ['   ', /empty/],
  ['* * * *', /expected 5 fields.*got 4/],
  ['0 0 * * * *', /got 6; seconds and years/],
  ['0 0 0 * * * 2026', /got 7/],
  ['@daily', /macros/],
  ['@reboot', /macros/],
  ['@every 5m', /macros/],
  ['0 0 ? * *', /'\?'.*Quartz/],
  ['0 0 * * ?', /'\?'/],
  ['0 0 L * *', /'L'/],
  ['0 0 * * 5L', /'L'/],
  ['0 0 LW * *', /'L'/],
  ['0 0 15W * *', /'W'/],
  ['0 0 W * *', /'W'/],
  ['0 0 * * 5#2', /'#'/],
  ['60 * * * *', /minute value 60 is out of range 0-59/],
  ['* 24 * * *', /hour value 24 is out of range 0-23/],
  ['0 0 0 * *', /day of month value 0 is out of range 1-31/],
  ['0 0 32 * *', /day of month value 32/],
  ['0 0 * 0 *', /month value 0 is out of range 1-12/],
  ['0 0 * 13 *', /month value 13/],
  ['0 0 * * 8', /day of week value 8 is out of range 0-7/],
  ['1,,2 * * * *', /empty list item/],
  ['1, * * * *', /empty list item/],
  ['*/0 * * * *', /step 0/],
  ['0-10/0 * * * *', /step 0/],
  ['*/60 * * * *', /step 60 .* larger than 59/],
  ['5-1 * * * *', /range '5-1' is reversed/],
  ['0 0 * * FRI-SUN', /reversed.*use 7 for Sunday/],
  ['0 0 * DEC-JAN *', /reversed/],
  ['5/15 * * * *', /needs '\*' or a range/],
  ['-5 * * * *', /empty value/],
  ['5- * * * *', /empty value/],
  ['a * * * *', /minute value 'a' is not a number/],
  ['0 0 * * MONDAY', /name 'MONDAY' is not one of/],
  ['0 0 * JANUARY *', /name 'JANUARY'/],
  ['0 MON * * *', /hour value 'MON' is not a number/],
  ['0 0 * * */x', /step 'x'/],
  ['1.5 * * * *', /not a number/],
  ['99999999999999999999 * * * *', /out of range/],
  // Syntactically valid but no day ever matches: accepted, they would be saved with no next run.
  ['0 0 30 2 *', /never runs: day 30 does not exist in February/],
  ['0 0 31 2 *', /never runs: day 31 does not exist in February/],
  ['0 0 30,31 FEB *', /never runs: days 30, 31 do not exist in February/],
  ['0 0 31 4,6,9,11 *', /never runs: day 31 does not exist in April, June, September or November/],
  ['0 0 31 APR-JUN/2 *', /never runs: day 31 does not exist in April or June/],
  ['0 0 30 2 */2', /never runs/], // `*/2` starts with `*`: both day fields must match (Vixie's DOW_STAR)
];

for (const [expression, reason] of invalid) {
  test(`invalid: ${JSON.stringify(expression)} (${reason.source})`, () => {
    const issue = validateCron(expression);
    assert.ok(issue, 'expected an issue');
    assert.match(issue.message, reason);
  });
}

test('an expression is valid exactly when it has a next run (the pure check agrees with the search)', () => {
  const after = new Date('2026-03-01T00:00:00Z');
  for (const expression of [
    ...valid,
    ...invalid.filter(([, reason]) => reason.source.startsWith('never runs')).map(([e]) => e),
  ]) {
    const issue = validateCron(expression);
    const next = issue ? undefined : nextRun(expression, 'UTC', after);
    assert.equal(issue === undefined, next !== undefined, `${expression}: ${issue?.message ?? next?.toISOString()}`);
  }
  // The search itself, for the never-running ones (nextRun throws on an invalid expression).
  assert.equal(nextRun('0 0 29 2 *', 'UTC', after)?.toISOString(), '2028-02-29T00:00:00.000Z');
});

const zones: Array<[string, boolean, string]> = [
  ['UTC', true, 'UTC is allowed by the decisions'],
  ['America/New_York', true, 'Region/City'],
  ['Asia/Kolkata', true, 'Intl canonicalises it to Asia/Calcutta, still accepted'],
  ['Australia/Lord_Howe', true, 'underscore'],
  ['America/Argentina/Buenos_Aires', true, 'three parts'],
  ['Etc/GMT+5', true, 'real tzdb name with a sign inside'],
  ['EST5EDT', true, 'legacy tzdb zone: Intl accepts it, so do we'],
  ['US/Eastern', true, 'backward link'],
  ['america/new_york', true, 'Intl matches names case-insensitively'],
  ['Mars/Olympus', false, 'not a zone'],
  ['', false, 'empty'],
  ['+02:00', false, 'an offset, not a zone'],
  ['-0500', false, 'an offset'],
  ['UTC+2', false, 'not a tzdb name'],
  [' UTC', false, 'blanks'],
  ['America/New York', false, 'space'],
  ['Europe/Berlin/', false, 'trailing slash'],
];

for (const [zone, ok, why] of zones) {
  test(`time zone ${JSON.stringify(zone)} -> ${ok} (${why})`, () => {
    assert.equal(isValidTimeZone(zone), ok);
  });
}
