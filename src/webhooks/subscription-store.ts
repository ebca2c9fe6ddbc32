// Webhook subscriptions in the store: rows <-> the API's subscription objects, scoped to their owner,
// and the reads and counters the delivery engine needs inside its own transactions.
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { Database, WebhookSubscriptionTable } from '../store/schema.js';

export type SubscriptionRow = WebhookSubscriptionTable;

/** The store itself, or a transaction a caller holds the subscription rows' reads and writes in. */
type Executor = Kysely<Database> | Transaction<Database>;

/**
 * After this many consecutive failed deliveries a subscription is disabled (docs/webhooks.md, "Outcomes, retries,
 * auto-disable").
 */
export const AUTO_DISABLE_AFTER = 10;

/** A stored subscription: its writable fields plus identity, state and counters. */
export interface Subscription extends SubscriptionFields {
  id: string;
  ownerId: string;
  secret: string;
  taskId: string | null;
  isActive: boolean;
  disabledReason: string | null;
  consecutiveFailures: number;
  totalDeliveries: number;
  successfulDeliveries: number;
  failedDeliveries: number;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));
const text = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

export function fromRow(r: SubscriptionRow): Subscription {
  return {
    id: r.id,
    ownerId: r.owner_id,
    name: r.name,
    description: r.description,
    webhookUrl: r.webhook_url,
    secret: r.secret,
    eventTypes: json<string[]>(r.event_types) ?? [],
    scope: r.scope === 'specific' ? 'specific' : 'all',
    specificTaskIds: json<string[]>(r.specific_task_ids),
    timeoutSeconds: r.timeout_seconds,
    maxRetries: r.max_retries,
    retryBackoffMultiplier: Number(r.retry_backoff_multiplier),
    customHeaders: json<Record<string, string>>(r.custom_headers),
    tags: json<string[]>(r.tags),
    metadata: json<Record<string, unknown>>(r.metadata),
    taskId: r.task_id,
    isActive: r.is_active === 1,
    disabledReason: r.disabled_reason,
    consecutiveFailures: r.consecutive_failures,
    totalDeliveries: r.total_deliveries,
    successfulDeliveries: r.successful_deliveries,
    failedDeliveries: r.failed_deliveries,
    lastSuccessAt: r.last_success_at,
    lastFailureAt: r.last_failure_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The writable part of a subscription, as stored. */
export interface SubscriptionFields {
  name: string;
  description: string | null;
  webhookUrl: string;
  eventTypes: string[];
  scope: 'all' | 'specific';
  specificTaskIds: string[] | null;
  timeoutSeconds: number;
  maxRetries: number;
  retryBackoffMultiplier: number;
  customHeaders: Record<string, string> | null;
  tags: string[] | null;
  metadata: Record<string, unknown> | null;
}

function toColumns(fields: Partial<SubscriptionFields>): Updateable<WebhookSubscriptionTable> {
  const out: Updateable<WebhookSubscriptionTable> = {};
  if (fields.name !== undefined) out.name = fields.name;
  if (fields.description !== undefined) out.description = fields.description;
  if (fields.webhookUrl !== undefined) out.webhook_url = fields.webhookUrl;
  if (fields.eventTypes !== undefined) out.event_types = JSON.stringify(fields.eventTypes);
  if (fields.scope !== undefined) out.scope = fields.scope;
  if (fields.specificTaskIds !== undefined) out.specific_task_ids = text(fields.specificTaskIds);
  if (fields.timeoutSeconds !== undefined) out.timeout_seconds = fields.timeoutSeconds;
  if (fields.maxRetries !== undefined) out.max_retries = fields.maxRetries;
  if (fields.retryBackoffMultiplier !== undefined) out.retry_backoff_multiplier = fields.retryBackoffMultiplier;
  if (fields.customHeaders !== undefined) out.custom_headers = text(fields.customHeaders);
  if (fields.tags !== undefined) out.tags = text(fields.tags);
  if (fields.metadata !== undefined) out.metadata = text(fields.metadata);
  return out;
}

export class SubscriptionStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(input: {
    id: string;
    ownerId: string;
    secret: string;
    fields: SubscriptionFields;
    taskId?: string | null;
    now: string;
  }): Promise<void> {
    const f = input.fields;
    await this.db
      .insertInto('webhook_subscriptions')
      .values({
        id: input.id,
        owner_id: input.ownerId,
        name: f.name,
        description: f.description,
        webhook_url: f.webhookUrl,
        secret: input.secret,
        event_types: JSON.stringify(f.eventTypes),
        scope: f.scope,
        specific_task_ids: text(f.specificTaskIds),
        timeout_seconds: f.timeoutSeconds,
        max_retries: f.maxRetries,
        retry_backoff_multiplier: f.retryBackoffMultiplier,
        custom_headers: text(f.customHeaders),
        tags: text(f.tags),
        metadata: text(f.metadata),
        task_id: input.taskId ?? null,
        is_active: 1,
        disabled_reason: null,
        consecutive_failures: 0,
        total_deliveries: 0,
        successful_deliveries: 0,
        failed_deliveries: 0,
        last_success_at: null,
        last_failure_at: null,
        created_at: input.now,
        updated_at: input.now,
      })
      .execute();
  }

  async list(ownerId: string): Promise<Subscription[]> {
    const rows = await this.db
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(fromRow);
  }

  async find(ownerId: string, id: string): Promise<Subscription | undefined> {
    const row = await this.db
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async update(ownerId: string, id: string, fields: Partial<SubscriptionFields>, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('webhook_subscriptions')
      .set({ ...toColumns(fields), updated_at: now })
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Activation clears the failure streak and any automatic-disable reason. */
  async setActive(ownerId: string, id: string, active: boolean, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('webhook_subscriptions')
      .set(
        active
          ? { is_active: 1, consecutive_failures: 0, disabled_reason: null, updated_at: now }
          : { is_active: 0, disabled_reason: 'deactivated', updated_at: now },
      )
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Deletes the subscription with its whole delivery history. */
}

/**
 * Deletes the subscription's row; its deliveries go with it in the caller's transaction
 * (DeliveryStore.deleteSubscription).
 */
export async function deleteSubscriptionRow(db: Executor, ownerId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhook_subscriptions')
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** The active subscriptions of these owners: the ones their events fan out to. */
export async function activeSubscriptionsOf(db: Executor, ownerIds: readonly string[]): Promise<Subscription[]> {
  const rows = await db
    .selectFrom('webhook_subscriptions')
    .selectAll()
    .where('owner_id', 'in', ownerIds)
    .where('is_active', '=', 1)
    .execute();
  return rows.map(fromRow);
}

/** Subscriptions by id, active or not: a claim ends the queued deliveries of inactive ones. */
export async function subscriptionsById(db: Executor, ids: readonly string[]): Promise<Map<string, Subscription>> {
  const rows = await db.selectFrom('webhook_subscriptions').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, fromRow(r)]));
}

/**
 * Counts a delivery's final outcome on its subscription, and disables the subscription after
 * AUTO_DISABLE_AFTER failures in a row. Pass the transaction that records the outcome, so the
 * counters move exactly once per final delivery.
 */
export async function countFinalDelivery(
  db: Executor,
  subscriptionId: string,
  isTest: boolean,
  result: 'delivered' | 'failed',
  at: string,
): Promise<void> {
  const sub = await db
    .updateTable('webhook_subscriptions')
    .set((eb) => ({
      total_deliveries: eb('total_deliveries', '+', 1),
      successful_deliveries: eb('successful_deliveries', '+', result === 'delivered' ? 1 : 0),
      failed_deliveries: eb('failed_deliveries', '+', result === 'failed' ? 1 : 0),
      // Test deliveries are recorded and counted, but never move the failure streak (docs/webhooks.md, "Outcomes,
      // retries, auto-disable").
      ...(isTest
        ? {}
        : { consecutive_failures: result === 'delivered' ? eb.lit(0) : eb('consecutive_failures', '+', 1) }),
      ...(result === 'delivered' ? { last_success_at: at } : { last_failure_at: at }),
    }))
    .where('id', '=', subscriptionId)
    .returning(['consecutive_failures', 'is_active'])
    .executeTakeFirst();
  if (sub && !isTest && result === 'failed' && sub.is_active === 1 && sub.consecutive_failures >= AUTO_DISABLE_AFTER) {
    await db
      .updateTable('webhook_subscriptions')
      .set({
        is_active: 0,
        disabled_reason: `disabled after ${AUTO_DISABLE_AFTER} consecutive failed deliveries`,
        updated_at: at,
      })
      .where('id', '=', subscriptionId)
      .execute();
  }
}
