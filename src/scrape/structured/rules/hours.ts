// Opening hours written as text: schema.org's openingHours form ("Mo-Fr 09:00-18:00", "Sa 10:00-14:00") and
// visible hours tables or lines ("Monday | 7:30 AM – 6:00 PM", "Sunday: Closed", "Mo–Fr: 9–17 Uhr"). Each becomes
// one OpeningHoursSpecification-like item per day (dayOfWeek, opens, closes as HH:MM, closed), so an array of
// objects asking a day gets one element per day whatever way the page wrote it. Day words in en/de/fr/es; a day
// range expands to its days. Texts are read by hand-written scanners over a capped prefix (no regex on page text
// beyond single tokens).
import { newItem, type FactItem } from './facts.js';
import { RULE_LIMITS } from './limits.js';

export const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** Day words (lower case, without a trailing dot) -> 0 = Monday ... 6 = Sunday. */
const DAY_WORDS = new Map<string, number>();
const DAY_SPELLINGS: ReadonlyArray<string> = [
  'monday mon mo montag lundi lun lunes',
  'tuesday tue tues tu dienstag di mardi mar martes',
  'wednesday wed we mittwoch mi mercredi mer miércoles miercoles mié mie',
  'thursday thu thur thurs th donnerstag do jeudi jeu jueves jue',
  'friday fri fr freitag vendredi ven viernes vie',
  'saturday sat sa samstag sonnabend samedi sam sábado sabado sáb sab',
  'sunday sun su sonntag so dimanche dim domingo dom',
];
DAY_SPELLINGS.forEach((words, day) => {
  for (const w of words.split(' ')) DAY_WORDS.set(w, day);
});

/** Words between two days: a range ("Mon to Fri") or a list ("Sat and Sun"). */
const RANGE_WORDS = new Set(['to', 'till', 'until', 'through', 'thru', 'bis', 'à', 'au', 'a', 'hasta', 'al']);
const LIST_WORDS = new Set(['and', 'und', 'et', 'y', 'e']);
const RANGE_MARKS = new Set(['-', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2212', '~']);
const LIST_MARKS = new Set([',', '&', '/', '+', ';']);
/** Words saying a day is closed. */
const CLOSED_WORDS = new Set(['closed', 'geschlossen', 'ruhetag', 'fermé', 'ferme', 'cerrado', 'chiuso']);

type Token = { kind: 'word'; text: string } | { kind: 'range' } | { kind: 'list' } | { kind: 'time'; text: string };

/** Words, range/list marks and time-looking runs ("09:00", "7:30"), of at most `max` characters. */
function tokens(text: string, max: number): Token[] | null {
  if (text.length > max) return null;
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (/\p{L}/u.test(c)) {
      let j = i;
      while (j < text.length && /\p{L}/u.test(text[j] as string)) j++;
      out.push({ kind: 'word', text: text.slice(i, j).toLowerCase() });
      i = j;
    } else if (c >= '0' && c <= '9') {
      let j = i;
      while (j < text.length && /[\d:.h]/.test(text[j] as string)) j++;
      out.push({ kind: 'time', text: text.slice(i, j) });
      i = j;
    } else {
      if (RANGE_MARKS.has(c)) out.push({ kind: 'range' });
      else if (LIST_MARKS.has(c)) out.push({ kind: 'list' });
      i++;
    }
  }
  return out;
}

/** Days named by tokens that are only day words and separators ("Mo-Fr", "Sat & Sun", "Monday"), else null. */
function daysOf(toks: Token[]): number[] | null {
  const days: number[] = [];
  let pendingRange = false;
  let expectDay = true;
  for (const t of toks) {
    const word = t.kind === 'word' ? t.text : '';
    const day = DAY_WORDS.get(word);
    if (day !== undefined) {
      if (!expectDay) return null;
      const from = days[days.length - 1];
      if (pendingRange && from !== undefined) {
        // Mo-Fr, Fr-Mo (wrapping over the week's end).
        for (let d = (from + 1) % 7, n = 0; n < 7; d = (d + 1) % 7, n++) {
          days.push(d);
          if (d === day) break;
        }
      } else days.push(day);
      pendingRange = false;
      expectDay = false;
    } else if (t.kind === 'range' || RANGE_WORDS.has(word)) {
      if (expectDay) return null;
      pendingRange = true;
      expectDay = true;
    } else if (t.kind === 'list' || LIST_WORDS.has(word)) {
      if (expectDay) return null;
      expectDay = true;
    } else return null;
  }
  return days.length && !expectDay ? [...new Set(days)] : null;
}

/** "7:30", "07.30", "9", "17h30" with an optional am/pm word after it -> "07:30", else null. */
function clock(time: string, meridiem: string | undefined): string | null {
  const parts = time.split(/[:.h]/);
  if (parts.length > 2) return null;
  let h = Number(parts[0]);
  const m = parts[1] === undefined || parts[1] === '' ? 0 : Number(parts[1]);
  if (!Number.isInteger(h) || !Number.isInteger(m) || m > 59 || (parts[1] !== undefined && parts[1].length > 2)) {
    return null;
  }
  if (meridiem === 'pm' && h < 12) h += 12;
  else if (meridiem === 'am' && h === 12) h = 0;
  else if (meridiem && h > 12) return null;
  if (h > 24) return null;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

const MERIDIEM = new Map([
  ['am', 'am'],
  ['a', 'am'],
  ['pm', 'pm'],
  ['p', 'pm'],
]);

export interface DayHours {
  opens?: string;
  closes?: string;
  closed: boolean;
}

/** "7:30 AM – 6:00 PM", "09:00-18:00", "9am to 5pm", "Closed" -> the day's hours; anything else -> null. */
function hoursOf(toks: Token[]): DayHours | null {
  const times: string[] = [];
  let closed = false;
  let ranged = false;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] as Token;
    if (t.kind === 'time') {
      const next = toks[i + 1];
      let meridiem: string | undefined;
      if (next?.kind === 'word' && MERIDIEM.has(next.text)) {
        meridiem = MERIDIEM.get(next.text);
        i++;
        // "a.m." is the words a and m.
        if (toks[i + 1]?.kind === 'word' && (toks[i + 1] as { text: string }).text === 'm') i++;
      }
      const c = clock(t.text.replace(/[.h]$/, ''), meridiem);
      if (!c) return null;
      times.push(c);
    } else if (t.kind === 'word') {
      if (CLOSED_WORDS.has(t.text)) closed = true;
      else if (t.text === 'noon' || t.text === 'midday' || t.text === 'mittag') times.push('12:00');
      else if (t.text === 'midnight' || t.text === 'mitternacht') times.push('24:00');
      else if (RANGE_WORDS.has(t.text)) ranged = true;
      // Other words ("Uhr", "hrs", "open", "by appointment") are allowed around the times.
    } else if (t.kind === 'range') ranged = true;
  }
  if (closed && !times.length) return { closed: true };
  if (times.length === 2 && ranged && !closed) {
    return { opens: times[0] as string, closes: times[1] as string, closed: false };
  }
  return null;
}

/** One item per day, as an OpeningHoursSpecification states it. */
function dayItems(days: number[], hours: DayHours): FactItem[] {
  return days.map((d) => {
    const item = newItem('jsonld', ['OpeningHoursSpecification']);
    item.props.set('dayofweek', [DAY_NAMES[d] as string]);
    if (hours.opens) item.props.set('opens', [hours.opens]);
    if (hours.closes) item.props.set('closes', [hours.closes]);
    item.props.set('closed', [hours.closed]);
    return item;
  });
}

/** A label naming days and a value stating their hours ("Mon–Fri", "9:00–17:00"): one item per day, else null. */
export function hoursFromPair(label: string, value: string): FactItem[] | null {
  const labelTokens = tokens(label, RULE_LIMITS.maxLabelChars);
  const valueTokens = tokens(value, RULE_LIMITS.maxHoursChars);
  if (!labelTokens || !valueTokens) return null;
  const days = daysOf(labelTokens);
  const hours = days ? hoursOf(valueTokens) : null;
  return days && hours ? dayItems(days, hours) : null;
}

/** schema.org's openingHours text ("Mo-Fr 09:00-18:00", "Sa,Su 10:00-14:00"): one item per day, else null. */
export function hoursFromText(text: string): FactItem[] | null {
  const toks = tokens(text.trim(), RULE_LIMITS.maxHoursChars);
  if (!toks) return null;
  const firstTime = toks.findIndex((t) => t.kind === 'time' || (t.kind === 'word' && CLOSED_WORDS.has(t.text)));
  if (firstTime < 1) return null;
  const days = daysOf(toks.slice(0, firstTime));
  const hours = days ? hoursOf(toks.slice(firstTime)) : null;
  return days && hours ? dayItems(days, hours) : null;
}
