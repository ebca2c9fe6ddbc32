// The webhook.test event: the body of a test delivery (POST /v1/webhooks/{id}/test); not recorded in the outbox.
import type { DomainEvent } from '../events/domain-event.js';

export type WebhookTestPayload = { message: string; timestamp: string; webhook_id: string };

export const webhookEvents = {
  'webhook.test': (
    subscription: { id: string; ownerId: string },
    at: string,
  ): DomainEvent<'webhook.test', WebhookTestPayload> => ({
    type: 'webhook.test',
    ownerId: subscription.ownerId,
    subjectId: subscription.id,
    createdAt: at,
    payload: { message: 'This is a test delivery from the crawl service', timestamp: at, webhook_id: subscription.id },
  }),
};
