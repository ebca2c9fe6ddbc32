// Parses and validates a classic 5-field cron expression into expanded value sets plus the Vixie cron flags.

export interface CronIssue {
  message: string;
}

/** One 5-field expression, expanded. Values are sorted and unique; day of week uses 0-6 (7 folded into 0). */
export interface ParsedCron {
  readonly minutes: readonly number[];
  readonly hours: readonly number[];
  readonly daysOfMonth: readonly number[];
  readonly months: readonly number[];
  readonly daysOfWeek: readonly number[];
  /**
   * Vixie cron's DOM_STAR / DOW_STAR: the field's text starts with `*` (so `*` and `*\/2`).
   * When either is set a day must match both day fields; otherwise either one is enough.
   */
  readonly domStar: boolean;
  readonly dowStar: boolean;
  /**
   * Vixie cron's MIN_STAR | HR_STAR: the minute or hour field starts with `*`. Such a "wildcard"
   * job follows the clock across DST changes; any other job is a "fixed-time" job.
   */
  readonly wildcard: boolean;
}

interface FieldSpec {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
  /** Index of names[0] (month names start at 1, day names at 0). */
  readonly namesFrom?: number;
}

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;

const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTH_NAMES, namesFrom: 1 },
  { name: 'day of week', min: 0, max: 7, names: DAY_NAMES, namesFrom: 0 },
];

/** Thrown internally by the field parser; turned into a CronIssue at the boundary. */
class CronSyntaxError extends Error {}

function fail(message: string): never {
  throw new CronSyntaxError(message);
}

/** Parses one value (number or, where allowed, a 3-letter name) and checks its range. */
function parseValue(text: string, spec: FieldSpec, raw: string): number {
  if (text === '') fail(`${spec.name} field '${raw}' has an empty value`);
  if (/^\d+$/.test(text)) {
    // Length guard: a 20-digit number would lose precision before the range check.
    const value = text.length > 4 ? Number.POSITIVE_INFINITY : Number(text);
    if (value < spec.min || value > spec.max) {
      fail(`${spec.name} value ${text} is out of range ${spec.min}-${spec.max}`);
    }
    return value;
  }
  if (spec.names !== undefined && /^[A-Za-z]{3}$/.test(text)) {
    const index = spec.names.indexOf(text.toUpperCase());
    if (index >= 0) return index + (spec.namesFrom ?? 0);
  }
  if (spec.names !== undefined && /^[A-Za-z]+$/.test(text)) {
    fail(`${spec.name} name '${text}' is not one of ${spec.names.join(', ')}`);
  }
  fail(`${spec.name} value '${text}' is not a number${spec.names ? ' or a 3-letter name' : ''}`);
}

/** Expands one list item: `*`, `n`, `a-b`, `*\/s`, `a-b/s`. */
function expandItem(item: string, spec: FieldSpec, raw: string, into: Set<number>): void {
  if (item === '') fail(`${spec.name} field '${raw}' has an empty list item`);
  const slash = item.indexOf('/');
  const base = slash < 0 ? item : item.slice(0, slash);
  let step = 1;
  if (slash >= 0) {
    const stepText = item.slice(slash + 1);
    if (!/^\d+$/.test(stepText)) fail(`${spec.name} step '${stepText}' in '${item}' is not a number`);
    step = stepText.length > 4 ? Number.POSITIVE_INFINITY : Number(stepText);
    if (step === 0) fail(`${spec.name} step 0 in '${item}' is not allowed`);
    // Vixie cron accepts any step; a step beyond the field's maximum can only be a mistake.
    if (step > spec.max) fail(`${spec.name} step ${stepText} in '${item}' is larger than ${spec.max}`);
  }
  let low: number;
  let high: number;
  if (base === '*') {
    low = spec.min;
    high = spec.max;
  } else {
    const dash = base.indexOf('-');
    if (dash < 0) {
      // Vixie cron reads `5/15` as the number 5 followed by junk: a step needs a range or `*`.
      if (slash >= 0)
        fail(
          `${spec.name} step in '${item}' needs '*' or a range before it (e.g. '*/${step}' or '${base}-${spec.max}/${step}')`,
        );
      low = high = parseValue(base, spec, raw);
    } else {
      low = parseValue(base.slice(0, dash), spec, raw);
      high = parseValue(base.slice(dash + 1), spec, raw);
      if (low > high) {
        const hint = spec.name === 'day of week' && high === 0 ? ' (use 7 for Sunday at the end of a range)' : '';
        fail(`${spec.name} range '${base}' is reversed${hint}`);
      }
    }
  }
  for (let v = low; v <= high; v += step) into.add(v);
}

function expandField(raw: string, spec: FieldSpec): number[] {
  const values = new Set<number>();
  for (const item of raw.split(',')) expandItem(item, spec, raw, values);
  return [...values].sort((a, b) => a - b);
}

/** Rejects well-known non-classic syntax up front, with a message naming what it is. */
function rejectExtensions(expression: string, fields: readonly string[]): void {
  if (expression.startsWith('@')) {
    fail(`macros such as '${fields[0]}' are not supported; write the 5 fields (e.g. '0 0 * * *' for @daily)`);
  }
  if (fields.length !== 5) {
    const extra = fields.length === 6 || fields.length === 7 ? '; seconds and years fields are not supported' : '';
    fail(`expected 5 fields (minute hour day-of-month month day-of-week), got ${fields.length}${extra}`);
  }
  for (let i = 0; i < 5; i++) {
    const raw = fields[i] as string;
    const spec = FIELDS[i] as FieldSpec;
    if (raw.includes('?')) fail(`'?' in the ${spec.name} field is Quartz syntax and is not supported; use '*'`);
    if (raw.includes('#')) fail(`'#' (nth weekday) in the ${spec.name} field is not supported`);
    // L and W are letters that also occur in names (JUL, WED): judge whole tokens, not characters.
    for (const token of raw.split(/[,\-/]/)) {
      const upper = token.toUpperCase();
      if (spec.names?.includes(upper)) continue;
      if (/^\d*L$|^LW$/.test(upper)) fail(`'L' (last) in the ${spec.name} field is not supported`);
      if (/^\d*W$/.test(upper)) fail(`'W' (nearest weekday) in the ${spec.name} field is not supported`);
    }
  }
}

/** Parses an expression; throws CronSyntaxError with a user-facing message when invalid. */
function parseOrThrow(expression: string): ParsedCron {
  if (typeof expression !== 'string') fail('cron expression must be a string');
  const trimmed = expression.trim();
  if (trimmed === '') fail('cron expression is empty');
  const fields = trimmed.split(/\s+/);
  rejectExtensions(trimmed, fields);
  const [minute, hour, dom, month, dow] = fields as [string, string, string, string, string];
  const daysOfWeek = [...new Set(expandField(dow, FIELDS[4] as FieldSpec).map((d) => (d === 7 ? 0 : d)))].sort(
    (a, b) => a - b,
  );
  return {
    minutes: expandField(minute, FIELDS[0] as FieldSpec),
    hours: expandField(hour, FIELDS[1] as FieldSpec),
    daysOfMonth: expandField(dom, FIELDS[2] as FieldSpec),
    months: expandField(month, FIELDS[3] as FieldSpec),
    daysOfWeek,
    domStar: dom.startsWith('*'),
    dowStar: dow.startsWith('*'),
    wildcard: minute.startsWith('*') || hour.startsWith('*'),
  };
}

export type ParseResult = { ok: true; cron: ParsedCron } | { ok: false; issue: CronIssue };

export function parseCron(expression: string): ParseResult {
  try {
    return { ok: true, cron: parseOrThrow(expression) };
  } catch (error) {
    if (error instanceof CronSyntaxError) return { ok: false, issue: { message: error.message } };
    throw error;
  }
}
