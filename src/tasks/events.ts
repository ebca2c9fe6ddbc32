// The task.* events: one constructor per type, each payload's shape declared once (docs/api.md, scheduled tasks).
import type { DomainEvent } from '../events/domain-event.js';
import type { ExecutionRow, TaskRow } from './views.js';

type TaskFacts = Pick<TaskRow, 'id' | 'owner_id' | 'name'>;

export type TaskRunPayload = {
  task_id: string;
  task_name: string;
  execution_id: string;
  execution_number: number;
  status: string;
  job_id: string | null;
  credits_used: number;
  scheduled_for: string;
  completed_at: string;
  error_message?: string | null;
};
export type TaskPausedPayload = {
  task_id: string;
  task_name: string;
  is_paused: true;
  pause_reason: string;
  paused_at: string;
};
export type TaskResumedPayload = {
  task_id: string;
  task_name: string;
  is_paused: false;
  next_execution_at: string | null;
  resumed_at: string;
};

function taskEvent<Type extends string, Payload extends Record<string, unknown>>(
  type: Type,
  task: TaskFacts,
  at: string,
  payload: Payload,
): DomainEvent<Type, Payload> {
  return { type, ownerId: task.owner_id, subjectId: task.id, createdAt: at, payload };
}

function run<Type extends 'task.executed' | 'task.failed'>(
  type: Type,
  task: TaskFacts,
  execution: ExecutionRow,
  at: string,
  error?: string | null,
): DomainEvent<Type, TaskRunPayload> {
  return taskEvent(type, task, at, {
    task_id: task.id,
    task_name: task.name,
    execution_id: execution.id,
    execution_number: execution.execution_number,
    status: type === 'task.failed' ? 'failed' : 'completed',
    job_id: execution.job_uuid,
    credits_used: execution.credits_used,
    scheduled_for: execution.scheduled_for,
    completed_at: at,
    ...(type === 'task.failed' ? { error_message: error } : {}),
  });
}

export const taskEvents = {
  /** An execution completed (its job ended completed). */
  'task.executed': (task: TaskFacts, execution: ExecutionRow, at: string) => run('task.executed', task, execution, at),
  'task.failed': (task: TaskFacts, execution: ExecutionRow, at: string, error: string | null | undefined) =>
    run('task.failed', task, execution, at, error),
  'task.paused': (task: TaskFacts, reason: string, at: string) =>
    taskEvent('task.paused', task, at, {
      task_id: task.id,
      task_name: task.name,
      is_paused: true,
      pause_reason: reason,
      paused_at: at,
    }),
  'task.resumed': (task: TaskFacts, nextAt: string | null, at: string) =>
    taskEvent('task.resumed', task, at, {
      task_id: task.id,
      task_name: task.name,
      is_paused: false,
      next_execution_at: nextAt,
      resumed_at: at,
    }),
};
