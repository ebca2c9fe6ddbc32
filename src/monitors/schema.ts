// Request schemas of monitors (docs/monitors.md), in AnyCrawl's shapes (CreateMonitorRequest, UpdateMonitorRequest).
import { z } from 'zod';
import { ENGINES, httpUrl, pageOptionsShape, selectorList } from '../scrape/schema.js';
import { taskFields } from '../tasks/schema.js';

export const MONITOR_TYPES = ['webpage', 'price'] as const;
export type MonitorType = (typeof MONITOR_TYPES)[number];
export const TRACK_MODES = ['text', 'json', 'mixed'] as const;
export type TrackMode = (typeof TRACK_MODES)[number];

/**
 * The page options a target may set: how the page is fetched. What the check extracts (formats, json_options,
 * only_main_content, exclude_tags) is the monitor's to decide, from track_mode, extract_schema and diff_options.
 */
const targetOptions = z.strictObject({
  timeout: pageOptionsShape.timeout,
  wait_for: pageOptionsShape.wait_for,
  wait_until: pageOptionsShape.wait_until,
  wait_for_selector: pageOptionsShape.wait_for_selector,
  include_tags: pageOptionsShape.include_tags,
  proxy: pageOptionsShape.proxy,
  extract_source: pageOptionsShape.extract_source,
});
export type TargetOptions = z.infer<typeof targetOptions>;

const target = z.strictObject({
  url: httpUrl,
  engine: z.enum(ENGINES).optional(),
  options: targetOptions.optional(),
  // AnyCrawl's read-only legacy field: fixed-country routing is not offered.
  location: z
    .unknown()
    .optional()
    .refine((v) => v === undefined, { message: 'Fixed-country routing is not supported' }),
});
export type MonitorTarget = z.infer<typeof target>;

export const diffOptionsSchema = z.strictObject({
  /** CSS selectors whose elements are left out of the compared text (ads, clocks, "people are viewing" widgets). */
  ignore_selectors: selectorList.optional(),
  only_main_content: z.boolean().optional(),
  /** Share of the text (0–1) that must change for a change to be recorded; below it the check is `same`. */
  min_change_ratio: z.number().min(0).max(1).optional(),
});
export type DiffOptions = z.infer<typeof diffOptionsSchema>;

export const notifyOptionsSchema = z
  .strictObject({
    channels: z
      .array(z.enum(['webhook', 'email']))
      .max(2)
      .optional(),
    email_recipients: z.array(z.string().max(320)).max(50).optional(),
    only_meaningful: z.boolean().optional(),
    thresholds: z.strictObject({ price_change_pct: z.number().min(0).max(10_000).optional() }).optional(),
  })
  .superRefine((value, ctx) => {
    // Mail delivery is not built: refused rather than accepted and silently never sent.
    if (value.channels?.includes('email'))
      ctx.addIssue({
        code: 'custom',
        path: ['channels'],
        message: 'The email channel is not available: monitors notify through webhooks (docs/monitors.md)',
      });
    if ((value.email_recipients?.length ?? 0) > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['email_recipients'],
        message: 'The email channel is not available: monitors notify through webhooks (docs/monitors.md)',
      });
  });
export type NotifyOptions = z.infer<typeof notifyOptionsSchema>;

const extractSchema = z.record(z.string(), z.unknown());

const fields = {
  name: taskFields.name,
  description: taskFields.description,
  monitor_type: z.enum(MONITOR_TYPES),
  cron_expression: taskFields.cron_expression,
  timezone: taskFields.timezone,
  // One target per check (capabilities.targets_per_check).
  targets: z.array(target).length(1, { message: 'A monitor watches exactly one target' }),
  goal: z.string().max(2000),
  track_mode: z.enum(TRACK_MODES),
  extract_schema: extractSchema,
  diff_options: diffOptionsSchema,
  notify_options: notifyOptionsSchema,
  concurrency_mode: taskFields.concurrency_mode,
  max_executions_per_day: taskFields.max_executions_per_day,
  tags: taskFields.tags,
  metadata: taskFields.metadata,
};

export const createMonitorSchema = z
  .strictObject({
    name: fields.name,
    description: fields.description.optional(),
    monitor_type: fields.monitor_type.optional(),
    cron_expression: fields.cron_expression,
    timezone: fields.timezone.optional(),
    targets: fields.targets,
    goal: fields.goal.optional(),
    track_mode: fields.track_mode.optional(),
    extract_schema: fields.extract_schema.optional(),
    diff_options: fields.diff_options.optional(),
    notify_options: fields.notify_options.optional(),
    concurrency_mode: fields.concurrency_mode.optional(),
    max_executions_per_day: fields.max_executions_per_day.optional(),
    tags: fields.tags.optional(),
    metadata: fields.metadata.optional(),
  })
  .meta({ id: 'MonitorCreate' });
export type CreateMonitorBody = z.infer<typeof createMonitorSchema>;

/** Any subset; monitor_type is fixed at creation; goal, extract_schema, tags and metadata may be cleared with null. */
export const updateMonitorSchema = z
  .strictObject({
    name: fields.name.optional(),
    description: fields.description.optional(),
    cron_expression: fields.cron_expression.optional(),
    timezone: fields.timezone.optional(),
    targets: fields.targets.optional(),
    goal: fields.goal.nullable().optional(),
    track_mode: fields.track_mode.optional(),
    extract_schema: fields.extract_schema.nullable().optional(),
    diff_options: fields.diff_options.optional(),
    notify_options: fields.notify_options.optional(),
    concurrency_mode: fields.concurrency_mode.optional(),
    max_executions_per_day: fields.max_executions_per_day.optional(),
    tags: fields.tags.nullable().optional(),
    metadata: fields.metadata.nullable().optional(),
    /** false pauses the monitor, true resumes it. */
    is_active: z.boolean().optional(),
  })
  .meta({ id: 'MonitorUpdate' });
export type UpdateMonitorBody = z.infer<typeof updateMonitorSchema>;

/** History pages: `limit` (default 50, at most 200), and the `cursor` of the previous page or else an `offset`. */
export const historyQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
  cursor: z.string().max(200).optional(),
  include_diff_text: z.enum(['true', 'false']).optional(),
  change_type: z.enum(['content', 'text', 'price_up', 'price_down', 'stock', 'new', 'removed']).optional(),
});
export type HistoryQuery = z.infer<typeof historyQuerySchema>;

export const listQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
