// The rules that read a monitor's schedule.text as cron (src/firecrawl/schedule-text.ts, docs/firecrawl.md "Monitors").
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { cronOfScheduleText } from '../../src/firecrawl/schedule-text.js';

it('reads intervals, daily and weekly times and weekdays as cron', () => {
  const cases: Array<[string, string]> = [
    ['every 30 minutes', '*/30 * * * *'],
    ['Every minute', '* * * * *'],
    ['hourly', '0 * * * *'],
    ['every 6 hours', '0 */6 * * *'],
    ['daily', '0 0 * * *'],
    ['daily at 9:30', '30 9 * * *'],
    ['every day at 9pm', '0 21 * * *'],
    ['every day at 12am', '0 0 * * *'],
    ['weekly', '0 0 * * 1'],
    ['every monday at 8am', '0 8 * * 1'],
    ['each sunday', '0 0 * * 0'],
    ['every 2 days at 07:15', '15 7 */2 * *'],
  ];
  for (const [text, cron] of cases) assert.equal(cronOfScheduleText(text), cron, text);
});

it('refuses what it cannot say exactly in cron, and long or odd text', () => {
  for (const text of [
    'every 90 minutes',
    'every 0 hours',
    'every week at 25:00',
    'every 30 minutes at 9',
    'sometimes',
    'x'.repeat(200),
  ])
    assert.equal(cronOfScheduleText(text), undefined, text);
});
