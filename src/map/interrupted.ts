// Ending a map that was cut off: the process running it died, or the store stopped taking its last write.
import type { Kysely } from 'kysely';
import type { OutboxSignal } from '../events/outbox.js';
import { failInterruptedJob } from '../jobs/job-store.js';
import type { Database } from '../store/schema.js';
import { mapEvents } from './events.js';

/** A map runs within its request (`timeout`, at most 5 minutes): one still pending after 10 was cut off. */
export const INTERRUPTED_MAP_MS = 10 * 60_000;

/** Fails a map that is still pending, with its map.failed event; false if it had ended meanwhile. */
export function failInterruptedMap(
  db: Kysely<Database>,
  jobId: string,
  at: string,
  outbox: OutboxSignal | undefined,
): Promise<boolean> {
  const cut = { what: 'map', counts: { total: 0, failed: 0 }, eventOf: mapEvents['map.failed'] };
  return failInterruptedJob(db, jobId, at, cut, outbox);
}
