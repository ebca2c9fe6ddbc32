// How tasks and executions look in API answers (docs/api.md, "Scheduled tasks").
import type { Selectable } from 'kysely';
import type { ScheduledTaskTable, TaskExecutionTable } from '../store/schema.js';

export type TaskRow = Selectable<ScheduledTaskTable>;
export type ExecutionRow = Selectable<TaskExecutionTable>;

const ICONS: Record<string, string> = {
  scrape: 'file-text',
  crawl: 'spider',
  search: 'search',
  template: 'layout-template',
  monitor: 'eye',
};
const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** The list shape: without description, task_payload, concurrency_mode, updated_at and icon. */
export function taskListItem(t: TaskRow) {
  return {
    uuid: t.id,
    name: t.name,
    task_type: t.task_type,
    cron_expression: t.cron_expression,
    timezone: t.timezone,
    is_active: t.is_active === 1,
    is_paused: t.is_paused === 1,
    pause_reason: t.pause_reason,
    next_execution_at: t.next_execution_at,
    total_executions: t.total_executions,
    successful_executions: t.successful_executions,
    failed_executions: t.failed_executions,
    consecutive_failures: t.consecutive_failures,
    last_execution_at: t.last_execution_at,
    created_at: t.created_at,
  };
}

export function taskDetail(t: TaskRow) {
  return {
    ...taskListItem(t),
    description: t.description,
    task_payload: json<Record<string, unknown>>(t.task_payload),
    concurrency_mode: t.concurrency_mode,
    max_executions_per_day: t.max_executions_per_day,
    webhook_ids: json<string[]>(t.webhook_ids),
    webhook_url: t.webhook_url,
    tags: json<string[]>(t.tags),
    metadata: json<Record<string, unknown>>(t.metadata),
    min_credits_required: t.min_credits_required,
    updated_at: t.updated_at,
    icon: ICONS[t.task_type] ?? 'clock',
  };
}

export function executionView(e: ExecutionRow) {
  const finished = e.started_at !== null && e.completed_at !== null;
  return {
    uuid: e.id,
    scheduled_task_uuid: e.task_id,
    execution_number: e.execution_number,
    status: e.status,
    scheduled_for: e.scheduled_for,
    started_at: e.started_at,
    completed_at: e.completed_at,
    duration_ms: finished ? Date.parse(e.completed_at as string) - Date.parse(e.started_at as string) : null,
    job_uuid: e.job_uuid,
    triggered_by: e.triggered_by,
    error_message: e.error_message,
    credits_used: e.credits_used,
    items_processed: e.items_processed,
    items_succeeded: e.items_succeeded,
    items_failed: e.items_failed,
    job_status: e.job_status,
    job_success: e.job_status === null ? null : e.job_status === 'completed',
    icon: ICONS[e.job_kind ?? ''] ?? 'clock',
  };
}
