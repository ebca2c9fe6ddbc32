// The next run of a schedule being saved (a task's or a monitor's): 400 when there is none.
import { InvalidInputError } from '../domain/errors.js';
import { nextRun } from './cron/index.js';

/**
 * validateCron already refuses expressions that run on no date; this catches the rest, which depend on the zone: every
 * time the expression names falls in an hour that daylight saving skips (docs/cron.md).
 */
export function nextRunOfSaved(cron: string, zone: string, now: Date): string {
  const next = nextRun(cron, zone, now);
  if (next === null || next === undefined) {
    throw new InvalidInputError([
      {
        field: 'cron_expression',
        code: 'custom',
        message: `never runs in time zone ${zone}: every time it names is skipped by a daylight-saving change`,
      },
    ]);
  }
  return next.toISOString();
}
