// Monitor operations behind the routes (docs/monitors.md): create, read, update, delete, pause/resume, check now, and
// the history of checks, snapshots and changes. A monitor's schedule is its scheduled task's (task_type "monitor").
import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import { blockedTarget, type TargetGuard } from '../crawl/seed-guard.js';
import {
  CapabilityUnavailableError,
  ConflictError,
  InvalidInputError,
  NotFoundError,
  type ValidationIssue,
} from '../domain/errors.js';
import { type Capabilities, unsupportedOptions } from '../scrape/capabilities.js';
import { resolvePageOptions } from '../scrape/schema.js';
import type { MonitorTable, ScheduledTaskTable } from '../store/schema.js';
import { nextRun } from '../tasks/cron/index.js';
import { MONITOR_TASK_TYPE } from '../tasks/schema.js';
import { nextRunOfSaved } from '../tasks/saved-schedule.js';
import type { TaskService } from '../tasks/service.js';
import type { Clock } from '../util/time.js';
import type { CreateMonitorBody, HistoryQuery, MonitorTarget, TrackMode, UpdateMonitorBody } from './schema.js';
import { type NotificationLookup, notificationStatusOf, notificationsOfChange } from './notifications.js';
import { DEFAULT_PRICE_SCHEMA } from './settings.js';
import { type MonitorRow, MonitorStore, type MonitorWithTask, type PageAt } from './store.js';
import { changeFeedItem, changeView, checkView, monitorView, snapshotDetail, snapshotSummary } from './views.js';

export interface MonitorServiceDeps {
  store: MonitorStore;
  clock: Clock;
  /** Pauses and resumes (with their task.* events) are the task's. */
  tasks: TaskService;
  capabilities: Capabilities;
  targets: TargetGuard;
  /** A check was queued (the check runner, when this process has one, starts it at once). */
  onCheckQueued?: () => void;
  /** The schedule changed (the scheduler recomputes its sleep). */
  onScheduleChanged?: () => void;
  /** The webhook deliveries of a monitor's events. */
  notifications: NotificationLookup;
}

/** Deliveries read to tell the notification status of a page of changes. */
const NOTIFICATIONS_READ = 1_000;

const DEFAULT_HISTORY_LIMIT = 50;
const text = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));

export class MonitorService {
  constructor(private readonly deps: MonitorServiceDeps) {}

  private now(): string {
    return this.deps.clock().toISOString();
  }

  private async owned(ownerId: string, id: string): Promise<MonitorWithTask> {
    const found = await this.deps.store.findOwned(ownerId, id);
    if (!found) throw new NotFoundError('monitor');
    return found;
  }

  /** What the check would be refused when it runs (browser-only options here, a schema that does not compile, a
   * private target), found when the monitor is saved. */
  private async refusals(target: MonitorTarget, trackMode: TrackMode, extractSchema: unknown): Promise<void> {
    const tracksJson = trackMode !== 'text';
    const options = resolvePageOptions({
      ...(target.options ?? {}),
      ...(target.engine ? { engine: target.engine } : {}),
      formats: tracksJson ? ['text', 'json'] : ['text'],
      ...(tracksJson && extractSchema ? { json_options: { schema: extractSchema as Record<string, unknown> } } : {}),
    });
    const refused = unsupportedOptions(options, this.deps.capabilities).flatMap((issue): ValidationIssue[] => {
      // Formats are the monitor's, not the client's: an issue about them is the schema's or the engine's.
      if (issue.field.startsWith('json_options.schema'))
        return [{ ...issue, field: issue.field.replace('json_options.schema', 'extract_schema') }];
      if (issue.field.startsWith('json_options') || issue.field.startsWith('formats'))
        return [{ ...issue, field: 'track_mode' }];
      return [{ ...issue, field: `targets.0.${issue.field === 'engine' ? 'engine' : `options.${issue.field}`}` }];
    });
    const schemaIssues = refused.filter((i) => i.field.startsWith('extract_schema'));
    if (schemaIssues.length > 0) throw new InvalidInputError(schemaIssues);
    if (refused.length > 0) throw new CapabilityUnavailableError(refused);
    const blocked = await blockedTarget(target.url, this.deps.targets);
    if (blocked) throw new InvalidInputError([{ field: 'targets.0.url', code: 'custom', message: blocked.message }]);
  }

  private nextOfSaved(cron: string, zone: string): string {
    return nextRunOfSaved(cron, zone, this.deps.clock());
  }

  async create(ownerId: string, body: CreateMonitorBody) {
    const monitorType = body.monitor_type ?? 'webpage';
    const trackMode = body.track_mode ?? (monitorType === 'price' ? 'json' : 'text');
    requireSchema(monitorType, trackMode, body.extract_schema);
    const target = body.targets[0] as MonitorTarget;
    await this.refusals(target, trackMode, body.extract_schema ?? defaultSchema(monitorType));
    const timezone = body.timezone ?? 'UTC';
    const nextAt = this.nextOfSaved(body.cron_expression, timezone);
    const id = randomUUID();
    const taskId = randomUUID();
    const now = this.now();
    const monitor: MonitorTable = {
      id,
      owner_id: ownerId,
      task_id: taskId,
      name: body.name,
      description: body.description ?? null,
      monitor_type: monitorType,
      targets: JSON.stringify(body.targets),
      goal: body.goal ?? null,
      track_mode: trackMode,
      extract_schema: text(body.extract_schema),
      diff_options: text(body.diff_options),
      notify_options: text(body.notify_options),
      tags: text(body.tags),
      metadata: text(body.metadata),
      revision: 1,
      check_seq: 0,
      snapshot_seq: 0,
      last_check_state: null,
      last_check_error: null,
      last_check_at: null,
      created_at: now,
      updated_at: now,
    };
    await this.deps.store.insert(
      monitor,
      {
        id: taskId,
        owner_id: ownerId,
        name: `Monitor ${body.name}`,
        description: null,
        cron_expression: body.cron_expression,
        timezone,
        task_type: MONITOR_TASK_TYPE,
        task_payload: JSON.stringify({ monitor_id: id }),
        concurrency_mode: body.concurrency_mode ?? 'skip',
        max_executions_per_day: body.max_executions_per_day ?? null,
        webhook_ids: null,
        webhook_url: null,
        implicit_webhook_id: null,
        tags: null,
        metadata: null,
        min_credits_required: 1,
        next_execution_at: nextAt,
      },
      now,
    );
    this.deps.onScheduleChanged?.();
    return { monitor_id: id, scheduled_task_id: taskId, track_mode: trackMode, next_execution_at: nextAt };
  }

  async list(ownerId: string, limit: number) {
    const rows = await this.deps.store.listOwned(ownerId, limit);
    const busy = await this.deps.store.inProgress(rows.map((r) => r.monitor.id));
    return rows.map(({ monitor, task }) => monitorView(monitor, task, busy.has(monitor.id)));
  }

  async get(ownerId: string, id: string) {
    const { monitor, task } = await this.owned(ownerId, id);
    const busy = await this.deps.store.inProgress([monitor.id]);
    return monitorView(monitor, task, busy.has(monitor.id));
  }

  async update(ownerId: string, id: string, body: UpdateMonitorBody) {
    const { monitor, task } = await this.owned(ownerId, id);
    const trackMode = body.track_mode ?? (monitor.track_mode as TrackMode);
    const extractSchema =
      body.extract_schema === undefined ? parsed(monitor.extract_schema) : (body.extract_schema ?? undefined);
    const targets = body.targets ?? (JSON.parse(monitor.targets) as MonitorTarget[]);
    requireSchema(monitor.monitor_type, trackMode, extractSchema);
    await this.refusals(targets[0] as MonitorTarget, trackMode, extractSchema ?? defaultSchema(monitor.monitor_type));
    const cron = body.cron_expression ?? task.cron_expression;
    const zone = body.timezone ?? task.timezone;
    const rescheduled = body.cron_expression !== undefined || body.timezone !== undefined;
    const next = rescheduled
      ? this.nextOfSaved(cron, zone)
      : (nextRun(cron, zone, this.deps.clock())?.toISOString() ?? null);
    const now = this.now();
    // What the comparison depends on: a new revision starts a new baseline (docs/monitors.md, "Revisions").
    const compared =
      body.targets !== undefined ||
      body.track_mode !== undefined ||
      body.extract_schema !== undefined ||
      body.diff_options !== undefined;
    const changes: Updateable<MonitorTable> = { updated_at: now };
    if (compared) changes.revision = monitor.revision + 1;
    if (body.name !== undefined) changes.name = body.name;
    if (body.description !== undefined) changes.description = body.description;
    if (body.targets !== undefined) changes.targets = JSON.stringify(body.targets);
    if (body.goal !== undefined) changes.goal = body.goal;
    if (body.track_mode !== undefined) changes.track_mode = body.track_mode;
    if (body.extract_schema !== undefined) changes.extract_schema = text(body.extract_schema);
    if (body.diff_options !== undefined) changes.diff_options = text(body.diff_options);
    if (body.notify_options !== undefined) changes.notify_options = text(body.notify_options);
    if (body.tags !== undefined) changes.tags = text(body.tags);
    if (body.metadata !== undefined) changes.metadata = text(body.metadata);
    const taskChanges: Updateable<ScheduledTaskTable> = { updated_at: now };
    if (body.name !== undefined) taskChanges.name = `Monitor ${body.name}`;
    if (body.cron_expression !== undefined) taskChanges.cron_expression = body.cron_expression;
    if (body.timezone !== undefined) taskChanges.timezone = body.timezone;
    if (body.concurrency_mode !== undefined) taskChanges.concurrency_mode = body.concurrency_mode;
    if (body.max_executions_per_day !== undefined) taskChanges.max_executions_per_day = body.max_executions_per_day;
    taskChanges.next_execution_at = task.is_paused === 1 ? null : next;
    await this.deps.store.update(monitor.id, task.id, changes, taskChanges);
    if (body.is_active === false && task.is_paused === 0) await this.deps.tasks.pause(ownerId, task.id, undefined);
    if (body.is_active === true && task.is_paused === 1) await this.deps.tasks.resume(ownerId, task.id);
    this.deps.onScheduleChanged?.();
    return this.get(ownerId, id);
  }

  async remove(ownerId: string, id: string): Promise<void> {
    const { monitor } = await this.owned(ownerId, id);
    await this.deps.store.delete(monitor);
    this.deps.onScheduleChanged?.();
  }

  async pause(ownerId: string, id: string, reason: string | undefined) {
    const { task } = await this.owned(ownerId, id);
    await this.deps.tasks.pause(ownerId, task.id, reason);
    return this.get(ownerId, id);
  }

  async resume(ownerId: string, id: string) {
    const { task } = await this.owned(ownerId, id);
    await this.deps.tasks.resume(ownerId, task.id);
    return this.get(ownerId, id);
  }

  /** Queues a check now; 409 when one is already pending or running. */
  async checkNow(ownerId: string, id: string) {
    const { monitor, task } = await this.owned(ownerId, id);
    const checkId = await this.deps.store.queueManualCheck(monitor, task, this.now());
    if (checkId === undefined)
      throw new ConflictError('Check in progress', 'A check of this monitor is already pending or running');
    this.deps.onCheckQueued?.();
    return { monitor_id: monitor.id, check_id: checkId, state: 'pending' };
  }

  async snapshots(ownerId: string, id: string, query: HistoryQuery) {
    const { monitor } = await this.owned(ownerId, id);
    const page = await this.deps.store.snapshotsPage(monitor.id, pageAt(query));
    return { data: page.rows.map(snapshotSummary), pagination: pagination(page.nextCursor) };
  }

  async snapshot(ownerId: string, id: string, snapshotId: string) {
    const { monitor } = await this.owned(ownerId, id);
    const row = await this.deps.store.snapshot(monitor.id, snapshotId);
    if (!row) throw new NotFoundError('snapshot');
    return snapshotDetail(row);
  }

  async changes(ownerId: string, id: string, query: HistoryQuery) {
    const { monitor } = await this.owned(ownerId, id);
    const page = await this.deps.store.changesPage({ monitorId: monitor.id }, pageAt(query), query.change_type);
    const withDiff = query.include_diff_text !== 'false';
    const sent = await this.deps.notifications(ownerId, monitor.id, NOTIFICATIONS_READ);
    const data = page.rows.map((c) => ({
      ...changeView(c, withDiff),
      notification_status: notificationStatusOf(c.notification_status, c.id, sent),
    }));
    return { data, pagination: pagination(page.nextCursor) };
  }

  async change(ownerId: string, id: string, changeId: string) {
    const { monitor } = await this.owned(ownerId, id);
    const row = await this.deps.store.change(monitor.id, changeId);
    if (!row) throw new NotFoundError('change');
    const sent = await this.deps.notifications(ownerId, monitor.id, NOTIFICATIONS_READ);
    return {
      ...changeView(row),
      notification_status: notificationStatusOf(row.notification_status, row.id, sent),
      notifications: notificationsOfChange(row.id, sent),
    };
  }

  /** The feed of changes across the key's monitors. */
  async changeFeed(ownerId: string, query: HistoryQuery) {
    const page = await this.deps.store.changesPage({ ownerId }, pageAt(query), query.change_type);
    const names = await this.deps.store.namesOf([...new Set(page.rows.map((c) => c.monitor_id))]);
    return {
      data: page.rows.map((c) => changeFeedItem(c, names.get(c.monitor_id))),
      pagination: pagination(page.nextCursor),
    };
  }

  async notificationsOf(ownerId: string, id: string, limit: number) {
    const { monitor } = await this.owned(ownerId, id);
    return this.deps.notifications(ownerId, monitor.id, limit);
  }

  async checks(ownerId: string, id: string, limit: number | undefined) {
    const { monitor } = await this.owned(ownerId, id);
    return (await this.deps.store.checksPage(monitor.id, limit ?? DEFAULT_HISTORY_LIMIT)).map(checkView);
  }

  /** One check with its snapshot and change, as stored (Firecrawl's check detail, src/firecrawl/monitors.ts). */
  async checkRecords(ownerId: string, id: string, checkId: string) {
    const { monitor } = await this.owned(ownerId, id);
    const found = await this.deps.store.checkWithRecords(monitor.id, checkId);
    if (!found) throw new NotFoundError('check');
    return found;
  }

  /** The monitor's checks as stored rows, newest first (Firecrawl's check list, src/firecrawl/monitors.ts). */
  async checkRows(ownerId: string, id: string, limit: number) {
    const { monitor } = await this.owned(ownerId, id);
    return this.deps.store.checksPage(monitor.id, limit);
  }

  /** The monitor a task runs, for the task routes' refusal to edit it directly. */
  async monitorOfTask(taskId: string): Promise<MonitorRow | undefined> {
    return this.deps.store.byTaskId(taskId);
  }
}

function defaultSchema(monitorType: string): Record<string, unknown> | undefined {
  return monitorType === 'price' ? DEFAULT_PRICE_SCHEMA : undefined;
}

function pageAt(query: HistoryQuery): PageAt {
  return { cursor: query.cursor, offset: query.offset, limit: query.limit ?? DEFAULT_HISTORY_LIMIT };
}

function pagination(nextCursor: string | null) {
  return { has_more: nextCursor !== null, next_cursor: nextCursor };
}

function parsed(value: string | null): Record<string, unknown> | undefined {
  return value === null ? undefined : (JSON.parse(value) as Record<string, unknown>);
}

/** Structured tracking needs a schema; a price monitor has a built-in one (settings.ts, DEFAULT_PRICE_SCHEMA). */
function requireSchema(monitorType: string, trackMode: TrackMode, schema: unknown): void {
  if (trackMode !== 'text' && monitorType !== 'price' && (schema === undefined || schema === null))
    throw new InvalidInputError([
      {
        field: 'extract_schema',
        code: 'custom',
        message: `track_mode '${trackMode}' compares structured fields: give an extract_schema`,
      },
    ]);
}
