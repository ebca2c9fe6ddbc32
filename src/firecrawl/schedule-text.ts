// A monitor's `schedule.text` ("every 30 minutes", "daily at 9:30") read as a 5-field cron expression by documented
// rules (docs/firecrawl.md, "Monitors"): what firecrawl-mcp sends when an agent gives no cron.

// Maps, not object literals: a word such as "constructor" must not find an inherited property.
const UNITS = new Map<string, 'minute' | 'hour' | 'day' | 'week'>(
  Object.entries({
    minute: 'minute',
    minutes: 'minute',
    min: 'minute',
    mins: 'minute',
    hour: 'hour',
    hours: 'hour',
    hr: 'hour',
    hrs: 'hour',
    day: 'day',
    days: 'day',
    week: 'week',
    weeks: 'week',
  }) as Array<[string, 'minute' | 'hour' | 'day' | 'week']>,
);
const SHORTHANDS = new Map([
  ['hourly', 'hour'],
  ['daily', 'day'],
  ['weekly', 'week'],
]);

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** "9", "9:30", "9am", "9:30 pm", "21:05" as [hour, minute]; undefined when not a time of day. */
function timeOfDay(text: string | undefined): [number, number] | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(text.trim());
  if (!match) return undefined;
  let hour = Number(match[1]);
  const minute = match[2] === undefined ? 0 : Number(match[2]);
  if (match[3] === 'pm' && hour < 12) hour += 12;
  if (match[3] === 'am' && hour === 12) hour = 0;
  return hour <= 23 && minute <= 59 ? [hour, minute] : undefined;
}

/**
 * The cron expression `text` says, or undefined. Rules: "every N minutes|hours|days" (N in range: minutes 1–59, hours
 * 1–23, days 1–31), "every minute|hour|day|week", "hourly", "daily", "weekly", "every <weekday>", each optionally
 * "at H[:MM][am|pm]" (days and weeks); "every 30 minutes" -> "*\/30 * * * *".
 */
export function cronOfScheduleText(text: string): string | undefined {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (t.length > 100) return undefined;
  const parts = t.split(' at ');
  if (parts.length > 2) return undefined;
  const [phrase, at] = parts as [string, string | undefined];
  const time = at === undefined ? [0, 0] : timeOfDay(at);
  if (time === undefined) return undefined;
  const [hour, minute] = time as [number, number];
  const every = /^(?:every|each) (?:(\d{1,2}) )?([a-z]+)$/.exec(phrase);
  const word = every ? every[2]! : SHORTHANDS.get(phrase);
  const count = every?.[1] === undefined ? 1 : Number(every[1]);
  if (word === undefined || count < 1) return undefined;
  const weekday = WEEKDAYS.indexOf(word.replace(/s$/, ''));
  if (weekday >= 0 && count === 1) return `${minute} ${hour} * * ${weekday}`;
  const unit = UNITS.get(word);
  if (unit === 'minute' && at === undefined && count <= 59) return count === 1 ? '* * * * *' : `*/${count} * * * *`;
  if (unit === 'hour' && at === undefined && count <= 23) return count === 1 ? '0 * * * *' : `0 */${count} * * *`;
  if (unit === 'day' && count <= 31)
    return count === 1 ? `${minute} ${hour} * * *` : `${minute} ${hour} */${count} * *`;
  if (unit === 'week' && count === 1) return `${minute} ${hour} * * 1`;
  return undefined;
}
