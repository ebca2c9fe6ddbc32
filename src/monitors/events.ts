// The monitor.* events (docs/monitors.md, "Events"): one constructor per type. Every payload names the monitor, its
// scheduled task (task_id: subscriptions scoped to specific tasks receive a monitor's events by its task's id), the
// check and the URL.
import type { DomainEvent } from '../events/domain-event.js';
import type { JsonDiffEntry } from './json-diff.js';
import type { Judgment } from './judge.js';

export interface MonitorFacts {
  id: string;
  owner_id: string;
  task_id: string;
  name: string;
  monitor_type: string;
}

interface CheckFacts {
  check_id: string;
  url: string;
  at: string;
}

type Base = {
  monitor_id: string;
  monitor_name: string;
  monitor_type: string;
  task_id: string;
  check_id: string;
  url: string;
};

export type CheckCompletedPayload = Base & {
  status: string;
  snapshot_id: string;
  change_id: string | null;
  changed: boolean;
  triggered_by: string;
  completed_at: string;
};
export type ChangedPayload = Base & {
  change_id: string;
  change_type: string;
  from_snapshot_id: string | null;
  to_snapshot_id: string;
  diff_text: string | null;
  /** The diff was cut (at DIFF_LIMITS.maxDiffChars): the whole of it is at change_url. */
  diff_text_truncated: boolean;
  diff_json: JsonDiffEntry[] | null;
  judgment: Judgment;
  /** The change record's path on this service (GET, with an API key). */
  change_url: string;
  detected_at: string;
};
export type ErrorPayload = Base & {
  status: 'failed';
  error_code: string;
  error_message: string;
  failed_at: string;
};

function base(monitor: MonitorFacts, check: CheckFacts): Base {
  return {
    monitor_id: monitor.id,
    monitor_name: monitor.name,
    monitor_type: monitor.monitor_type,
    task_id: monitor.task_id,
    check_id: check.check_id,
    url: check.url,
  };
}

type ChangeFacts = Omit<ChangedPayload, keyof Base | 'detected_at' | 'change_url'>;

function changedPayload(monitor: MonitorFacts, check: CheckFacts, change: ChangeFacts): ChangedPayload {
  return {
    ...base(monitor, check),
    ...change,
    change_url: `/v1/monitors/${monitor.id}/changes/${change.change_id}`,
    detected_at: check.at,
  };
}

function event<Type extends string, Payload extends Record<string, unknown>>(
  type: Type,
  monitor: MonitorFacts,
  at: string,
  payload: Payload,
): DomainEvent<Type, Payload> {
  return { type, ownerId: monitor.owner_id, subjectId: monitor.id, createdAt: at, payload };
}

export const monitorEvents = {
  'monitor.check.completed': (
    monitor: MonitorFacts,
    check: CheckFacts,
    result: { status: string; snapshot_id: string; change_id: string | null; triggered_by: string },
  ) =>
    event<'monitor.check.completed', CheckCompletedPayload>('monitor.check.completed', monitor, check.at, {
      ...base(monitor, check),
      ...result,
      changed: result.change_id !== null,
      completed_at: check.at,
    }),
  /** A webpage monitor's change (or its page gone or back). */
  'monitor.changed': (monitor: MonitorFacts, check: CheckFacts, change: ChangeFacts) =>
    event<'monitor.changed', ChangedPayload>(
      'monitor.changed',
      monitor,
      check.at,
      changedPayload(monitor, check, change),
    ),
  /** A price monitor's change: its structured fields (or its page gone or back). */
  'monitor.price.changed': (monitor: MonitorFacts, check: CheckFacts, change: ChangeFacts) =>
    event<'monitor.price.changed', ChangedPayload>(
      'monitor.price.changed',
      monitor,
      check.at,
      changedPayload(monitor, check, change),
    ),
  'monitor.error': (monitor: MonitorFacts, check: CheckFacts, error: { code: string; message: string }) =>
    event<'monitor.error', ErrorPayload>('monitor.error', monitor, check.at, {
      ...base(monitor, check),
      status: 'failed',
      error_code: error.code,
      error_message: error.message,
      failed_at: check.at,
    }),
};
