// How subscriptions and deliveries look in API answers; secrets are never shown after creation.
import type { AttemptRow, DeliveryRow } from './delivery-store.js';
import type { Subscription } from './subscription-store.js';

export const HIDDEN = '***hidden***';

/** The list shape of GET /v1/webhooks (docs/webhooks.md, "Subscriptions"). */
export function subscriptionListItem(s: Subscription) {
  return {
    uuid: s.id,
    name: s.name,
    webhook_url: s.webhookUrl,
    webhook_secret: HIDDEN,
    event_types: s.eventTypes,
    scope: s.scope,
    is_active: s.isActive,
    consecutive_failures: s.consecutiveFailures,
    total_deliveries: s.totalDeliveries,
    successful_deliveries: s.successfulDeliveries,
    failed_deliveries: s.failedDeliveries,
    last_success_at: s.lastSuccessAt,
    last_failure_at: s.lastFailureAt,
    created_at: s.createdAt,
  };
}

/** The full subscription; custom header values may be credentials, so only their names show. */
export function subscriptionDetail(s: Subscription) {
  return {
    ...subscriptionListItem(s),
    description: s.description,
    specific_task_ids: s.specificTaskIds,
    timeout_seconds: s.timeoutSeconds,
    max_retries: s.maxRetries,
    retry_backoff_multiplier: s.retryBackoffMultiplier,
    custom_headers:
      s.customHeaders === null ? null : Object.fromEntries(Object.keys(s.customHeaders).map((k) => [k, HIDDEN])),
    tags: s.tags,
    metadata: s.metadata,
    disabled_reason: s.disabledReason,
    updated_at: s.updatedAt,
  };
}

/** A delivery record (docs/webhooks.md, "History, test and replay"): failed records omit the response fields. */
export function deliveryRecord(d: DeliveryRow) {
  const record: Record<string, unknown> = {
    uuid: d.id,
    webhookSubscriptionUuid: d.subscription_id,
    eventType: d.event_type,
    status: d.status,
    attempt_number: d.attempt_number,
    request_url: d.request_url,
    request_method: 'POST',
    created_at: d.created_at,
    delivered_at: d.delivered_at,
  };
  if (d.status === 'failed') {
    record.error_message = d.error_message;
    record.error_code = d.error_code;
  } else {
    record.response_status = d.response_status;
    record.response_duration_ms = d.response_duration_ms;
    if (d.status === 'retrying') {
      record.error_message = d.error_message;
      record.error_code = d.error_code;
      record.next_attempt_at = d.next_attempt_at;
    }
  }
  return record;
}

export function attemptRecord(a: AttemptRow) {
  return {
    attempt_number: a.attempt_number,
    started_at: a.started_at,
    response_status: a.response_status,
    duration_ms: a.duration_ms,
    error_code: a.error_code,
    error_message: a.error_message,
    response_body: a.response_body,
  };
}
