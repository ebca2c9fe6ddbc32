// How monitors and their history look in API answers (docs/monitors.md), in AnyCrawl's shapes.
import type { TaskRow } from '../tasks/views.js';
import type { ChangeRow, CheckRow, MonitorRow, SnapshotRow } from './store.js';

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));
/** Characters of a snapshot's text in its detail answer. */
export const SNAPSHOT_PREVIEW_CHARS = 100_000;

export function monitorView(monitor: MonitorRow, task: TaskRow, inProgress: boolean) {
  return {
    uuid: monitor.id,
    name: monitor.name,
    description: monitor.description,
    monitor_type: monitor.monitor_type,
    scheduled_task_uuid: monitor.task_id,
    targets: json<unknown[]>(monitor.targets),
    goal: monitor.goal,
    track_mode: monitor.track_mode,
    extract_schema: json<Record<string, unknown>>(monitor.extract_schema),
    diff_options: json<Record<string, unknown>>(monitor.diff_options),
    notify_options: json<Record<string, unknown>>(monitor.notify_options),
    is_active: task.is_active === 1,
    is_paused: task.is_paused === 1,
    pause_reason: task.pause_reason,
    in_progress: inProgress,
    revision: monitor.revision,
    last_check_state: monitor.last_check_state,
    last_check_error: monitor.last_check_error,
    last_check_at: monitor.last_check_at,
    cron_expression: task.cron_expression,
    timezone: task.timezone,
    concurrency_mode: task.concurrency_mode,
    max_executions_per_day: task.max_executions_per_day,
    next_execution_at: task.next_execution_at,
    last_execution_at: task.last_execution_at,
    consecutive_failures: task.consecutive_failures,
    tags: json<string[]>(monitor.tags),
    metadata: json<Record<string, unknown>>(monitor.metadata),
    capabilities: { location: false, ignore_selectors: 'css', targets_per_check: 1 },
    created_at: monitor.created_at,
    updated_at: monitor.updated_at,
  };
}

export function snapshotSummary(s: SnapshotRow) {
  return {
    uuid: s.id,
    monitor_uuid: s.monitor_id,
    task_execution_uuid: s.execution_id,
    check_uuid: s.check_id,
    monitor_revision: s.monitor_revision,
    sequence_number: s.sequence_number,
    url: s.url,
    content_hash: s.content_hash,
    content_complete: s.content_complete === 1,
    status: s.status,
    captured_at: s.captured_at,
  };
}

export function snapshotDetail(s: SnapshotRow) {
  const content = s.content;
  const truncated = content !== null && content.length > SNAPSHOT_PREVIEW_CHARS;
  return {
    ...snapshotSummary(s),
    content: truncated ? content.slice(0, SNAPSHOT_PREVIEW_CHARS) : content,
    extracted: json<unknown>(s.extracted),
    content_truncated: truncated,
    content_length: s.content_length,
  };
}

export function changeView(c: ChangeRow, withDiffText = true) {
  return {
    uuid: c.id,
    monitor_uuid: c.monitor_id,
    check_uuid: c.check_id,
    url: c.url,
    change_type: c.change_type,
    from_snapshot_uuid: c.from_snapshot_id,
    to_snapshot_uuid: c.to_snapshot_id,
    ...(withDiffText ? { diff_text: c.diff_text, diff_text_truncated: c.diff_text_truncated === 1 } : {}),
    diff_json: json<unknown[]>(c.diff_json),
    judgment: json<Record<string, unknown>>(c.judgment),
    notified: c.notified === 1,
    notification_status: c.notification_status,
    created_at: c.created_at,
  };
}

export function changeFeedItem(c: ChangeRow, monitor: { name: string; monitor_type: string } | undefined) {
  return {
    uuid: c.id,
    monitor_uuid: c.monitor_id,
    url: c.url,
    change_type: c.change_type,
    judgment: json<Record<string, unknown>>(c.judgment),
    notified: c.notified === 1,
    notification_status: c.notification_status,
    created_at: c.created_at,
    monitor_name: monitor?.name ?? '',
    monitor_type: monitor?.monitor_type ?? 'webpage',
  };
}

export function checkView(c: CheckRow) {
  return {
    uuid: c.id,
    sequence_number: c.sequence_number,
    monitor_revision: c.monitor_revision,
    state: c.state,
    result_status: c.result_status,
    source_error: json<{ message: string; code?: string }>(c.source_error),
    attempts: c.attempts,
    last_error: c.last_error,
    triggered_by: c.triggered_by,
    task_execution_uuid: c.execution_id,
    created_at: c.created_at,
    processed_at: c.processed_at,
  };
}
