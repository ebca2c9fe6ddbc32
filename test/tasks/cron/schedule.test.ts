// Run-time tests: DST day sequences, runsBetween, zonedDay, offsets against Intl, and a brute-force property test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextRun, runsBetween, validateCron, zonedDay } from '../../../src/tasks/cron/index.js';
import { offsetAt } from '../../../src/tasks/cron/zone.js';

const iso = (dates: Date[]): string[] => dates.map((d) => d.toISOString().replace(':00.000Z', 'Z'));
const at = (text: string): Date => new Date(text);

const sequences: Array<[string, string, string, string, string[]]> = [
  // [expression, zone, from, to, runs in (from, to]] — every run reasoned from the wall clock.
  [
    '*/30 * * * *',
    'America/New_York',
    '2026-03-08T06:00:00Z',
    '2026-03-08T08:00:00Z',
    // 01:30 EST, (02:00, 02:30 do not exist), 03:00 EDT, 03:30 EDT, 04:00 EDT
    ['2026-03-08T06:30Z', '2026-03-08T07:00Z', '2026-03-08T07:30Z', '2026-03-08T08:00Z'],
  ],
  [
    '*/30 * * * *',
    'America/New_York',
    '2026-11-01T04:50:00Z',
    '2026-11-01T07:30:00Z',
    // 01:00 EDT, 01:30 EDT, 01:00 EST, 01:30 EST, 02:00 EST, 02:30 EST: each real instant once
    [
      '2026-11-01T05:00Z',
      '2026-11-01T05:30Z',
      '2026-11-01T06:00Z',
      '2026-11-01T06:30Z',
      '2026-11-01T07:00Z',
      '2026-11-01T07:30Z',
    ],
  ],
  [
    '30 1 * * *',
    'America/New_York',
    '2026-10-31T00:00:00Z',
    '2026-11-02T12:00:00Z',
    // 10-31 01:30 EDT, 11-01 01:30 EDT (once), 11-02 01:30 EST
    ['2026-10-31T05:30Z', '2026-11-01T05:30Z', '2026-11-02T06:30Z'],
  ],
  [
    '30 2 * * *',
    'Europe/Berlin',
    '2026-03-27T12:00:00Z',
    '2026-03-30T12:00:00Z',
    // 03-28 02:30 CET, 03-29 at the jump 03:00 CEST, 03-30 02:30 CEST
    ['2026-03-28T01:30Z', '2026-03-29T01:00Z', '2026-03-30T00:30Z'],
  ],
  [
    '0,30 * * * *',
    'Europe/Berlin',
    '2026-10-25T00:00:00Z',
    '2026-10-25T02:00:00Z',
    // 02:00 CEST (00:00Z excluded), 02:30 CEST, 02:00 CET, 02:30 CET, 03:00 CET
    ['2026-10-25T00:30Z', '2026-10-25T01:00Z', '2026-10-25T01:30Z', '2026-10-25T02:00Z'],
  ],
  [
    '*/10 2 * * *',
    'Australia/Lord_Howe',
    '2026-10-03T15:00:00Z',
    '2026-10-03T16:00:00Z',
    // wildcard minute: 02:00-02:20 do not exist; 02:30, 02:40, 02:50 (+11) do
    ['2026-10-03T15:30Z', '2026-10-03T15:40Z', '2026-10-03T15:50Z'],
  ],
  [
    '*/15 1 * * *',
    'Australia/Lord_Howe',
    '2026-04-04T14:00:00Z',
    '2026-04-04T16:00:00Z',
    // 01:00-01:45 at +11, then the clock goes back to 01:30 at +10:30: 01:30, 01:45 again
    [
      '2026-04-04T14:00Z',
      '2026-04-04T14:15Z',
      '2026-04-04T14:30Z',
      '2026-04-04T14:45Z',
      '2026-04-04T15:00Z',
      '2026-04-04T15:15Z',
    ].slice(1),
  ],
];

for (const [expression, zone, from, to, expected] of sequences) {
  test(`runsBetween '${expression}' ${zone} (${from}, ${to}]`, () => {
    assert.deepEqual(iso(runsBetween(expression, zone, at(from), at(to), 100)), expected);
  });
}

test('runsBetween stops at max and keeps order', () => {
  const runs = runsBetween('* * * * *', 'UTC', at('2026-01-01T00:00:00Z'), at('2026-01-02T00:00:00Z'), 5);
  assert.deepEqual(iso(runs), [
    '2026-01-01T00:01Z',
    '2026-01-01T00:02Z',
    '2026-01-01T00:03Z',
    '2026-01-01T00:04Z',
    '2026-01-01T00:05Z',
  ]);
  assert.deepEqual(runsBetween('0 0 31 2 *', 'UTC', at('2026-01-01T00:00:00Z'), at('2036-01-01T00:00:00Z'), 5), []);
});

test('nextRun refuses invalid input loudly (callers validate first)', () => {
  assert.throws(() => nextRun('@daily', 'UTC', new Date()), /invalid cron expression/);
  assert.throws(() => nextRun('0 0 * * *', 'Mars/Olympus', new Date()), /invalid time zone/);
});

test('a run up to 40 years ahead is found: every expression that validates has a next run', () => {
  // Feb 29 on a Sunday (AND, because '*/7' starts with '*'): 6 years after 2026, and the longest
  // gap of any date-and-weekday pair, 40 years across 2100 (not a leap year), after 2088.
  assert.equal(nextRun('0 0 29 2 */7', 'UTC', at('2026-03-01T00:00:00Z'))?.toISOString(), '2032-02-29T00:00:00.000Z');
  assert.equal(nextRun('0 0 29 2 */7', 'UTC', at('2088-03-01T00:00:00Z'))?.toISOString(), '2128-02-29T00:00:00.000Z');
  // January 1st on a Sunday, 00:00 (all fields from steps): 2034.
  assert.equal(
    nextRun('*/59 */23 */31 */12 */7', 'UTC', at('2026-03-01T00:00:00Z'))?.toISOString(),
    '2034-01-01T00:00:00.000Z',
  );
});

const days: Array<[string, string, string]> = [
  ['2026-03-08T04:30:00Z', 'America/New_York', '2026-03-07'],
  ['2026-03-08T05:00:00Z', 'America/New_York', '2026-03-08'],
  ['2026-01-01T18:29:00Z', 'Asia/Kolkata', '2026-01-01'],
  ['2026-01-01T18:30:00Z', 'Asia/Kolkata', '2026-01-02'],
  ['2026-06-30T13:29:00Z', 'Australia/Lord_Howe', '2026-06-30'],
  ['2026-06-30T13:30:00Z', 'Australia/Lord_Howe', '2026-07-01'],
  ['2026-12-31T23:59:59Z', 'UTC', '2026-12-31'],
];
for (const [instant, zone, day] of days) {
  test(`zonedDay ${instant} ${zone} = ${day}`, () => assert.equal(zonedDay(at(instant), zone), day));
}

/** Straight from Intl, no cache: the reference for offsetAt. */
function intlOffsetMinutes(zone: string, instant: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  })
    .formatToParts(instant)
    .reduce<Record<string, number>>(
      (acc, p) => (p.type === 'literal' ? acc : { ...acc, [p.type]: Number(p.value) }),
      {},
    );
  const wall = Date.UTC(parts.year as number, (parts.month as number) - 1, parts.day, parts.hour, parts.minute);
  return Math.round((wall - Math.floor(instant / 60_000) * 60_000) / 60_000);
}

/** Deterministic PRNG so failures reproduce. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ZONES = [
  'America/New_York',
  'Europe/Berlin',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Adelaide',
  'Australia/Lord_Howe',
  'America/Santiago',
  'Africa/Casablanca',
  'Pacific/Chatham',
  'UTC',
];

test('cached offsets equal Intl at random instants 2020-2040 (and around every transition found)', () => {
  const random = rng(7);
  const from = Date.parse('2020-01-01T00:00:00Z');
  const span = Date.parse('2040-01-01T00:00:00Z') - from;
  for (const zone of ZONES) {
    for (let i = 0; i < 400; i++) {
      const instant = from + Math.floor(random() * span);
      assert.equal(
        offsetAt(zone, instant) / 60_000,
        intlOffsetMinutes(zone, instant),
        `${zone} ${new Date(instant).toISOString()}`,
      );
    }
    // Every minute-exact transition: the offset one minute before and at the change must match Intl too.
    for (let t = from; t < from + span; t += 86_400_000) {
      if (offsetAt(zone, t) !== offsetAt(zone, t + 86_400_000)) {
        for (let m = t; m <= t + 86_400_000; m += 60_000) {
          if (offsetAt(zone, m) !== offsetAt(zone, m - 60_000)) {
            assert.equal(
              offsetAt(zone, m - 60_000) / 60_000,
              intlOffsetMinutes(zone, m - 60_000),
              `${zone} before ${new Date(m).toISOString()}`,
            );
            assert.equal(
              offsetAt(zone, m) / 60_000,
              intlOffsetMinutes(zone, m),
              `${zone} at ${new Date(m).toISOString()}`,
            );
          }
        }
      }
    }
  }
});

/** A random valid expression built from the grammar's pieces. */
function randomExpression(random: () => number): string {
  const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
  const field = (lo: number, hi: number, names?: readonly string[]): string => {
    const kind = int(0, 6);
    const value = (): string => {
      const v = int(lo, hi);
      return names !== undefined && random() < 0.3 && v - lo < names.length ? (names[v - lo] as string) : String(v);
    };
    switch (kind) {
      case 0:
        return '*';
      case 1:
        return value();
      case 2: {
        const a = int(lo, hi);
        const b = int(a, hi);
        return `${a}-${b}`;
      }
      case 3:
        return `*/${int(1, Math.min(hi, 20))}`;
      case 4: {
        const a = int(lo, hi);
        const b = int(a, hi);
        return `${a}-${b}/${int(1, Math.min(hi, 10))}`;
      }
      default:
        return Array.from({ length: int(2, 4) }, value).join(',');
    }
  };
  return [
    field(0, 59),
    field(0, 23),
    field(1, 31),
    field(1, 12, ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC']),
    field(0, 7, ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'sun']),
  ].join(' ');
}

/** Brute-force classic cron in UTC: walk minute by minute, test each field (Vixie's DOM/DOW rule). */
function bruteForceUtc(expression: string, after: number, minutes: number): number | undefined {
  const [mi, ho, dom, mo, dow] = expression.split(' ') as [string, string, string, string, string];
  const names: Record<string, number> = {
    JAN: 1,
    FEB: 2,
    MAR: 3,
    APR: 4,
    MAY: 5,
    JUN: 6,
    JUL: 7,
    AUG: 8,
    SEP: 9,
    OCT: 10,
    NOV: 11,
    DEC: 12,
    SUN: 0,
    MON: 1,
    TUE: 2,
    WED: 3,
    THU: 4,
    FRI: 5,
    SAT: 6,
  };
  const num = (s: string): number => names[s.toUpperCase()] ?? Number(s);
  const matches = (field: string, value: number, lo: number, hi: number, sunday7 = false): boolean =>
    field.split(',').some((item) => {
      const [range, stepText] = item.split('/') as [string, string | undefined];
      const step = stepText === undefined ? 1 : Number(stepText);
      const [a, b] =
        range === '*'
          ? [lo, hi]
          : range.includes('-')
            ? (range.split('-').map(num) as [number, number])
            : [num(range), num(range)];
      for (let v = a; v <= b; v += step) if (v === value || (sunday7 && v === 7 && value === 0)) return true;
      return false;
    });
  const start = Math.floor(after / 60_000) * 60_000 + 60_000;
  for (let t = start; t < start + minutes * 60_000; t += 60_000) {
    const d = new Date(t);
    if (
      !matches(mi, d.getUTCMinutes(), 0, 59) ||
      !matches(ho, d.getUTCHours(), 0, 23) ||
      !matches(mo, d.getUTCMonth() + 1, 1, 12)
    )
      continue;
    const domOk = matches(dom, d.getUTCDate(), 1, 31);
    const dowOk = matches(dow, d.getUTCDay(), 0, 7, true);
    const day = dom.startsWith('*') || dow.startsWith('*') ? domOk && dowOk : domOk || dowOk;
    if (day) return t;
  }
  return undefined;
}

test('property: random expressions in UTC match a minute-by-minute brute force over 2 days', () => {
  const random = rng(42);
  const from = Date.parse('2024-01-01T00:00:00Z');
  let compared = 0;
  for (let i = 0; i < 400; i++) {
    const expression = randomExpression(random);
    assert.equal(validateCron(expression), undefined, expression);
    const after = from + Math.floor(random() * 4 * 365 * 86_400_000) + Math.floor(random() * 60_000);
    const expected = bruteForceUtc(expression, after, 2 * 24 * 60);
    const got = nextRun(expression, 'UTC', new Date(after));
    if (expected !== undefined) {
      compared++;
      assert.equal(got?.getTime(), expected, `${expression} after ${new Date(after).toISOString()}`);
    } else if (got !== undefined) {
      assert.ok(
        got.getTime() > after + 2 * 86_400_000 - 60_000,
        `${expression}: brute force found nothing in 2 days but got ${got.toISOString()}`,
      );
    }
  }
  assert.ok(compared > 50, `only ${compared} expressions had a run within 2 days`);
});

test('property: in any zone, nextRun is after `after`, on a whole minute, and runs in order', () => {
  const random = rng(99);
  const from = Date.parse('2025-01-01T00:00:00Z');
  for (let i = 0; i < 400; i++) {
    const expression = randomExpression(random);
    const zone = ZONES[Math.floor(random() * ZONES.length)] as string;
    const after = from + Math.floor(random() * 3 * 365 * 86_400_000) + Math.floor(random() * 60_000);
    const got = nextRun(expression, zone, new Date(after));
    if (got === undefined) continue;
    assert.ok(got.getTime() > after, `${expression} ${zone}`);
    assert.equal(got.getUTCSeconds(), 0);
    assert.equal(got.getUTCMilliseconds(), 0);
    const again = nextRun(expression, zone, new Date(got.getTime() - 1));
    assert.equal(again?.getTime(), got.getTime(), `${expression} ${zone}: stable just before the run`);
  }
});
