// The events outbox: events are rows written inside the transaction of the change they report.
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../store/schema.js';

export interface NewEvent {
  ownerId: string;
  type: string;
  /** The job, task or subscription the event is about. */
  subjectId: string | null;
  payload: Record<string, unknown>;
  createdAt: string;
}

export interface StoredEvent extends NewEvent {
  seq: number;
  id: string;
}

/**
 * Tells in-process listeners (the app's webhook dispatcher) that events were recorded, so they
 * look at once instead of at their next poll. Each app owns one, given to whoever records events
 * and to whoever waits for them: two apps in one process (tests make several) do not wake each
 * other. Listeners hear of it on the next turn of the event loop: on SQLite the listener's read
 * waits behind the recording transaction on the one connection; elsewhere a read that comes too
 * early finds nothing and the next poll picks the event up.
 */
export class OutboxSignal {
  private readonly listeners = new Set<() => void>();
  private pending = false;

  /** Says that an event was recorded; the events of one turn make one signal. */
  recorded(): void {
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      for (const listener of [...this.listeners]) listener();
    });
  }

  /** Calls `listener` after events were recorded; answers the function that stops it. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * Records an event; pass the transaction that holds the state change it reports, and the app's
 * signal (without one, as in tools and tests, listeners find the event at their next poll).
 */
export async function recordEvent(trx: Transaction<Database> | Kysely<Database>, event: NewEvent, signal?: OutboxSignal): Promise<string> {
  const id = randomUUID();
  await trx
    .insertInto('events')
    .values({
      id,
      owner_id: event.ownerId,
      type: event.type,
      subject_id: event.subjectId,
      payload: JSON.stringify(event.payload),
      created_at: event.createdAt,
    })
    .execute();
  signal?.recorded();
  return id;
}

/** Events after `afterSeq`, oldest first (for dispatchers and tests). */
export async function readEvents(
  db: Kysely<Database>,
  options: { afterSeq?: number; ownerId?: string; subjectId?: string; limit?: number } = {},
): Promise<StoredEvent[]> {
  let query = db.selectFrom('events').selectAll().where('seq', '>', options.afterSeq ?? 0);
  if (options.ownerId !== undefined) query = query.where('owner_id', '=', options.ownerId);
  if (options.subjectId !== undefined) query = query.where('subject_id', '=', options.subjectId);
  const rows = await query.orderBy('seq').limit(options.limit ?? 1000).execute();
  return rows.map((r) => ({
    seq: Number(r.seq),
    id: r.id,
    ownerId: r.owner_id,
    type: r.type,
    subjectId: r.subject_id,
    payload: JSON.parse(r.payload) as Record<string, unknown>,
    createdAt: r.created_at,
  }));
}
