// The webhook routes: subscriptions, their deliveries, test, replay, activation, and the event catalogue.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ownerOf } from '../http/auth.js';
import { uuidParam } from '../http/errors.js';
import { eventCatalogue } from '../events/catalogue.js';
import {
  type CreateWebhookBody,
  createWebhookSchema,
  type DeliveriesQuery,
  deliveriesQuerySchema,
  type UpdateWebhookBody,
  updateWebhookSchema,
} from './schema.js';
import type { WebhookService } from './service.js';

type Params = { webhookId: string; deliveryId?: string };

function webhookIdOf(request: FastifyRequest<{ Params: Params }>): string {
  return uuidParam(request.params.webhookId, 'webhook');
}

function deliveryIdOf(request: FastifyRequest<{ Params: Params }>): string {
  return uuidParam(request.params.deliveryId, 'delivery');
}

export function webhookRoutes(service: WebhookService) {
  return (app: FastifyInstance): void => {
    const tags = ['webhooks'];
    app.get('/v1/webhook-events', { schema: { tags, summary: 'The events a subscription can receive' } }, async () => ({
      success: true,
      data: eventCatalogue(),
    }));

    app.post<{ Body: CreateWebhookBody }>(
      '/v1/webhooks',
      { schema: { tags, summary: 'Create a subscription', body: createWebhookSchema } },
      async (request, reply) => {
        const data = await service.create(ownerOf(request), request.body);
        return reply.status(201).send({ success: true, data });
      },
    );

    app.get('/v1/webhooks', { schema: { tags, summary: 'List subscriptions (secrets hidden)' } }, async (request) => ({
      success: true,
      data: await service.list(ownerOf(request)),
    }));

    app.get<{ Params: Params }>(
      '/v1/webhooks/:webhookId',
      { schema: { tags, summary: 'One subscription' } },
      async (request) => ({
        success: true,
        data: await service.get(ownerOf(request), webhookIdOf(request)),
      }),
    );

    app.put<{ Params: Params; Body: UpdateWebhookBody }>(
      '/v1/webhooks/:webhookId',
      {
        schema: {
          tags,
          summary: 'Update a subscription (any subset of fields; not the secret)',
          body: updateWebhookSchema,
        },
      },
      async (request) => {
        const id = webhookIdOf(request);
        return { success: true, data: await service.update(ownerOf(request), id, request.body) };
      },
    );

    app.delete<{ Params: Params }>(
      '/v1/webhooks/:webhookId',
      { schema: { tags, summary: 'Delete a subscription and its delivery history' } },
      async (request) => {
        await service.remove(ownerOf(request), webhookIdOf(request));
        return { success: true, message: 'Webhook subscription deleted' };
      },
    );

    for (const [action, active] of [
      ['activate', true],
      ['deactivate', false],
    ] as const) {
      app.put<{ Params: Params }>(
        `/v1/webhooks/:webhookId/${action}`,
        { schema: { tags, summary: `${action} a subscription` } },
        async (request) => ({
          success: true,
          message: active ? 'Webhook subscription activated' : 'Webhook subscription deactivated',
          data: await service.setActive(ownerOf(request), webhookIdOf(request), active),
        }),
      );
    }

    // A refusal by the rate limit is a RateLimitedError: the error handler answers 429 with Retry-After.
    app.post<{ Params: Params }>(
      '/v1/webhooks/:webhookId/test',
      { schema: { tags, summary: 'Send a webhook.test delivery (rate limited)' } },
      async (request) => ({
        success: true,
        message: 'Test delivery queued',
        data: await service.test(ownerOf(request), webhookIdOf(request)),
      }),
    );

    app.get<{ Params: Params; Querystring: DeliveriesQuery }>(
      '/v1/webhooks/:webhookId/deliveries',
      { schema: { tags, summary: 'Delivery history, newest first', querystring: deliveriesQuerySchema } },
      async (request) => service.deliveries(ownerOf(request), webhookIdOf(request), request.query),
    );

    app.get<{ Params: Params }>(
      '/v1/webhooks/:webhookId/deliveries/:deliveryId',
      { schema: { tags, summary: 'One delivery with its attempts' } },
      async (request) => {
        const id = webhookIdOf(request);
        return { success: true, data: await service.delivery(ownerOf(request), id, deliveryIdOf(request)) };
      },
    );

    app.post<{ Params: Params }>(
      '/v1/webhooks/:webhookId/deliveries/:deliveryId/replay',
      { schema: { tags, summary: 'Send a failed delivery again, as a new delivery' } },
      async (request) => {
        const id = webhookIdOf(request);
        return {
          success: true,
          message: 'Delivery queued again',
          data: await service.replay(ownerOf(request), id, deliveryIdOf(request)),
        };
      },
    );
  };
}
