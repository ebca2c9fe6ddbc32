// The events outbox: events are rows written inside the transaction of the change they report.
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Dialect } from '../store/database.js';
import type { EventType } from './catalogue.js';
import type { DomainEvent } from './domain-event.js';
import type { Database, EventTable } from '../store/schema.js';

/** The store itself, or a transaction a caller holds the event rows' reads and writes in. */
type Executor = Kysely<Database> | Transaction<Database>;

/** An event to record: built by its type's constructor (crawl/events.ts, scrape/events.ts, tasks/events.ts). */
export type NewEvent = DomainEvent<EventType>;

/** An event as read back: its type is whatever the row holds (rows may predate a rename). */
export interface StoredEvent {
  seq: number;
  id: string;
  ownerId: string;
  type: string;
  subjectId: string | null;
  payload: Record<string, unknown>;
  createdAt: string;
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
export async function recordEvent(trx: Executor, event: NewEvent, signal?: OutboxSignal): Promise<string> {
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
  let query = db
    .selectFrom('events')
    .selectAll()
    .where('seq', '>', options.afterSeq ?? 0);
  if (options.ownerId !== undefined) query = query.where('owner_id', '=', options.ownerId);
  if (options.subjectId !== undefined) query = query.where('subject_id', '=', options.subjectId);
  const rows = await query
    .orderBy('seq')
    .limit(options.limit ?? 1000)
    .execute();
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

/** The newest `limit` events about one subject of an owner, newest first (ids, types and payloads). */
export async function newestEventsOfSubject(
  db: Kysely<Database>,
  ownerId: string,
  subjectId: string,
  limit: number,
): Promise<Array<{ id: string; type: string; payload: Record<string, unknown> }>> {
  const rows = await db
    .selectFrom('events')
    .select(['id', 'type', 'payload'])
    .where('subject_id', '=', subjectId)
    .where('owner_id', '=', ownerId)
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, type: r.type, payload: JSON.parse(r.payload) as Record<string, unknown> }));
}

/** An event not yet turned into webhook deliveries, with what its deliveries are made of. */
export type UndispatchedEvent = Pick<
  Selectable<EventTable>,
  'seq' | 'id' | 'owner_id' | 'type' | 'subject_id' | 'payload'
>;

/**
 * The oldest `limit` events not yet dispatched. On PostgreSQL they stay locked until `trx` ends
 * and rows another fan-out holds are skipped, so concurrent fan-outs take disjoint batches: pass
 * the transaction that writes their deliveries and marks them dispatched.
 */
export async function selectUndispatchedEvents(
  trx: Executor,
  dialect: Dialect,
  limit: number,
): Promise<UndispatchedEvent[]> {
  let query = trx
    .selectFrom('events')
    .select(['seq', 'id', 'owner_id', 'type', 'subject_id', 'payload'])
    .where('dispatched', '=', 0)
    .orderBy('seq')
    .limit(limit);
  if (dialect === 'postgres') query = query.forUpdate().skipLocked();
  return query.execute();
}

/** Marks events dispatched; pass the transaction that wrote their deliveries, so neither happens alone. */
export async function markEventsDispatched(
  trx: Executor,
  seqs: ReadonlyArray<UndispatchedEvent['seq']>,
): Promise<void> {
  await trx.updateTable('events').set({ dispatched: 1 }).where('seq', 'in', seqs).execute();
}
