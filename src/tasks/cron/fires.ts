// Whether a parsed expression can ever run: a pure calendar check, no search over years.
import type { CronIssue, ParsedCron } from './parse.js';

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Days in a month in the longest year: February counts 29 (a Feb 29 expression runs in leap years). */
export function maxDaysIn(month: number): number {
  return month === 2 ? 29 : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function list(items: string[], conjunction: string): string {
  return items.length === 1
    ? (items[0] as string)
    : `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1) as string}`;
}

/**
 * The reason an expression never runs, or undefined when it does. Minutes, hours and months are
 * never empty, and every combination of them exists, so only the day can be impossible: when a
 * day field starts with `*` (Vixie's DOM_STAR/DOW_STAR) a day must match both fields, and no
 * listed day of month exists in any listed month (`0 0 30 2 *`). When both day fields are
 * restricted either one is enough, and a listed weekday occurs in every month.
 */
export function neverRuns(cron: ParsedCron): CronIssue | undefined {
  const bothMustMatch = cron.domStar || cron.dowStar;
  if (!bothMustMatch) return undefined;
  if (cron.months.some((m) => cron.daysOfMonth.some((d) => d <= maxDaysIn(m)))) return undefined;
  const days = cron.daysOfMonth.map(String);
  const months = cron.months.map((m) => MONTH_NAMES[m - 1] as string);
  const subject = days.length === 1 ? `day ${days[0] as string} does not` : `days ${days.join(', ')} do not`;
  return { message: `never runs: ${subject} exist in ${list(months, 'or')}` };
}
