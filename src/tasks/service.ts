// Scheduled-task operations behind the routes: CRUD, pause/resume, executions and their cancellation.
import { randomUUID } from 'node:crypto';
import type { Kysely, Updateable } from 'kysely';
import type { OutboxSignal } from '../events/outbox.js';
import {
  CapabilityUnavailableError,
  ConflictError,
  InvalidInputError,
  NotFoundError,
  type ValidationIssue,
} from '../domain/errors.js';
import type { CrawlStore } from '../crawl/store.js';
import type { Database, ScheduledTaskTable } from '../store/schema.js';
import type { Clock } from '../util/time.js';
import type { SubscriptionStore } from '../webhooks/subscription-store.js';
import type { WebhookService } from '../webhooks/service.js';
import { nextRun } from './cron/index.js';
import { nextRunOfSaved } from './saved-schedule.js';
import type { Capabilities } from '../scrape/capabilities.js';
import { payloadRefusals, payloadTargetRefusals } from './refusals.js';
import type { TargetGuard } from '../crawl/seed-guard.js';
import type { SearchRequest } from '../search/schema.js';
import type { TemplateService } from '../templates/service.js';
import { crawlPayloadOf, taskRequest } from '../templates/task-request.js';
import {
  type CreateTaskBody,
  minCreditsRequired,
  MONITOR_TASK_TYPE,
  payloadIssues,
  type TaskType,
  type UpdateTaskBody,
} from './schema.js';
import { TaskStore } from './task-store.js';
import { executionView, type TaskRow, taskDetail, taskListItem } from './views.js';

export interface TaskServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  subscriptions: SubscriptionStore;
  webhooks: WebhookService;
  crawls: CrawlStore;
  /** What this deployment can serve: payloads asking for more are refused when saved. */
  capabilities: Capabilities;
  /** The address guard's settings: a payload URL it refuses is refused when the task is saved. */
  targets: TargetGuard;
  /** Expands templates in payloads (a template task, a template_id), so that they are checked as they will run. */
  templates: TemplateService;
  /** What a search would refuse in a search task's payload (an engine not offered…), found when it is saved. */
  searchRefusals: (request: SearchRequest) => ValidationIssue[];
  retentionMs: number;
  onChange?: () => void;
  /** The app's outbox signal, given with every event recorded. */
  outbox: OutboxSignal;
}

const TASK_EVENTS = ['task.executed', 'task.failed', 'task.paused', 'task.resumed'];

export class TaskService {
  private readonly store: TaskStore;

  constructor(private readonly deps: TaskServiceDeps) {
    this.store = new TaskStore(deps.db, deps.outbox);
  }

  private now(): string {
    return this.deps.clock().toISOString();
  }

  private async task(ownerId: string, id: string): Promise<TaskRow> {
    const row = await this.store.findOwned(ownerId, id);
    if (!row) throw new NotFoundError('task');
    return row;
  }

  private async checkWebhookIds(ownerId: string, ids: string[] | undefined): Promise<void> {
    const issues: ValidationIssue[] = [];
    for (const [i, id] of (ids ?? []).entries()) {
      if (!(await this.deps.subscriptions.find(ownerId, id)))
        issues.push({ field: `webhook_ids.${i}`, code: 'custom', message: `Webhook ${id} not found` });
    }
    if (issues.length > 0) throw new InvalidInputError(issues);
  }

  /**
   * Refuses a payload its task type's schema, its template or this deployment would refuse when it runs; answers
   * the task's min_credits_required (that of the template's operation for a template).
   */
  private async checkPayload(ownerId: string, type: TaskType, payload: Record<string, unknown>): Promise<number> {
    const issues = payloadIssues(type, payload);
    if (issues.length > 0) throw new InvalidInputError(issues);
    const prepared = await taskRequest(this.deps.templates, ownerId, type, payload);
    const effective =
      prepared.type === 'crawl' ? crawlPayloadOf(prepared.request) : (prepared.request as Record<string, unknown>);
    const refused = payloadRefusals(prepared.type, effective, this.deps.capabilities, this.deps.searchRefusals);
    if (refused.length > 0) throw new CapabilityUnavailableError(refused);
    const blocked = await payloadTargetRefusals(effective, this.deps.targets);
    if (blocked.length > 0) throw new InvalidInputError(blocked);
    return minCreditsRequired(prepared.type, effective);
  }

  private next(cron: string, zone: string): string | null {
    return nextRun(cron, zone, this.deps.clock())?.toISOString() ?? null;
  }

  private nextOfSaved(cron: string, zone: string): string {
    return nextRunOfSaved(cron, zone, this.deps.clock());
  }

  async create(ownerId: string, body: CreateTaskBody) {
    const minCredits = await this.checkPayload(ownerId, body.task_type, body.task_payload);
    await this.checkWebhookIds(ownerId, body.webhook_ids);
    const id = randomUUID();
    const now = this.now();
    const timezone = body.timezone ?? 'UTC';
    // Before the implicit subscription is made: a refused schedule must leave nothing behind.
    const nextAt = this.nextOfSaved(body.cron_expression, timezone);
    let implicit: { webhook_id: string; secret: string } | undefined;
    if (body.webhook_url !== undefined) {
      // The implicit subscription: scoped to this task, for its task.* events (docs/api.md, "Fields": webhook_url).
      implicit = await this.deps.webhooks.create(
        ownerId,
        {
          name: `Task ${body.name}`,
          webhook_url: body.webhook_url,
          event_types: TASK_EVENTS,
          scope: 'specific',
          specific_task_ids: [id],
        },
        { taskId: id },
      );
    }
    await this.store.insert(
      {
        id,
        owner_id: ownerId,
        name: body.name,
        description: body.description ?? null,
        cron_expression: body.cron_expression,
        timezone,
        task_type: body.task_type,
        task_payload: JSON.stringify(body.task_payload),
        concurrency_mode: body.concurrency_mode ?? 'skip',
        max_executions_per_day: body.max_executions_per_day ?? null,
        webhook_ids: body.webhook_ids ? JSON.stringify(body.webhook_ids) : null,
        webhook_url: body.webhook_url ?? null,
        implicit_webhook_id: implicit?.webhook_id ?? null,
        tags: body.tags ? JSON.stringify(body.tags) : null,
        metadata: body.metadata ? JSON.stringify(body.metadata) : null,
        min_credits_required: minCredits,
        next_execution_at: nextAt,
      },
      now,
    );
    this.deps.onChange?.();
    return {
      task_id: id,
      next_execution_at: nextAt,
      ...(implicit ? { webhook_id: implicit.webhook_id, webhook_secret: implicit.secret } : {}),
    };
  }

  async list(ownerId: string) {
    const rows = await this.store.listOwned(ownerId);
    return rows.map(taskListItem);
  }

  async get(ownerId: string, id: string) {
    return taskDetail(await this.task(ownerId, id));
  }

  /** A monitor's task is changed through its monitor (docs/monitors.md); pausing and resuming it here is allowed. */
  private refuseMonitorTask(task: TaskRow): void {
    if (task.task_type !== MONITOR_TASK_TYPE) return;
    const monitorId = (JSON.parse(task.task_payload) as { monitor_id?: string }).monitor_id;
    throw new ConflictError(
      'Task belongs to a monitor',
      `This task schedules monitor ${monitorId}: change or delete it with /v1/monitors/${monitorId}`,
    );
  }

  async update(ownerId: string, id: string, body: UpdateTaskBody) {
    const current = await this.task(ownerId, id);
    this.refuseMonitorTask(current);
    const type = (body.task_type ?? current.task_type) as TaskType;
    const payload = body.task_payload ?? (JSON.parse(current.task_payload) as Record<string, unknown>);
    let minCredits = current.min_credits_required;
    if (body.task_type !== undefined || body.task_payload !== undefined) {
      minCredits = await this.checkPayload(ownerId, type, payload);
    }
    await this.checkWebhookIds(ownerId, body.webhook_ids);
    const cron = body.cron_expression ?? current.cron_expression;
    const zone = body.timezone ?? current.timezone;
    const rescheduled = body.cron_expression !== undefined || body.timezone !== undefined;
    const next = rescheduled ? this.nextOfSaved(cron, zone) : this.next(cron, zone);
    const changes: Updateable<ScheduledTaskTable> = {
      updated_at: this.now(),
      min_credits_required: minCredits,
    };
    if (body.name !== undefined) changes.name = body.name;
    if (body.description !== undefined) changes.description = body.description;
    if (body.cron_expression !== undefined) changes.cron_expression = body.cron_expression;
    if (body.timezone !== undefined) changes.timezone = body.timezone;
    if (body.task_type !== undefined) changes.task_type = body.task_type;
    if (body.task_payload !== undefined) changes.task_payload = JSON.stringify(body.task_payload);
    if (body.concurrency_mode !== undefined) changes.concurrency_mode = body.concurrency_mode;
    if (body.max_executions_per_day !== undefined) changes.max_executions_per_day = body.max_executions_per_day;
    if (body.webhook_ids !== undefined) changes.webhook_ids = JSON.stringify(body.webhook_ids);
    if (body.tags !== undefined) changes.tags = JSON.stringify(body.tags);
    if (body.metadata !== undefined) changes.metadata = JSON.stringify(body.metadata);
    // next_execution_at is always the real next run: recomputed, and null while paused.
    changes.next_execution_at = current.is_paused === 1 ? null : next;
    await this.store.updateSettings(id, changes);
    this.deps.onChange?.();
    return this.get(ownerId, id);
  }

  async remove(ownerId: string, id: string): Promise<void> {
    const task = await this.task(ownerId, id);
    this.refuseMonitorTask(task);
    await this.store.deleteWithExecutions(id);
    if (task.implicit_webhook_id) await this.deps.webhooks.discard(ownerId, task.implicit_webhook_id);
  }

  async pause(ownerId: string, id: string, reason: string | undefined) {
    const task = await this.task(ownerId, id);
    const now = this.now();
    const pauseReason = reason ?? 'Paused by user';
    await this.store.pause(task, pauseReason, now);
    return { uuid: id, is_paused: true, pause_reason: pauseReason };
  }

  async resume(ownerId: string, id: string) {
    const task = await this.task(ownerId, id);
    const now = this.now();
    // Computed from now: resuming never fires the runs missed while paused.
    const nextAt = this.next(task.cron_expression, task.timezone);
    await this.store.resume(task, nextAt, now);
    this.deps.onChange?.();
    return { uuid: id, is_paused: false, pause_reason: null, next_execution_at: nextAt };
  }

  async executions(ownerId: string, id: string, limit: number, offset: number) {
    await this.task(ownerId, id);
    const { rows, total } = await this.store.executionsPage(id, limit, offset);
    return { success: true, data: rows.map(executionView), meta: { limit, offset, total } };
  }

  async cancelExecution(ownerId: string, taskId: string, executionId: string): Promise<void> {
    await this.task(ownerId, taskId);
    const execution = await this.store.findExecution(taskId, executionId);
    if (!execution) throw new NotFoundError('execution');
    if (execution.status !== 'pending' && execution.status !== 'running') {
      throw new ConflictError(
        'Execution already finished',
        `The execution is ${execution.status}; only pending or running executions can be cancelled`,
      );
    }
    const now = this.now();
    await this.store.cancelExecution(execution, now);
    // The job is cancelled too; a scrape is a single synchronous page and simply ends.
    if (execution.job_uuid && execution.job_kind === 'crawl')
      await this.deps.crawls.cancel(ownerId, execution.job_uuid, now, this.deps.retentionMs);
    this.deps.onChange?.();
  }
}
