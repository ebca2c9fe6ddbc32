// Deliveries in the store: fan-out of outbox events, leased claims, attempt records and the history queries.
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Dialect } from '../store/database.js';
import type { Database, WebhookAttemptTable, WebhookDeliveryTable } from '../store/schema.js';
import { markEventsDispatched, selectUndispatchedEvents } from '../events/outbox.js';
import { hasRetryLeft } from './backoff.js';
import { type FullGroups, receiverOf } from './slots.js';
import {
  activeSubscriptionsOf,
  countFinalDelivery,
  deleteSubscriptionRow,
  type Subscription,
  subscriptionsById,
} from './subscription-store.js';

/**
 * The subscriptions a task names for its task.* events (its `webhook_ids`), read in the fan-out's
 * transaction. Given by the app (tasks/task-store.ts owns the table), so webhooks/ does not import tasks/.
 */
export type TaskWebhookLookup = (
  db: Transaction<Database>,
  taskIds: string[],
) => Promise<Array<{ id: string; webhookIds: string[] }>>;

export type DeliveryRow = WebhookDeliveryTable;
export type AttemptRow = Selectable<WebhookAttemptTable>;
export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed';

/** The most a delivery body may be (docs/webhooks.md, "Delivery requests"). */
export const WEBHOOK_PAYLOAD_MAX_BYTES = 1024 * 1024;

export interface ClaimedDelivery {
  delivery: DueDelivery;
  subscription: Subscription;
}

/** The error code of an attempt cut short by its sender's death, and of a delivery that ended so. */
export const INTERRUPTED = 'INTERRUPTED';

/** The error code of a queued delivery dropped because its subscription was deactivated. */
export const SUBSCRIPTION_INACTIVE = 'SUBSCRIPTION_INACTIVE';

export interface ClaimInput {
  /** The sender taking the leases. */
  owner: string;
  now: string;
  leaseMs: number;
  max: number;
  /** Groups at their limit: left out in SQL. */
  full: FullGroups;
  /** Picks what fits the sender's limits among the due deliveries, given oldest first. */
  choose: (due: DueDelivery[], max: number) => DueDelivery[];
}

export interface AttemptRecord {
  deliveryId: string;
  leaseOwner: string;
  attemptNumber: number;
  startedAt: string;
  finishedAt: string;
  statusCode?: number;
  durationMs: number;
  errorCode?: string;
  errorMessage?: string;
  responseBody?: string;
  /** Final outcome, or a retry at `nextAttemptAt`. */
  result: 'delivered' | 'failed' | 'retry';
  nextAttemptAt?: string;
}

/** A delivery a claim may take, with the receiver its limit counts. */
export type DueDelivery = DeliveryRow & { receiver: string };

/** Rows written before migration 0007 may lack their receiver. */
function withReceiver(row: DeliveryRow): DueDelivery {
  return { ...row, receiver: row.receiver ?? receiverOf(row.request_url) };
}

function matches(sub: Subscription, type: string, payload: Record<string, unknown>): boolean {
  if (!sub.eventTypes.includes(type)) return false;
  if (sub.scope === 'specific') {
    const taskId = payload.task_id;
    return typeof taskId === 'string' && (sub.specificTaskIds ?? []).includes(taskId);
  }
  return true;
}

export class DeliveryStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly webhookIdsOfTasks: TaskWebhookLookup,
  ) {}

  /**
   * Deletes a subscription of this owner with its deliveries and their attempts, in one transaction; false if there is
   * none.
   */
  async deleteSubscription(ownerId: string, id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await deleteSubscriptionRow(trx, ownerId, id))) return false;
      await deleteDeliveriesOfSubscription(trx, id);
      return true;
    });
  }

  /**
   * Turns up to `batch` undispatched events into deliveries for the active subscriptions of
   * their owners, and marks them dispatched, in one transaction. Returns how many events.
   */
  async fanOut(now: string, batch = 500): Promise<{ events: number; deliveries: number }> {
    return this.db.transaction().execute(async (trx) => {
      const events = await selectUndispatchedEvents(trx, this.dialect, batch);
      if (events.length === 0) return { events: 0, deliveries: 0 };
      const owners = [...new Set(events.map((e) => e.owner_id))];
      const subs = await activeSubscriptionsOf(trx, owners);
      const byOwner = new Map<string, Subscription[]>();
      for (const s of subs) byOwner.set(s.ownerId, [...(byOwner.get(s.ownerId) ?? []), s]);
      // A task's webhook_ids name subscriptions that receive its task events whatever their scope.
      const taskIds = [
        ...new Set(events.filter((e) => e.type.startsWith('task.') && e.subject_id).map((e) => e.subject_id as string)),
      ];
      const taskHooks = new Map<string, string[]>();
      if (taskIds.length > 0) {
        for (const t of await this.webhookIdsOfTasks(trx, taskIds)) taskHooks.set(t.id, t.webhookIds);
      }
      const rows: DeliveryRow[] = [];
      for (const e of events) {
        const payload = JSON.parse(e.payload) as Record<string, unknown>;
        const named = e.subject_id ? (taskHooks.get(e.subject_id) ?? []) : [];
        for (const sub of byOwner.get(e.owner_id) ?? []) {
          if (!matches(sub, e.type, payload) && !(named.includes(sub.id) && sub.eventTypes.includes(e.type))) continue;
          rows.push(newDelivery({ sub, eventId: e.id, eventType: e.type, body: e.payload, now }));
        }
      }
      for (let i = 0; i < rows.length; i += 200)
        await trx
          .insertInto('webhook_deliveries')
          .values(rows.slice(i, i + 200))
          .execute();
      await markEventsDispatched(
        trx,
        events.map((e) => e.seq),
      );
      return { events: events.length, deliveries: rows.length };
    });
  }

  /** A delivery outside fan-out (test, replay): pending at once. */
  async insertDirect(input: {
    sub: Subscription;
    eventType: string;
    body: string;
    now: string;
    isTest?: boolean;
    replayOf?: string;
  }): Promise<string> {
    const row = newDelivery({
      sub: input.sub,
      eventId: null,
      eventType: input.eventType,
      body: input.body,
      now: input.now,
      isTest: input.isTest,
      replayOf: input.replayOf,
    });
    await this.db.insertInto('webhook_deliveries').values(row).execute();
    return row.id;
  }

  /**
   * Leases due deliveries (pending or waiting for retry) with their subscriptions, and starts
   * their next attempt: attempt_number counts attempts when they start, so an attempt cut short
   * by a crash still counts. A delivery whose lease ran out was interrupted mid-attempt: that
   * attempt is logged as INTERRUPTED here, and the delivery is taken again if it has a retry
   * left, or failed if not.
   */
  async claim(input: ClaimInput): Promise<ClaimedDelivery[]> {
    if (input.max <= 0) return [];
    return this.db.transaction().execute(async (trx) => {
      // next_attempt_at is set exactly while a delivery is pending or retrying, so its index
      // is the queue; leased rows (at most the senders' concurrency) are skipped in the scan.
      let query = trx
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('next_attempt_at', '<=', input.now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', input.now)]))
        .orderBy('next_attempt_at')
        .limit(input.max * 2);
      // Groups at their limit are left out in SQL, so the backlog of one slow subscription,
      // receiver or key cannot fill the window and starve the deliveries of others.
      const { subscriptions, owners, receivers } = input.full;
      if (subscriptions.length > 0) query = query.where('subscription_id', 'not in', subscriptions);
      if (owners.length > 0) query = query.where('owner_id', 'not in', owners);
      if (receivers.length > 0) query = query.where('receiver', 'not in', receivers);
      if (this.dialect === 'postgres') query = query.forUpdate().skipLocked();
      const due = input.choose((await query.execute()).map(withReceiver), input.max);
      if (due.length === 0) return [];
      const subIds = [...new Set(due.map((d) => d.subscription_id))];
      const subs = await subscriptionsById(trx, subIds);

      const fresh: DueDelivery[] = [];
      const resumed: Array<{ row: DueDelivery; attemptNumber: number }> = [];
      for (const d of due) {
        const sub = subs.get(d.subscription_id);
        if (!sub) continue;
        if (!sub.isActive) {
          // An inactive subscription receives nothing (docs/webhooks.md, "Subscriptions"), not even what it had queued.
          await this.endInactive(trx, d, input.now);
          continue;
        }
        if (d.lease_owner === null) {
          fresh.push(d);
          continue;
        }
        const interrupted = await this.logInterrupted(trx, d, input.now);
        if (hasRetryLeft(interrupted, sub.maxRetries)) resumed.push({ row: d, attemptNumber: interrupted + 1 });
        else await this.failInterrupted(trx, d, interrupted, input.now);
      }

      const leaseUntil = new Date(Date.parse(input.now) + input.leaseMs).toISOString();
      const lease = { lease_owner: input.owner, lease_until: leaseUntil, attempt_started_at: input.now };
      if (fresh.length > 0) {
        await trx
          .updateTable('webhook_deliveries')
          .set((eb) => ({ ...lease, attempt_number: eb('attempt_number', '+', 1) }))
          .where(
            'id',
            'in',
            fresh.map((d) => d.id),
          )
          .execute();
      }
      for (const r of resumed) {
        await trx
          .updateTable('webhook_deliveries')
          .set({ ...lease, attempt_number: r.attemptNumber })
          .where('id', '=', r.row.id)
          .execute();
      }
      const claimed: ClaimedDelivery[] = [];
      const started = [...fresh.map((row) => ({ row, attemptNumber: row.attempt_number + 1 })), ...resumed];
      for (const { row, attemptNumber } of started) {
        const subscription = subs.get(row.subscription_id);
        if (subscription) claimed.push({ delivery: { ...row, ...lease, attempt_number: attemptNumber }, subscription });
      }
      return claimed;
    });
  }

  /** Logs the attempt a dead sender left unfinished; returns its number. */
  private async logInterrupted(trx: Transaction<Database>, d: DeliveryRow, now: string): Promise<number> {
    // A lease taken before migration 0007 had not counted its attempt yet.
    const attemptNumber = d.attempt_started_at === null ? d.attempt_number + 1 : d.attempt_number;
    const startedAt = d.attempt_started_at ?? d.lease_until ?? now;
    await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: d.id,
        attempt_number: attemptNumber,
        started_at: startedAt,
        response_status: null,
        // Until the takeover: when the sender died is not known.
        duration_ms: Math.max(0, Date.parse(now) - Date.parse(startedAt)),
        error_code: INTERRUPTED,
        error_message:
          'The sender stopped before this attempt finished (its lease ran out); the receiver may or may not have received it',
        response_body: null,
      })
      .execute();
    return attemptNumber;
  }

  private async endInactive(trx: Transaction<Database>, d: DeliveryRow, now: string): Promise<void> {
    await trx
      .updateTable('webhook_deliveries')
      .set({
        status: 'failed',
        next_attempt_at: null,
        lease_owner: null,
        lease_until: null,
        attempt_started_at: null,
        error_code: SUBSCRIPTION_INACTIVE,
        error_message:
          'The subscription was deactivated before this delivery was sent; replay it once the subscription is active again',
        finished_at: now,
      })
      .where('id', '=', d.id)
      .execute();
  }

  private async failInterrupted(
    trx: Transaction<Database>,
    d: DeliveryRow,
    attemptNumber: number,
    now: string,
  ): Promise<void> {
    await trx
      .updateTable('webhook_deliveries')
      .set({
        status: 'failed',
        attempt_number: attemptNumber,
        next_attempt_at: null,
        lease_owner: null,
        lease_until: null,
        attempt_started_at: null,
        response_status: null,
        response_duration_ms: null,
        error_code: INTERRUPTED,
        error_message: `The last attempt (${attemptNumber}) was interrupted and no retry is left`,
        finished_at: now,
      })
      .where('id', '=', d.id)
      .execute();
    await countFinalDelivery(trx, d.subscription_id, d.is_test === 1, 'failed', now);
  }

  /** Extends the leases `owner` holds: a live sender's heartbeat. */
  async renewLeases(owner: string, ids: readonly string[], until: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('webhook_deliveries')
      .set({ lease_until: until })
      .where('lease_owner', '=', owner)
      .where('id', 'in', [...ids])
      .where('status', 'in', ['pending', 'retrying'])
      .execute();
  }

  /**
   * Records one attempt and its consequences atomically: the attempt log, the delivery's
   * state, and (for a final outcome) the subscription's counters and auto-disable.
   * Ignored when the lease was lost (another sender took the delivery over).
   */
  async recordAttempt(a: AttemptRecord): Promise<'recorded' | 'ignored'> {
    return this.db.transaction().execute((trx) => this.recordIn(trx, a));
  }

  /**
   * Records several attempts in one transaction (group commit): at hundreds of deliveries a
   * second, one commit per attempt is most of the store's work.
   */
  async recordAttempts(batch: AttemptRecord[]): Promise<Array<'recorded' | 'ignored'>> {
    return this.db.transaction().execute(async (trx) => {
      const results: Array<'recorded' | 'ignored'> = [];
      for (const a of batch) results.push(await this.recordIn(trx, a));
      return results;
    });
  }

  // Three statements per attempt (a conditional update that returns what it needs, the attempt
  // row, and arithmetic on the counters): at hundreds of deliveries a second this is the cost.
  private async recordIn(trx: Transaction<Database>, a: AttemptRecord): Promise<'recorded' | 'ignored'> {
    const status: DeliveryStatus = a.result === 'retry' ? 'retrying' : a.result;
    const delivery = await trx
      .updateTable('webhook_deliveries')
      .set({
        status,
        attempt_number: a.attemptNumber,
        next_attempt_at: a.result === 'retry' ? (a.nextAttemptAt ?? a.finishedAt) : null,
        lease_owner: null,
        lease_until: null,
        attempt_started_at: null,
        response_status: a.statusCode ?? null,
        response_duration_ms: a.durationMs,
        error_code: a.result === 'delivered' ? null : (a.errorCode ?? null),
        error_message: a.result === 'delivered' ? null : (a.errorMessage ?? null),
        delivered_at: a.result === 'delivered' ? a.finishedAt : null,
        finished_at: a.result === 'retry' ? null : a.finishedAt,
      })
      .where('id', '=', a.deliveryId)
      // Only the sender that holds the lease, for the attempt it started, may record: a sender
      // that lost the lease (or is late for an attempt since taken over) changes nothing.
      .where('lease_owner', '=', a.leaseOwner)
      .where('attempt_number', '=', a.attemptNumber)
      .where('status', 'in', ['pending', 'retrying'])
      .returning(['subscription_id', 'is_test'])
      .executeTakeFirst();
    if (!delivery) return 'ignored';
    await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: a.deliveryId,
        attempt_number: a.attemptNumber,
        started_at: a.startedAt,
        response_status: a.statusCode ?? null,
        duration_ms: a.durationMs,
        error_code: a.errorCode ?? null,
        error_message: a.errorMessage ?? null,
        response_body: a.responseBody ?? null,
      })
      .execute();
    if (a.result !== 'retry')
      await countFinalDelivery(trx, delivery.subscription_id, delivery.is_test === 1, a.result, a.finishedAt);
    return 'recorded';
  }

  async find(subscriptionId: string, id: string): Promise<DeliveryRow | undefined> {
    return this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .where('subscription_id', '=', subscriptionId)
      .executeTakeFirst();
  }

  async attempts(deliveryId: string): Promise<AttemptRow[]> {
    return this.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', '=', deliveryId)
      .orderBy('attempt_number')
      .execute();
  }

  async list(
    subscriptionId: string,
    q: { limit: number; offset: number; status?: string; from?: string; to?: string },
  ): Promise<DeliveryRow[]> {
    let query = this.db.selectFrom('webhook_deliveries').selectAll().where('subscription_id', '=', subscriptionId);
    if (q.status) query = query.where('status', '=', q.status);
    if (q.from) query = query.where('created_at', '>=', q.from);
    if (q.to) query = query.where('created_at', '<=', q.to);
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute();
  }
}

/**
 * Deletes a subscription's deliveries and their attempts. Pass the transaction that deletes the
 * subscription: the subscription and its history go together or not at all.
 */
/** The deliveries made of the events named, newest first. */
export async function deliveriesOfEvents(db: Kysely<Database>, eventIds: readonly string[]): Promise<DeliveryRow[]> {
  if (eventIds.length === 0) return [];
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('event_id', 'in', [...eventIds])
    .orderBy('created_at', 'desc')
    .execute();
}

export async function deleteDeliveriesOfSubscription(
  db: Kysely<Database> | Transaction<Database>,
  subscriptionId: string,
): Promise<void> {
  const deliveries = db.selectFrom('webhook_deliveries').select('id').where('subscription_id', '=', subscriptionId);
  await db.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries).execute();
  await db.deleteFrom('webhook_deliveries').where('subscription_id', '=', subscriptionId).execute();
}

function newDelivery(input: {
  sub: Subscription;
  eventId: string | null;
  eventType: string;
  body: string;
  now: string;
  isTest?: boolean;
  replayOf?: string;
}): DeliveryRow {
  const tooLarge = Buffer.byteLength(input.body, 'utf8') > WEBHOOK_PAYLOAD_MAX_BYTES;
  return {
    id: randomUUID(),
    subscription_id: input.sub.id,
    owner_id: input.sub.ownerId,
    event_id: input.eventId,
    event_type: input.eventType,
    // An oversized payload is kept out of the store; its delivery fails at once with the reason.
    payload: tooLarge ? '{}' : input.body,
    status: tooLarge ? 'failed' : 'pending',
    attempt_number: 0,
    next_attempt_at: tooLarge ? null : input.now,
    lease_owner: null,
    lease_until: null,
    request_url: input.sub.webhookUrl,
    response_status: null,
    response_duration_ms: null,
    error_message: tooLarge ? `The payload exceeds ${WEBHOOK_PAYLOAD_MAX_BYTES} bytes` : null,
    error_code: tooLarge ? 'PAYLOAD_TOO_LARGE' : null,
    is_test: input.isTest ? 1 : 0,
    replay_of: input.replayOf ?? null,
    created_at: input.now,
    delivered_at: null,
    finished_at: tooLarge ? input.now : null,
    receiver: receiverOf(input.sub.webhookUrl),
    attempt_started_at: null,
  };
}
