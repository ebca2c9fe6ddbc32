// Time-zone arithmetic for cron: zone validation, cached UTC offsets, and wall-clock <-> instant mapping.

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Wider than any DST shift in tzdb (2 hours at most); used to look around a wall-clock time. */
export const MAX_SHIFT = 3 * 3_600_000;

const validity = new Map<string, boolean>();

/**
 * Accepts every zone name Intl accepts (IANA names including legacy links such as `US/Eastern`
 * and `EST5EDT`, `Etc/GMT+5`, and `UTC`), and refuses bare UTC offsets (`+02:00`), which are not
 * IANA zones even where a newer Intl accepts them. Names are matched the way Intl matches them
 * (case-insensitively).
 */
export function isValidTimeZone(zone: string): boolean {
  if (typeof zone !== 'string' || zone === '' || zone.length > 64) return false;
  const known = validity.get(zone);
  if (known !== undefined) return known;
  let ok = false;
  // Offsets (`+02:00`, `-0500`, `−03`) and names with spaces are never IANA zone names.
  if (/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      ok = true;
    } catch {
      ok = false;
    }
  }
  if (validity.size > 1000) validity.clear();
  validity.set(zone, ok);
  return ok;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The zone's UTC offset in ms at `instant`, straight from Intl (slow: ~10 µs). */
function intlOffset(zone: string, instant: number): number {
  const whole = Math.floor(instant / 1000) * 1000;
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  for (const part of formatter(zone).formatToParts(whole)) {
    switch (part.type) {
      case 'year':
        year = Number(part.value);
        break;
      case 'month':
        month = Number(part.value);
        break;
      case 'day':
        day = Number(part.value);
        break;
      case 'hour':
        hour = Number(part.value);
        break;
      case 'minute':
        minute = Number(part.value);
        break;
      case 'second':
        second = Number(part.value);
        break;
      default:
        break;
    }
  }
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC maps years 0-99 to 1900-1999; correct for them (only reachable for odd inputs).
  const fixed = year >= 0 && year < 100 ? new Date(wall).setUTCFullYear(year) : wall;
  return fixed - whole;
}

/**
 * One week (UTC, from the epoch) of a zone: its offset at the start and the changes inside it.
 * The week is sampled at its start, middle and end, so two transitions within half a week that
 * cancel out would be missed; tzdb has none in the years a scheduler deals with (the tests
 * compare against Intl across 2020-2040).
 */
interface Bucket {
  readonly base: number;
  readonly changes: ReadonlyArray<{ readonly at: number; readonly offset: number }>;
}

const BUCKET = 7 * DAY;
const bucketCache = new Map<string, Map<number, Bucket>>();
/** Bounds memory: ~20 years of weeks for ~100 zones; beyond that the cache starts over. */
const MAX_CACHED_BUCKETS = 100_000;
let cachedBuckets = 0;

/** The first whole minute in (lo, hi] whose offset differs from `lo`'s, given that `hi`'s does. */
function findChange(zone: string, lo: number, hi: number): number {
  const from = intlOffset(zone, lo);
  let a = Math.floor(lo / MINUTE);
  let b = Math.ceil(hi / MINUTE);
  while (b - a > 1) {
    const mid = Math.floor((a + b) / 2);
    if (intlOffset(zone, mid * MINUTE) === from) a = mid;
    else b = mid;
  }
  return b * MINUTE;
}

function loadBucket(zone: string, index: number): Bucket {
  const start = index * BUCKET;
  const points = [start, start + BUCKET / 2, start + BUCKET - 1000];
  const offsets = points.map((p) => intlOffset(zone, p));
  const changes: Array<{ at: number; offset: number }> = [];
  for (let i = 1; i < points.length; i++) {
    if (offsets[i] !== offsets[i - 1]) {
      changes.push({
        at: findChange(zone, points[i - 1] as number, points[i] as number),
        offset: offsets[i] as number,
      });
    }
  }
  return { base: offsets[0] as number, changes };
}

/** The zone's UTC offset in ms at `instant`, cached per week. */
export function offsetAt(zone: string, instant: number): number {
  let buckets = bucketCache.get(zone);
  if (buckets === undefined) {
    buckets = new Map();
    bucketCache.set(zone, buckets);
  }
  const index = Math.floor(instant / BUCKET);
  let bucket = buckets.get(index);
  if (bucket === undefined) {
    if (cachedBuckets >= MAX_CACHED_BUCKETS) {
      for (const m of bucketCache.values()) m.clear();
      cachedBuckets = 0;
    }
    bucket = loadBucket(zone, index);
    buckets.set(index, bucket);
    cachedBuckets++;
  }
  let offset = bucket.base;
  for (const change of bucket.changes) {
    if (instant >= change.at) offset = change.offset;
  }
  return offset;
}

/** How a wall-clock time (given as "local ms": the wall clock read as if it were UTC) maps to instants. */
export type WallTime =
  | { readonly kind: 'exists'; readonly instants: readonly number[] } // one instant, or two (fall back), ascending
  | { readonly kind: 'gap'; readonly jump: number }; // skipped (spring forward); `jump` is when the clock jumps

export function resolveWallTime(zone: string, local: number): WallTime {
  const guess = local - offsetAt(zone, local);
  const candidates = new Set([
    offsetAt(zone, guess - MAX_SHIFT),
    offsetAt(zone, guess),
    offsetAt(zone, guess + MAX_SHIFT),
  ]);
  const instants: number[] = [];
  for (const offset of candidates) {
    const instant = local - offset;
    if (offsetAt(zone, instant) === offset && !instants.includes(instant)) instants.push(instant);
  }
  if (instants.length > 0) {
    instants.sort((a, b) => a - b);
    return { kind: 'exists', instants };
  }
  // A gap: the clock jumps from before-offset to after-offset between these two instants.
  const before = offsetAt(zone, guess - MAX_SHIFT);
  const after = offsetAt(zone, guess + MAX_SHIFT);
  let lo = Math.floor((local - after) / MINUTE); // reads a wall time before `local`
  let hi = Math.ceil((local - before) / MINUTE); // reads a wall time after `local`
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (mid * MINUTE + offsetAt(zone, mid * MINUTE) > local) hi = mid;
    else lo = mid;
  }
  return { kind: 'gap', jump: hi * MINUTE };
}

/** The wall clock of `instant` in `zone`, as "local ms" (read with getUTC*). */
export function toLocal(zone: string, instant: number): number {
  return instant + offsetAt(zone, instant);
}

/** The calendar day (YYYY-MM-DD) of `instant` in `zone`. */
export function zonedDay(instant: Date, timeZone: string): string {
  const local = new Date(toLocal(timeZone, instant.getTime()));
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth() + 1;
  const d = local.getUTCDate();
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}
