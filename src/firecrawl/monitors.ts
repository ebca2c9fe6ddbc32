// Firecrawl's v2 monitors (`/v2/monitor…`) over this service's monitors (docs/monitors.md): a Firecrawl monitor with
// one scrape target of one URL is one monitor here; its checks read as Firecrawl's checks with one page each
// (docs/firecrawl.md, "Monitors").
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { InvalidInputError } from '../domain/errors.js';
import { toValidationIssues } from '../domain/zod-issues.js';
import { ownerOf } from '../http/auth.js';
import { parseOrThrow } from '../http/validation.js';
import { type CreateMonitorBody, createMonitorSchema, updateMonitorSchema } from '../monitors/schema.js';
import type { MonitorService } from '../monitors/service.js';
import type { CheckRow, ChangeRow, SnapshotRow } from '../monitors/store.js';
import { httpUrl } from '../scrape/schema.js';
import { firecrawlIdParam, inV2Words, refusalError } from './errors.js';
import { cronOfScheduleText } from './schedule-text.js';
import { type Refusal, renameField } from './scrape-options.js';

const tags = ['firecrawl'];
const NOT_HERE = 'is not offered by this server (docs/firecrawl.md lists what is)';

const scheduleSchema = z.strictObject({
  cron: z.string().max(200).optional(),
  text: z.string().max(200).optional(),
  timezone: z.string().max(100).optional(),
});

const scrapeOptionsSchema = z.looseObject({
  formats: z.array(z.unknown()).max(20).optional(),
  onlyMainContent: z.boolean().optional(),
  includeTags: z.array(z.string()).optional(),
  excludeTags: z.array(z.string()).optional(),
  timeout: z.number().optional(),
  waitFor: z.number().optional(),
});

const targetSchema = z.looseObject({
  id: z.string().max(100).optional(),
  type: z.enum(['scrape', 'crawl', 'search']),
  urls: z.array(z.string().max(8192)).max(100).optional(),
  scrapeOptions: scrapeOptionsSchema.optional(),
});

const createSchema = z
  .strictObject({
    name: z.string(),
    schedule: scheduleSchema,
    webhook: z.unknown().optional(),
    notification: z.unknown().optional(),
    targets: z.array(targetSchema).min(1).max(20),
    retentionDays: z.number().int().min(1).max(3650).optional(),
    goal: z.string().nullable().optional(),
    judgeEnabled: z.boolean().optional(),
    origin: z.string().max(100).optional(),
    integration: z.string().max(100).optional(),
  })
  .meta({ id: 'FirecrawlMonitorCreate' });
type V2CreateMonitor = z.infer<typeof createSchema>;

const updateSchema = z
  .strictObject({
    name: z.string().optional(),
    status: z.enum(['active', 'paused']).optional(),
    schedule: scheduleSchema.optional(),
    webhook: z.unknown().optional(),
    notification: z.unknown().optional(),
    targets: z.array(targetSchema).min(1).max(20).optional(),
    retentionDays: z.number().int().min(1).max(3650).optional(),
    goal: z.string().nullable().optional(),
    judgeEnabled: z.boolean().optional(),
    origin: z.string().max(100).optional(),
    integration: z.string().max(100).optional(),
  })
  .meta({ id: 'FirecrawlMonitorUpdate' });
type V2UpdateMonitor = z.infer<typeof updateSchema>;

/** The cron a schedule says: its `cron`, else its `text` read by rules (schedule-text.ts). */
function cronOf(schedule: { cron?: string; text?: string }): string | undefined {
  return schedule.cron ?? (schedule.text === undefined ? undefined : cronOfScheduleText(schedule.text));
}

/** What this server keeps of the Firecrawl fields it has no column for, in the monitor's `metadata`. */
interface Kept {
  targets: unknown[];
  scheduleText?: string;
  retentionDays?: number;
  judgeEnabled?: boolean;
}

/** The v1 fields one Firecrawl target stands for: exactly one scrape target of one URL. */
function targetFields(targets: V2CreateMonitor['targets']): {
  fields: Pick<CreateMonitorBody, 'targets' | 'track_mode' | 'extract_schema' | 'diff_options'>;
  refusals: Refusal[];
} {
  const refusals: Refusal[] = [];
  const target = targets[0]!;
  if (targets.length > 1)
    refusals.push({ field: 'targets', message: 'A monitor here watches one target: create one monitor per target' });
  if (target.type !== 'scrape')
    refusals.push({
      field: 'targets.0.type',
      message: `A ${target.type} target ${NOT_HERE}; a monitor here watches one page (type scrape)`,
    });
  const urls = target.urls ?? [];
  if (urls.length !== 1) refusals.push({ field: 'targets.0.urls', message: 'A monitor here watches exactly one URL' });
  const url = urls[0] ?? '';
  if (urls.length === 1 && !httpUrl.safeParse(url).success)
    refusals.push({ field: 'targets.0.urls.0', message: 'Must be an absolute http:// or https:// URL' });
  const options = target.scrapeOptions ?? {};
  let schema: Record<string, unknown> | undefined;
  let markdown = options.formats === undefined;
  for (const format of options.formats ?? []) {
    const type =
      typeof format === 'string'
        ? format
        : typeof format === 'object' && format !== null
          ? (format as { type?: unknown }).type
          : undefined;
    if (type === 'markdown') markdown = true;
    else if (type === 'json' && typeof format === 'object' && format !== null) {
      const given = (format as { schema?: unknown }).schema;
      if (given !== null && typeof given === 'object') schema = given as Record<string, unknown>;
      else refusals.push({ field: 'targets.0.scrapeOptions.formats', message: 'A json format here needs a schema' });
    }
  }
  const trackMode = schema === undefined ? 'text' : markdown ? 'mixed' : 'json';
  const targetOptions = {
    ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
    ...(options.waitFor !== undefined && options.waitFor > 0 ? { wait_for: options.waitFor } : {}),
    ...(options.includeTags !== undefined ? { include_tags: options.includeTags } : {}),
  };
  const diff = {
    ...(options.onlyMainContent !== undefined ? { only_main_content: options.onlyMainContent } : {}),
    ...(options.excludeTags !== undefined ? { ignore_selectors: options.excludeTags } : {}),
  };
  return {
    fields: {
      targets: [{ url, ...(Object.keys(targetOptions).length > 0 ? { options: targetOptions } : {}) }],
      track_mode: trackMode,
      ...(schema !== undefined ? { extract_schema: schema } : {}),
      ...(Object.keys(diff).length > 0 ? { diff_options: diff } : {}),
    },
    refusals,
  };
}

function deliveryRefusals(body: {
  webhook?: unknown;
  notification?: unknown;
  schedule?: { cron?: string; text?: string };
}) {
  const refusals: Refusal[] = [];
  if (body.webhook !== undefined && body.webhook !== null)
    refusals.push({
      field: 'webhook',
      message: `A per-monitor webhook ${NOT_HERE}; subscribe to monitor.* events with POST /v1/webhooks`,
    });
  const email = (body.notification as { email?: { enabled?: boolean; recipients?: unknown[] } } | null | undefined)
    ?.email;
  if (email?.enabled === true || (email?.recipients?.length ?? 0) > 0)
    refusals.push({ field: 'notification.email', message: `Email notifications are ${NOT_HERE.slice(3)}` });
  if (body.schedule !== undefined && cronOf(body.schedule) === undefined) {
    refusals.push(
      body.schedule.text === undefined
        ? { field: 'schedule.cron', message: 'Give the schedule as a 5-field cron expression, or as schedule.text' }
        : {
            field: 'schedule.text',
            message:
              "Not a schedule this server reads: give schedule.cron, or text such as 'every 30 minutes', 'hourly', 'daily at 9:30', 'every monday at 8am'",
          },
    );
  }
  return refusals;
}

const RENAMES: Array<[string, string]> = [
  ['cron_expression', 'schedule.cron'],
  ['timezone', 'schedule.timezone'],
  ['targets.0.url', 'targets.0.urls.0'],
  ['targets.0.options', 'targets.0.scrapeOptions'],
  ['extract_schema', 'targets.0.scrapeOptions.formats'],
  ['diff_options.ignore_selectors', 'targets.0.scrapeOptions.excludeTags'],
];

type MonitorView = Awaited<ReturnType<MonitorService['get']>>;

/** A monitor in Firecrawl's shape. */
function firecrawlMonitor(m: MonitorView) {
  const kept = ((m.metadata as { firecrawl?: Kept } | null)?.firecrawl ?? undefined) as Kept | undefined;
  const target = (m.targets as Array<{ url: string }> | null)?.[0];
  return {
    id: m.uuid,
    name: m.name,
    status: m.is_paused ? 'paused' : 'active',
    schedule: {
      cron: m.cron_expression,
      timezone: m.timezone,
      ...(kept?.scheduleText !== undefined ? { text: kept.scheduleText } : {}),
    },
    nextRunAt: m.next_execution_at,
    lastRunAt: m.last_check_at ?? m.last_execution_at,
    currentCheckId: null,
    targets: kept?.targets ?? [{ id: 'target-1', type: 'scrape', urls: target ? [target.url] : [] }],
    webhook: null,
    notification: null,
    retentionDays: kept?.retentionDays ?? 30,
    goal: m.goal,
    judgeEnabled: kept?.judgeEnabled ?? true,
    createdAt: m.created_at,
    updatedAt: m.updated_at,
  };
}

const CHECK_STATUS: Record<string, string> = {
  pending: 'queued',
  processing: 'running',
  completed: 'completed',
  failed: 'failed',
};
const PAGE_STATUSES = ['same', 'changed', 'new', 'removed', 'error'] as const;

/** A check in Firecrawl's shape: one page, counted in `summary` by its result. */
function firecrawlCheck(monitorId: string, c: CheckRow) {
  const summary = { totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 };
  const result = c.state === 'failed' ? 'error' : c.result_status;
  if (result !== null && (PAGE_STATUSES as readonly string[]).includes(result)) {
    summary.totalPages = 1;
    summary[result as (typeof PAGE_STATUSES)[number]] = 1;
  }
  const error =
    c.source_error === null ? c.last_error : ((JSON.parse(c.source_error) as { message?: string }).message ?? null);
  return {
    id: c.id,
    monitorId,
    status: CHECK_STATUS[c.state] ?? c.state,
    trigger: c.triggered_by === 'manual' ? 'manual' : 'scheduled',
    scheduledFor: null,
    startedAt: c.created_at,
    finishedAt: c.processed_at,
    billingStatus: 'not_applicable',
    summary,
    error: c.state === 'failed' || result === 'error' ? error : null,
    createdAt: c.created_at,
    updatedAt: c.processed_at ?? c.created_at,
  };
}

/** The one page of a check: its status, the change's diff and the snapshot's extraction. */
function firecrawlCheckPage(monitorId: string, c: CheckRow, snapshot?: SnapshotRow, change?: ChangeRow) {
  const diffJson = change?.diff_json
    ? (JSON.parse(change.diff_json) as Array<{ path: string; from?: unknown; to?: unknown }>)
    : [];
  const fields = Object.fromEntries(diffJson.map((e) => [e.path, { previous: e.from ?? null, current: e.to ?? null }]));
  const diff =
    change === undefined
      ? null
      : {
          ...(change.diff_text ? { text: change.diff_text } : {}),
          ...(diffJson.length > 0 ? { json: fields } : {}),
        };
  return {
    id: c.id,
    targetId: 'target-1',
    url: snapshot?.url ?? change?.url ?? '',
    status: c.state === 'failed' ? 'error' : (c.result_status ?? 'error'),
    previousScrapeId: null,
    currentScrapeId: null,
    statusCode: null,
    error: c.state === 'failed' ? c.last_error : null,
    diff,
    snapshot: snapshot?.extracted ? { json: JSON.parse(snapshot.extracted) as Record<string, unknown> } : null,
    judgment: change?.judgment ? (JSON.parse(change.judgment) as Record<string, unknown>) : null,
    createdAt: c.created_at,
    monitorId,
  };
}

function monitorIdOf(request: FastifyRequest<{ Params: { monitorId: string } }>): string {
  return firecrawlIdParam(request.params.monitorId, 'monitor');
}

const pageQuery = z.looseObject({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  offset: z.coerce.number().int().min(0).max(10_000).optional(),
});

export function registerMonitorRoutes(app: FastifyInstance, monitors: MonitorService): void {
  app.post<{ Body: V2CreateMonitor }>(
    '/monitor',
    { schema: { tags, summary: 'Create a monitor (Firecrawl v2)', body: createSchema } },
    async (request) => {
      const owner = ownerOf(request);
      const body = request.body;
      const target = targetFields(body.targets);
      const refusals = [...deliveryRefusals(body), ...target.refusals];
      if (refusals.length > 0) throw refusalError(refusals);
      const kept: Kept = {
        targets: body.targets,
        ...(body.schedule.cron === undefined && body.schedule.text !== undefined
          ? { scheduleText: body.schedule.text }
          : {}),
        ...(body.retentionDays !== undefined ? { retentionDays: body.retentionDays } : {}),
        ...(body.judgeEnabled !== undefined ? { judgeEnabled: body.judgeEnabled } : {}),
      };
      const v1 = parseOrThrowIn(createMonitorSchema, {
        name: body.name,
        cron_expression: cronOf(body.schedule),
        ...(body.schedule.timezone !== undefined ? { timezone: body.schedule.timezone } : {}),
        ...(body.goal !== undefined && body.goal !== null ? { goal: body.goal } : {}),
        ...target.fields,
        metadata: { firecrawl: kept },
      });
      const created = await inV2Words(RENAMES, () => monitors.create(owner, v1));
      return { success: true, data: firecrawlMonitor(await monitors.get(owner, created.monitor_id)) };
    },
  );

  app.get<{ Querystring: Record<string, string> }>(
    '/monitor',
    { schema: { tags, summary: "This key's monitors (Firecrawl v2)" } },
    async (request) => {
      const query = parseOrThrow(pageQuery, request.query);
      const offset = query.offset ?? 0;
      const all = await monitors.list(ownerOf(request), offset + (query.limit ?? 50));
      return { success: true, data: all.slice(offset).map(firecrawlMonitor) };
    },
  );

  app.get<{ Params: { monitorId: string } }>(
    '/monitor/:monitorId',
    { schema: { tags, summary: 'A monitor (Firecrawl v2)' } },
    async (request) => ({
      success: true,
      data: firecrawlMonitor(await monitors.get(ownerOf(request), monitorIdOf(request))),
    }),
  );

  app.patch<{ Params: { monitorId: string }; Body: V2UpdateMonitor }>(
    '/monitor/:monitorId',
    { schema: { tags, summary: 'Update a monitor (Firecrawl v2)', body: updateSchema } },
    async (request) => {
      const owner = ownerOf(request);
      const id = monitorIdOf(request);
      const body = request.body;
      const current = await monitors.get(owner, id);
      const target = body.targets ? targetFields(body.targets) : undefined;
      const refusals = [...deliveryRefusals(body), ...(target?.refusals ?? [])];
      if (refusals.length > 0) throw refusalError(refusals);
      const before = ((current.metadata as { firecrawl?: Kept } | null)?.firecrawl ?? { targets: [] }) as Kept;
      const kept: Kept = {
        ...before,
        ...(body.targets ? { targets: body.targets } : {}),
        ...(body.schedule !== undefined
          ? { scheduleText: body.schedule.cron === undefined ? body.schedule.text : undefined }
          : {}),
        ...(body.retentionDays !== undefined ? { retentionDays: body.retentionDays } : {}),
        ...(body.judgeEnabled !== undefined ? { judgeEnabled: body.judgeEnabled } : {}),
      };
      const v1 = parseOrThrowIn(updateMonitorSchema, {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.schedule !== undefined ? { cron_expression: cronOf(body.schedule) } : {}),
        ...(body.schedule?.timezone !== undefined ? { timezone: body.schedule.timezone } : {}),
        ...(body.goal !== undefined ? { goal: body.goal } : {}),
        ...(target ? target.fields : {}),
        ...(body.status !== undefined ? { is_active: body.status === 'active' } : {}),
        metadata: { ...(current.metadata ?? {}), firecrawl: kept },
      });
      const updated = await inV2Words(RENAMES, () => monitors.update(owner, id, v1));
      return { success: true, data: firecrawlMonitor(updated) };
    },
  );

  app.delete<{ Params: { monitorId: string } }>(
    '/monitor/:monitorId',
    { schema: { tags, summary: 'Delete a monitor (Firecrawl v2)' } },
    async (request) => {
      await monitors.remove(ownerOf(request), monitorIdOf(request));
      return { success: true };
    },
  );

  app.post<{ Params: { monitorId: string } }>(
    '/monitor/:monitorId/run',
    { schema: { tags, summary: 'Check a monitor now (Firecrawl v2)' } },
    async (request) => {
      const owner = ownerOf(request);
      const id = monitorIdOf(request);
      const queued = await monitors.checkNow(owner, id);
      const { check } = await monitors.checkRecords(owner, id, queued.check_id);
      return { success: true, data: firecrawlCheck(id, check) };
    },
  );

  app.get<{ Params: { monitorId: string }; Querystring: Record<string, string> }>(
    '/monitor/:monitorId/checks',
    { schema: { tags, summary: 'Checks of a monitor, newest first (Firecrawl v2)' } },
    async (request) => {
      const query = parseOrThrow(pageQuery, request.query);
      const id = monitorIdOf(request);
      const offset = query.offset ?? 0;
      const rows = await monitors.checkRows(ownerOf(request), id, Math.min(offset + (query.limit ?? 50), 1000));
      return { success: true, data: rows.slice(offset).map((c) => firecrawlCheck(id, c)) };
    },
  );

  app.get<{ Params: { monitorId: string; checkId: string } }>(
    '/monitor/:monitorId/checks/:checkId',
    { schema: { tags, summary: 'A check with its page (Firecrawl v2)' } },
    async (request) => {
      const id = monitorIdOf(request);
      const checkId = firecrawlIdParam(request.params.checkId, 'check');
      const { check, snapshot, change } = await monitors.checkRecords(ownerOf(request), id, checkId);
      const page =
        check.state === 'completed' || check.state === 'failed'
          ? [firecrawlCheckPage(id, check, snapshot, change)]
          : [];
      return { success: true, data: { ...firecrawlCheck(id, check), pages: page, next: null } };
    },
  );
}

/** Parses the /v1 body a v2 request stands for; its issues are said in the v2 request's field names. */
function parseOrThrowIn<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new InvalidInputError(
    toValidationIssues(result.error.issues).map((i) => ({ ...i, field: renameField(i.field, RENAMES) })),
  );
}
