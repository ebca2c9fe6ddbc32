// The events outbox: events are rows written inside the transaction of the change they report.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
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
 * Tells in-process listeners (the webhook dispatcher) that events were recorded, so they look
 * at once instead of at their next poll. Emitted on the next turn of the event loop: on SQLite
 * the listener's read waits behind the recording transaction on the one connection; elsewhere
 * a read that comes too early finds nothing and the next poll picks the event up.
 */
export const outboxSignal = new EventEmitter();
let signalPending = false;

function signalRecorded(): void {
  if (signalPending) return;
  signalPending = true;
  setImmediate(() => {
    signalPending = false;
    outboxSignal.emit('recorded');
  });
}

/** Records an event; pass the transaction that holds the state change it reports. */
export async function recordEvent(trx: Transaction<Database> | Kysely<Database>, event: NewEvent): Promise<string> {
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
  signalRecorded();
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
