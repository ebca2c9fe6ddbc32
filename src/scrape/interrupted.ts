// Ending a scrape that was cut off: the process running it died, or the store stopped taking its last write.
import type { Kysely } from 'kysely';
import type { OutboxSignal } from '../events/outbox.js';
import { failInterruptedJob } from '../jobs/job-store.js';
import type { Database } from '../store/schema.js';
import { scrapeEvents } from './events.js';

/**
 * A scrape runs within its request (at most its `timeout` plus extraction's budget): one still
 * pending this long after it started was cut off. It would stay pending until it expires.
 */
export const INTERRUPTED_SCRAPE_MS = 10 * 60_000;

/** Fails a scrape that is still pending, with its scrape.failed event; false if it had ended meanwhile. */
export function failInterruptedScrape(
  db: Kysely<Database>,
  jobId: string,
  at: string,
  outbox: OutboxSignal | undefined,
): Promise<boolean> {
  const cut = { what: 'scrape', counts: { total: 1, failed: 1 }, eventOf: scrapeEvents['scrape.failed'] };
  return failInterruptedJob(db, jobId, at, cut, outbox);
}
