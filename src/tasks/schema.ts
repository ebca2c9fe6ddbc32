// Request schemas of scheduled tasks (docs/api.md, "Scheduled tasks") and of each task type's payload.
import { z } from 'zod';
import { crawlRequestSchema, DEFAULT_CRAWL_LIMIT } from '../crawl/schema.js';
import { ENGINES, httpUrl, pageOptionsShape } from '../scrape/schema.js';
import { searchRequestSchema } from '../search/schema.js';
import type { ValidationIssue } from '../domain/errors.js';
import { templateIdOf } from '../templates/task-payload.js';
import { toValidationIssues } from '../domain/zod-issues.js';
import { isValidTimeZone, validateCron } from './cron/index.js';

export const TASK_TYPES = ['scrape', 'crawl', 'search', 'template'] as const;
/** The task type of a monitor's scheduled task (docs/monitors.md): made and changed only through /v1/monitors. */
export const MONITOR_TASK_TYPE = 'monitor';
export type TaskType = (typeof TASK_TYPES)[number];
/**
 * The most a task's task_payload may be (100 KB, docs/api.md), counted as the length of its JSON
 * in UTF-16 code units (a byte per character for ASCII). Not the limit of a webhook delivery's
 * body, WEBHOOK_PAYLOAD_MAX_BYTES.
 */
export const TASK_PAYLOAD_MAX_BYTES = 100 * 1024;

/** Payload of each task type; unknown fields are refused like everywhere else. */
export const payloadSchemas: Record<TaskType, z.ZodType> = {
  scrape: z.strictObject({ url: httpUrl, engine: z.enum(ENGINES).optional(), ...pageOptionsShape }),
  crawl: z.strictObject({
    url: httpUrl,
    engine: z.enum(ENGINES).optional(),
    options: crawlRequestSchema.omit({ url: true, engine: true }).optional(),
  }),
  // A search request as POST /v1/search takes it (the contract's query, engine, limit, country, lang, timeRange and the
  // rest of AnyCrawl's fields).
  search: searchRequestSchema,
  template: z.strictObject({
    template_id: z.string().min(1).max(255),
    url: httpUrl.optional(),
    query: z.string().max(2000).optional(),
    variables: z.record(z.string(), z.unknown()).optional(),
  }),
};

const cron = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const issue = validateCron(value);
    if (issue) ctx.addIssue({ code: 'custom', message: issue.message });
  });
const timezone = z
  .string()
  .refine((zone) => isValidTimeZone(zone), { message: 'Not a known IANA time zone (e.g. Europe/Berlin or UTC)' });

/** The fields of a task request; monitors take the schedule fields as they are. */
export const taskFields = {
  name: z.string().trim().min(1).max(255),
  description: z.string().max(10_000).nullable(),
  cron_expression: cron,
  timezone,
  task_type: z.enum(TASK_TYPES),
  task_payload: z.record(z.string(), z.unknown()),
  concurrency_mode: z.enum(['skip', 'queue']),
  max_executions_per_day: z.number().int().min(1).max(1440).nullable(),
  webhook_ids: z.array(z.uuid()).max(50),
  webhook_url: z.string().trim().min(1).max(2048),
  tags: z.array(z.string().max(100)).max(50),
  metadata: z.record(z.string(), z.unknown()),
};

/** Checks task_payload against task_type and the size limit, reporting under `task_payload`. */
export function payloadIssues(type: TaskType, payload: unknown): ValidationIssue[] {
  if (JSON.stringify(payload).length > TASK_PAYLOAD_MAX_BYTES) {
    return [
      {
        field: 'task_payload',
        code: 'too_big',
        message: `task_payload must be at most ${TASK_PAYLOAD_MAX_BYTES / 1024} KB`,
      },
    ];
  }
  // A payload that names a template is checked once expanded, against the operation's own request schema (a template
  // may preset the url or query the plain payload requires).
  if (type !== 'template' && templateIdOf(type, payload) !== undefined) return [];
  const result = payloadSchemas[type].safeParse(payload);
  if (result.success) return [];
  return toValidationIssues(result.error.issues.map((i) => ({ ...i, path: ['task_payload', ...i.path] })));
}

export const createTaskSchema = z
  .strictObject({
    name: taskFields.name,
    description: taskFields.description.optional(),
    cron_expression: taskFields.cron_expression,
    timezone: taskFields.timezone.optional(),
    task_type: taskFields.task_type,
    task_payload: taskFields.task_payload,
    concurrency_mode: taskFields.concurrency_mode.optional(),
    max_executions_per_day: taskFields.max_executions_per_day.optional(),
    webhook_ids: taskFields.webhook_ids.optional(),
    webhook_url: taskFields.webhook_url.optional(),
    tags: taskFields.tags.optional(),
    metadata: taskFields.metadata.optional(),
  })
  .meta({ id: 'ScheduledTaskCreate' });
export type CreateTaskBody = z.infer<typeof createTaskSchema>;

/** Any subset of the writable fields; webhook_url only at creation (it creates the subscription). */
export const updateTaskSchema = createTaskSchema
  .omit({ webhook_url: true })
  .partial()
  .meta({ id: 'ScheduledTaskUpdate' });
export type UpdateTaskBody = z.infer<typeof updateTaskSchema>;

export const pauseSchema = z.strictObject({ reason: z.string().max(1000).optional() }).optional();

export const executionsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});

/** Estimated minimum credits of one execution (docs/api.md, "Fields": min_credits_required). */
export function minCreditsRequired(type: TaskType, payload: Record<string, unknown>): number {
  switch (type) {
    case 'scrape':
      return 1;
    case 'crawl':
      return Number((payload.options as { limit?: number } | undefined)?.limit ?? DEFAULT_CRAWL_LIMIT);
    case 'search':
      return Number(payload.limit ?? 10);
    case 'template':
      return 1;
  }
}
