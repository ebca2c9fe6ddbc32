// Request schemas of the webhook routes (docs/webhooks.md, "Subscriptions").
import { z } from 'zod';
import { EVENT_NAMES } from '../events/catalogue.js';

export const MAX_CUSTOM_HEADERS = 20;
const HEADER_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers a subscription may not set: ours, and those that would corrupt the request. */
const RESERVED_HEADERS =
  /^(content-type|content-length|host|transfer-encoding|connection|user-agent|x-service-signature|x-webhook-.*|webhook-.*)$/i;

const eventTypes = z
  .array(
    z.string().refine((name) => EVENT_NAMES.has(name), { message: 'Unknown event type; see GET /v1/webhook-events' }),
  )
  .min(1)
  .max(EVENT_NAMES.size)
  .refine((list) => new Set(list).size === list.length, { message: 'Event types must not repeat' });

const customHeaders = z.record(z.string(), z.string().max(8192)).superRefine((headers, ctx) => {
  const names = Object.keys(headers);
  if (names.length > MAX_CUSTOM_HEADERS)
    ctx.addIssue({
      code: 'too_big',
      maximum: MAX_CUSTOM_HEADERS,
      origin: 'object',
      message: `At most ${MAX_CUSTOM_HEADERS} custom headers`,
    });
  for (const name of names) {
    if (!HEADER_TOKEN.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'Not a valid header name' });
    else if (RESERVED_HEADERS.test(name))
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `Header ${name} is set by the service and cannot be replaced`,
      });
    if (/[\r\n\0]/.test(headers[name] ?? ''))
      ctx.addIssue({ code: 'custom', path: [name], message: 'Header values must not contain CR, LF or NUL' });
  }
});

const fields = {
  name: z.string().trim().min(1).max(255),
  description: z.string().max(10_000).nullable(),
  webhook_url: z.string().trim().min(1).max(2048),
  event_types: eventTypes,
  scope: z.enum(['all', 'specific']),
  specific_task_ids: z.array(z.uuid()).max(1000),
  timeout_seconds: z.number().int().min(1).max(60),
  max_retries: z.number().int().min(0).max(10),
  retry_backoff_multiplier: z.number().min(1).max(10),
  custom_headers: customHeaders,
  tags: z.array(z.string().max(100)).max(50),
  metadata: z.record(z.string(), z.unknown()),
};

const webhookFields = z.strictObject({
  name: fields.name,
  description: fields.description.optional(),
  webhook_url: fields.webhook_url,
  event_types: fields.event_types,
  scope: fields.scope.optional(),
  specific_task_ids: fields.specific_task_ids.optional(),
  timeout_seconds: fields.timeout_seconds.optional(),
  max_retries: fields.max_retries.optional(),
  retry_backoff_multiplier: fields.retry_backoff_multiplier.optional(),
  custom_headers: fields.custom_headers.optional(),
  tags: fields.tags.optional(),
  metadata: fields.metadata.optional(),
});

export const createWebhookSchema = webhookFields
  .superRefine((body, ctx) => {
    if (body.scope === 'specific' && (body.specific_task_ids?.length ?? 0) === 0) {
      ctx.addIssue({ code: 'custom', path: ['specific_task_ids'], message: 'Required when scope is "specific"' });
    }
  })
  .meta({ id: 'WebhookCreate' });
export type CreateWebhookBody = z.infer<typeof createWebhookSchema>;

/** Any subset of the writable fields (the scope rule is checked against the stored subscription). */
export const updateWebhookSchema = webhookFields.partial().meta({ id: 'WebhookUpdate' });
export type UpdateWebhookBody = z.infer<typeof updateWebhookSchema>;

const isoDate = z
  .string()
  .refine((v) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)), {
    message: 'Must be an ISO 8601 date or date-time',
  });

export const deliveriesQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  status: z.enum(['delivered', 'failed', 'retrying', 'pending']).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
});
export type DeliveriesQuery = z.infer<typeof deliveriesQuerySchema>;
