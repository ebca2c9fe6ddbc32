// Public face of the scheduled-task cron math: validation, zones and run times (pure functions; time is a parameter).
import { neverRuns } from './fires.js';
import { parseCron, type CronIssue } from './parse.js';

export type { CronIssue } from './parse.js';
export { isValidTimeZone, zonedDay } from './zone.js';
export { nextRun, runsBetween } from './schedule.js';

/**
 * Validates a classic 5-field expression (see docs/cron.md for the grammar). Returns the reason
 * when invalid, undefined when valid. An expression that can never run (`0 0 30 2 *`) is
 * invalid: a task saved with it would never have a next run.
 */
export function validateCron(expression: string): CronIssue | undefined {
  const result = parseCron(expression);
  return result.ok ? neverRuns(result.cron) : result.issue;
}
