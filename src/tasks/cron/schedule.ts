// Next-run computation: croner finds matching wall-clock minutes, this module maps them to instants with Vixie cron's
// DST rules.
import { Cron } from 'croner';
import { neverRuns } from './fires.js';
import { parseCron, type CronIssue, type ParsedCron } from './parse.js';
import { MAX_SHIFT, isValidTimeZone, offsetAt, resolveWallTime } from './zone.js';

const MINUTE = 60_000;
/** Larger than any UTC offset (+14:00 / -12:00): bounds how far a wall time can sit from its instant. */
const MAX_OFFSET = 15 * 3_600_000;
/**
 * How far ahead a run is looked for. Every expression that validates runs on some date (fires.ts),
 * and the longest wait for a date on a given weekday (the AND rule) is 40 years: February 29 on a
 * Sunday, 2088 -> 2128, as 2100 is not a leap year. So a valid task always has a next run.
 */
const HORIZON_YEARS = 41;

interface Compiled {
  readonly cron: ParsedCron;
  /**
   * Croner run at a fixed UTC offset of 0 is a pure calendar: its "instants" are wall-clock
   * times read as UTC. Undefined when no calendar day can ever match (e.g. Feb 30).
   */
  readonly wallClock: Cron | undefined;
}

const MAX_CACHED = 5_000;
const compiled = new Map<string, Compiled | CronIssue>();

function build(cron: ParsedCron): Compiled {
  // Vixie cron: a day field starting with `*` makes the day test "both fields"; else "either".
  const domAndDow = cron.domStar || cron.dowStar;
  if (neverRuns(cron)) return { cron, wallClock: undefined };
  // Expanded lists (not the user's text): croner then applies no syntax or DOM/DOW rules of its own.
  // A full set is written `*`: same meaning, and croner is ~10x faster with a `*` day of week.
  const sizes = [60, 24, 31, 12, 7];
  const fields = [cron.minutes, cron.hours, cron.daysOfMonth, cron.months, cron.daysOfWeek].map((values, i) =>
    values.length === sizes[i] ? '*' : values.join(','),
  );
  if (!domAndDow && (fields[2] === '*' || fields[4] === '*')) {
    // "Either day field" with one of them matching every day: every day matches.
    fields[2] = '*';
    fields[4] = '*';
  }
  const pattern = fields.join(' ');
  return { cron, wallClock: new Cron(pattern, { mode: '5-part', utcOffset: 0, domAndDow }) };
}

/** Parses (once per distinct text) and prepares an expression. */
export function compile(expression: string): Compiled | CronIssue {
  const hit = compiled.get(expression);
  if (hit !== undefined) return hit;
  const parsed = parseCron(expression);
  const entry = parsed.ok ? build(parsed.cron) : parsed.issue;
  if (compiled.size >= MAX_CACHED) {
    // Drop the oldest entry: Map iterates in insertion order.
    const oldest = compiled.keys().next().value;
    if (oldest !== undefined) compiled.delete(oldest);
  }
  compiled.set(expression, entry);
  return entry;
}

function compiledOrThrow(expression: string, timeZone: string): Compiled {
  const entry = compile(expression);
  if (!('cron' in entry)) throw new TypeError(`invalid cron expression '${expression}': ${entry.message}`);
  if (!isValidTimeZone(timeZone)) throw new RangeError(`invalid time zone '${timeZone}'`);
  return entry;
}

function addYears(instant: number, years: number): number {
  const d = new Date(instant);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.getTime();
}

/**
 * The largest offset in force during the MAX_SHIFT before `instant` (an instant earlier than it reads at most this).
 */
function maxOffsetBefore(zone: string, instant: number): number {
  return Math.max(offsetAt(zone, instant), offsetAt(zone, instant - MAX_SHIFT));
}

/** The first run strictly after `after` (ms), or undefined if none within the horizon. */
function nextInstant(entry: Compiled, zone: string, after: number): number | undefined {
  const matcher = entry.wallClock;
  if (matcher === undefined) return undefined;
  const limit = addYears(after, HORIZON_YEARS);
  const wildcard = entry.cron.wildcard;
  // Wall times to consider start at `after`'s own wall clock, or earlier if the clock falls back soon
  // (the second pass of a repeated hour reads earlier than `after` but happens later).
  let cursor = after + Math.min(offsetAt(zone, after), offsetAt(zone, after + MAX_SHIFT));
  let best: number | undefined;
  let bestReach = 0; // wall times at or beyond this cannot yield an instant earlier than `best`
  const consider = (instant: number): void => {
    if (instant > after && (best === undefined || instant < best)) {
      best = instant;
      bestReach = instant + maxOffsetBefore(zone, instant);
    }
  };
  // Bounded for safety; in practice a handful of iterations (up to ~200 beside a fall back).
  for (let i = 0; i < 10_000; i++) {
    const next = matcher.nextRun(new Date(cursor));
    if (next === null) break;
    const local = next.getTime();
    if (best !== undefined && local >= bestReach) break;
    if (local - MAX_OFFSET > limit) break;
    const wall = resolveWallTime(zone, local);
    if (wall.kind === 'gap') {
      // Skipped by spring forward: a fixed-time job runs at the jump, a wildcard job does not run.
      if (!wildcard) consider(wall.jump);
    } else if (wildcard) {
      // Repeated by fall back: a wildcard job follows the clock and runs in both passes.
      for (const instant of wall.instants) consider(instant);
    } else {
      // A fixed-time job runs once, at the first pass.
      consider(wall.instants[0] as number);
    }
    cursor = local;
    if (best !== undefined && local + MINUTE >= bestReach) break;
  }
  return best !== undefined && best <= limit ? best : undefined;
}

export function nextRun(expression: string, timeZone: string, after: Date): Date | undefined {
  const entry = compiledOrThrow(expression, timeZone);
  const next = nextInstant(entry, timeZone, after.getTime());
  return next === undefined ? undefined : new Date(next);
}

export function runsBetween(expression: string, timeZone: string, from: Date, to: Date, max: number): Date[] {
  const entry = compiledOrThrow(expression, timeZone);
  const end = to.getTime();
  const runs: Date[] = [];
  let cursor = from.getTime();
  while (runs.length < max) {
    const next = nextInstant(entry, timeZone, cursor);
    if (next === undefined || next > end) break;
    runs.push(new Date(next));
    cursor = next;
  }
  return runs;
}
