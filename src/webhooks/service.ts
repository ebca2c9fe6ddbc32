// Webhook subscription operations behind the routes: CRUD, activation, test, replay and history.
import { randomUUID } from 'node:crypto';
import { ConflictError, InvalidInputError, NotFoundError } from '../domain/errors.js';
import type { Clock } from '../util/time.js';
import type { DeliveryStore } from './delivery-store.js';
import type { CreateWebhookBody, DeliveriesQuery, UpdateWebhookBody } from './schema.js';
import { validateWebhookUrl } from './sender.js';
import { generateWebhookSecret } from './signing.js';
import type { Subscription, SubscriptionFields, SubscriptionStore } from './subscription-store.js';
import type { TestRateLimit } from './test-rate-limit.js';
import { attemptRecord, deliveryRecord, subscriptionDetail, subscriptionListItem } from './views.js';
import { webhookEvents } from './events.js';

export interface WebhookServiceDeps {
  subscriptions: SubscriptionStore;
  deliveries: DeliveryStore;
  clock: Clock;
  allowPrivateAddresses: boolean;
  /** The rate limit of test deliveries; none when absent. */
  testLimit?: TestRateLimit;
  /** Wakes the dispatcher after a test or replay. */
  onDeliveryQueued?: () => void;
}

/** A date-only `to` covers that whole day. */
function toBound(value: string | undefined, endOfDay: boolean): string | undefined {
  if (value === undefined) return undefined;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const date = new Date(dateOnly ? `${value}T00:00:00.000Z` : value);
  if (dateOnly && endOfDay) return new Date(date.getTime() + 86_400_000 - 1).toISOString();
  return date.toISOString();
}

export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  private checkUrl(url: string): void {
    const verdict = validateWebhookUrl(url, this.deps.allowPrivateAddresses);
    if (!verdict.ok) throw new InvalidInputError([{ field: 'webhook_url', code: 'custom', message: verdict.message }]);
  }

  private async subscription(ownerId: string, id: string): Promise<Subscription> {
    const sub = await this.deps.subscriptions.find(ownerId, id);
    if (!sub) throw new NotFoundError('webhook');
    return sub;
  }

  /** An inactive subscription receives nothing, asked for or not. */
  private async activeSubscription(ownerId: string, id: string, what: string): Promise<Subscription> {
    const sub = await this.subscription(ownerId, id);
    if (!sub.isActive)
      throw new ConflictError(
        'Subscription inactive',
        `The subscription is inactive${sub.disabledReason ? ` (${sub.disabledReason})` : ''}; activate it before ${what}`,
      );
    return sub;
  }

  async create(
    ownerId: string,
    body: CreateWebhookBody,
    options: { taskId?: string } = {},
  ): Promise<{ webhook_id: string; secret: string; message: string }> {
    this.checkUrl(body.webhook_url);
    const fields: SubscriptionFields = {
      name: body.name,
      description: body.description ?? null,
      webhookUrl: body.webhook_url,
      eventTypes: body.event_types,
      scope: body.scope ?? 'all',
      specificTaskIds: body.specific_task_ids ?? null,
      timeoutSeconds: body.timeout_seconds ?? 10,
      maxRetries: body.max_retries ?? 3,
      retryBackoffMultiplier: body.retry_backoff_multiplier ?? 2,
      customHeaders: body.custom_headers ?? null,
      tags: body.tags ?? null,
      metadata: body.metadata ?? null,
    };
    const id = randomUUID();
    const secret = generateWebhookSecret();
    await this.deps.subscriptions.insert({
      id,
      ownerId,
      secret,
      fields,
      taskId: options.taskId,
      now: this.deps.clock().toISOString(),
    });
    return {
      webhook_id: id,
      secret,
      message: 'Webhook subscription created; store the secret now, it is not shown again',
    };
  }

  async list(ownerId: string) {
    return (await this.deps.subscriptions.list(ownerId)).map(subscriptionListItem);
  }

  async get(ownerId: string, id: string) {
    return subscriptionDetail(await this.subscription(ownerId, id));
  }

  async update(ownerId: string, id: string, body: UpdateWebhookBody) {
    const current = await this.subscription(ownerId, id);
    if (body.webhook_url !== undefined) this.checkUrl(body.webhook_url);
    const scope = body.scope ?? current.scope;
    const taskIds = body.specific_task_ids ?? current.specificTaskIds ?? [];
    if (scope === 'specific' && taskIds.length === 0) {
      throw new InvalidInputError([
        { field: 'specific_task_ids', code: 'custom', message: 'Required when scope is "specific"' },
      ]);
    }
    const changes: Partial<SubscriptionFields> = {};
    if (body.name !== undefined) changes.name = body.name;
    if (body.description !== undefined) changes.description = body.description;
    if (body.webhook_url !== undefined) changes.webhookUrl = body.webhook_url;
    if (body.event_types !== undefined) changes.eventTypes = body.event_types;
    if (body.scope !== undefined) changes.scope = body.scope;
    if (body.specific_task_ids !== undefined) changes.specificTaskIds = body.specific_task_ids;
    if (body.timeout_seconds !== undefined) changes.timeoutSeconds = body.timeout_seconds;
    if (body.max_retries !== undefined) changes.maxRetries = body.max_retries;
    if (body.retry_backoff_multiplier !== undefined) changes.retryBackoffMultiplier = body.retry_backoff_multiplier;
    if (body.custom_headers !== undefined) changes.customHeaders = body.custom_headers;
    if (body.tags !== undefined) changes.tags = body.tags;
    if (body.metadata !== undefined) changes.metadata = body.metadata;
    await this.deps.subscriptions.update(ownerId, id, changes, this.deps.clock().toISOString());
    return this.get(ownerId, id);
  }

  async remove(ownerId: string, id: string): Promise<void> {
    if (!(await this.deps.deliveries.deleteSubscription(ownerId, id))) throw new NotFoundError('webhook');
  }

  /** Deletes a subscription if it is there (a task's own subscription, when the task goes). */
  async discard(ownerId: string, id: string): Promise<void> {
    await this.deps.deliveries.deleteSubscription(ownerId, id);
  }

  async setActive(ownerId: string, id: string, active: boolean): Promise<{ uuid: string; is_active: boolean }> {
    if (!(await this.deps.subscriptions.setActive(ownerId, id, active, this.deps.clock().toISOString())))
      throw new NotFoundError('webhook');
    return { uuid: id, is_active: active };
  }

  async test(ownerId: string, id: string): Promise<{ delivery_id: string }> {
    const sub = await this.activeSubscription(ownerId, id, 'sending a test delivery');
    const clock = this.deps.clock();
    this.deps.testLimit?.check(ownerId, sub.id, clock.getTime());
    const now = clock.toISOString();
    const event = webhookEvents['webhook.test'](sub, now);
    const deliveryId = await this.deps.deliveries.insertDirect({
      sub,
      eventType: event.type,
      body: JSON.stringify(event.payload),
      now,
      isTest: true,
    });
    this.deps.onDeliveryQueued?.();
    return { delivery_id: deliveryId };
  }

  async replay(ownerId: string, id: string, deliveryId: string): Promise<{ delivery_id: string; status: 'pending' }> {
    const sub = await this.activeSubscription(ownerId, id, 'replaying a delivery');
    const original = await this.deps.deliveries.find(sub.id, deliveryId);
    if (!original) throw new NotFoundError('delivery');
    if (original.status !== 'failed')
      throw new ConflictError(
        'Delivery not failed',
        `Only failed deliveries can be replayed; this one is ${original.status}`,
      );
    const newId = await this.deps.deliveries.insertDirect({
      sub,
      eventType: original.event_type,
      body: original.payload,
      now: this.deps.clock().toISOString(),
      isTest: original.is_test === 1,
      replayOf: original.id,
    });
    this.deps.onDeliveryQueued?.();
    return { delivery_id: newId, status: 'pending' };
  }

  async deliveries(ownerId: string, id: string, query: DeliveriesQuery) {
    const sub = await this.subscription(ownerId, id);
    const limit = query.limit ?? 100;
    const offset = query.offset ?? 0;
    const rows = await this.deps.deliveries.list(sub.id, {
      limit,
      offset,
      status: query.status,
      from: toBound(query.from, false),
      to: toBound(query.to, true),
    });
    return {
      success: true,
      data: rows.map(deliveryRecord),
      meta: {
        limit,
        offset,
        filters: { status: query.status ?? null, from: query.from ?? null, to: query.to ?? null },
      },
    };
  }

  async delivery(ownerId: string, id: string, deliveryId: string) {
    const sub = await this.subscription(ownerId, id);
    const row = await this.deps.deliveries.find(sub.id, deliveryId);
    if (!row) throw new NotFoundError('delivery');
    const attempts = await this.deps.deliveries.attempts(row.id);
    return {
      ...deliveryRecord(row),
      payload: JSON.parse(row.payload) as unknown,
      attempts: attempts.map(attemptRecord),
    };
  }
}
