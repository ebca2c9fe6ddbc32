// "format": "date" asks for a calendar date (YYYY-MM-DD): read one from the ways pages state dates. Only
// unambiguous spellings are read (ISO timestamps, English month names); a numeric 06/10/2023 could be either
// order and is left as stated.

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** "06 Oct 2023", "Fri, 06 Oct 2023 00:00:00 GMT", "6 October 2023". */
const DAY_MONTH_YEAR = /^(?:[a-z]{3,9},?\s+)?(\d{1,2})\.?\s+([a-z]{3,9})\.?,?\s+(\d{4})\b/i;
/** "October 6, 2023", "Oct. 6 2023". */
const MONTH_DAY_YEAR = /^([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/i;

function ymd(year: string, monthName: string, day: string): string | undefined {
  const month = MONTHS.indexOf(monthName.slice(0, 3).toLowerCase()) + 1;
  const d = Number(day);
  if (month === 0 || d < 1 || d > 31) return undefined;
  // A month word must be a month's name or its start ("Oct", "October"), not any word beginning like one.
  const full = new Date(Date.UTC(2000, month - 1, 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' });
  if (!full.toLowerCase().startsWith(monthName.toLowerCase())) return undefined;
  return `${year}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The calendar date a text states, as YYYY-MM-DD, or undefined when it states none this can read. */
export function calendarDate(text: string): string | undefined {
  const t = text.trim().slice(0, 60);
  if (/^\d{4}-\d{2}-\d{2}(?:$|[T\s])/.test(t)) return t.slice(0, 10);
  // Year first is unambiguous in any separator: 2023/11/14, 2023.11.14 (Highwire citation dates).
  const ymdNumeric = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})(?:$|[T\s])/.exec(t);
  if (ymdNumeric) {
    const [, y, m, d] = ymdNumeric as unknown as [string, string, string, string];
    if (Number(m) >= 1 && Number(m) <= 12 && Number(d) >= 1 && Number(d) <= 31) {
      return `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
    }
  }
  const dmy = DAY_MONTH_YEAR.exec(t);
  if (dmy) return ymd(dmy[3] as string, dmy[2] as string, dmy[1] as string);
  const mdy = MONTH_DAY_YEAR.exec(t);
  if (mdy) return ymd(mdy[3] as string, mdy[1] as string, mdy[2] as string);
  return undefined;
}
