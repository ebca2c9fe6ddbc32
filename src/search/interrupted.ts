// Ending a search that was cut off: the process running it died, or the store stopped taking its last write.
import type { Kysely } from 'kysely';
import type { OutboxSignal } from '../events/outbox.js';
import { failInterruptedJob } from '../jobs/job-store.js';
import type { Database } from '../store/schema.js';
import { searchEvents } from './events.js';

/**
 * A search runs within its request: the engine's timeout (SEARXNG_TIMEOUT_MS, at most 10 minutes), then its scrapes
 * (at most 5 minutes together). One still pending after 20 minutes was cut off.
 */
export const INTERRUPTED_SEARCH_MS = 20 * 60_000;

/** Fails a search that is still pending, with its search.failed event; false if it had ended meanwhile. */
export function failInterruptedSearch(
  db: Kysely<Database>,
  jobId: string,
  at: string,
  outbox: OutboxSignal | undefined,
): Promise<boolean> {
  const cut = { what: 'search', counts: { total: 0, failed: 0 }, eventOf: searchEvents['search.failed'] };
  return failInterruptedJob(db, jobId, at, cut, outbox);
}
