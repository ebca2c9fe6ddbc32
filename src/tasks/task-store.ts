// Scheduled tasks and their executions in the store: the one module that reads and writes
// scheduled_tasks and task_executions. A state change and the event that reports it are written by
// one function, in one transaction. The functions taking an executor run inside a caller's
// transaction (the scheduler's claim, an API key's revocation, the webhook fan-out).
import type { Kysely, Transaction, Updateable } from 'kysely';
import { type OutboxSignal, recordEvent } from '../events/outbox.js';
import type { Database, ScheduledTaskTable } from '../store/schema.js';
import type { ExecutionRow, TaskRow } from './views.js';
import { taskEvents } from './events.js';
import { templateIdOf, type TaskUsingTemplate } from '../templates/task-payload.js';

type Executor = Kysely<Database> | Transaction<Database>;

/** The columns a new task is saved with; its state and counters start at their defaults. */
export type NewTask = Omit<
  ScheduledTaskTable,
  | 'is_active'
  | 'is_paused'
  | 'pause_reason'
  | 'total_executions'
  | 'successful_executions'
  | 'failed_executions'
  | 'consecutive_failures'
  | 'last_execution_at'
  | 'created_at'
  | 'updated_at'
>;

/** How an execution ended, as its job or the scheduler reports it. */
export interface ExecutionOutcome {
  status: 'completed' | 'failed';
  error: string | null;
  jobStatus?: string;
  counts?: { total: number; completed: number; failed: number; credits: number };
}

// ---------------------------------------------------------------------------------------------
// Inside a caller's transaction.

/** The webhook_ids of each task named (subscriptions that receive its task events whatever their scope). */
export async function webhookIdsOfTasks(
  db: Executor,
  taskIds: string[],
): Promise<Array<{ id: string; webhookIds: string[] }>> {
  if (taskIds.length === 0) return [];
  const rows = await db
    .selectFrom('scheduled_tasks')
    .select(['id', 'webhook_ids'])
    .where('id', 'in', taskIds)
    .execute();
  return rows.map((t) => ({ id: t.id, webhookIds: t.webhook_ids ? (JSON.parse(t.webhook_ids) as string[]) : [] }));
}

/**
 * The key's tasks that name a template by one of `refs` (its id, its slug): a template task, or a template_id in a
 * scrape or search payload or in a crawl payload's options. A LIKE on each ref narrows the read; the payloads decide.
 */
export async function tasksUsingTemplate(
  db: Executor,
  ownerId: string,
  refs: readonly string[],
): Promise<TaskUsingTemplate[]> {
  if (refs.length === 0) return [];
  const rows = await db
    .selectFrom('scheduled_tasks')
    .select(['id', 'name', 'task_type', 'task_payload'])
    .where('owner_id', '=', ownerId)
    // Ids are UUIDs and slugs [a-z0-9-]: nothing in them is special to LIKE. A payload may spell an id in upper case
    // (the id is the same): compared in lower case (SQLite's LIKE folds ASCII case itself; PostgreSQL's does not).
    .where((eb) => eb.or(refs.map((ref) => eb(eb.fn('lower', ['task_payload']), 'like', `%${ref.toLowerCase()}%`))))
    .execute();
  const wanted = new Set(refs.map((ref) => ref.toLowerCase()));
  return rows
    .map((row) => ({
      task_id: row.id,
      name: row.name,
      task_type: row.task_type,
      task_payload: JSON.parse(row.task_payload),
    }))
    .filter((task) => {
      const named = templateIdOf(task.task_type, task.task_payload);
      return typeof named === 'string' && wanted.has(named.toLowerCase());
    });
}

/** Saves a new task: active, not paused, with no executions counted yet. */
export async function insertTask(db: Executor, task: NewTask, now: string): Promise<void> {
  await db
    .insertInto('scheduled_tasks')
    .values({
      ...task,
      is_active: 1,
      is_paused: 0,
      pause_reason: null,
      total_executions: 0,
      successful_executions: 0,
      failed_executions: 0,
      consecutive_failures: 0,
      last_execution_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** Writes edits to a task's settings (with its recomputed next run). */
export async function updateTaskSettings(
  db: Executor,
  id: string,
  changes: Updateable<ScheduledTaskTable>,
): Promise<void> {
  await db.updateTable('scheduled_tasks').set(changes).where('id', '=', id).execute();
}

/** Deletes a task and its execution history; give it a transaction. */
export async function deleteTaskWithExecutions(trx: Executor, id: string): Promise<void> {
  await trx.deleteFrom('task_executions').where('task_id', '=', id).execute();
  await trx.deleteFrom('scheduled_tasks').where('id', '=', id).execute();
}

/** Tasks by id (any owner: callers hold ids they own). */
export async function tasksByIds(db: Executor, ids: readonly string[]): Promise<TaskRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('scheduled_tasks')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/** A new execution of `task`: nothing counted yet, not ended. */
export function newExecution(
  task: Pick<TaskRow, 'id' | 'owner_id' | 'task_type'>,
  fields: Pick<
    ExecutionRow,
    'id' | 'execution_number' | 'status' | 'scheduled_for' | 'started_at' | 'job_uuid' | 'triggered_by' | 'created_at'
  >,
): ExecutionRow {
  return {
    ...fields,
    task_id: task.id,
    owner_id: task.owner_id,
    job_kind: task.task_type,
    completed_at: null,
    error_message: null,
    credits_used: 0,
    items_processed: 0,
    items_succeeded: 0,
    items_failed: 0,
    job_status: null,
  };
}

/** Links an execution to the job (or monitor check) that runs it. */
export async function setExecutionJobIn(db: Executor, executionId: string, jobId: string): Promise<void> {
  await db.updateTable('task_executions').set({ job_uuid: jobId }).where('id', '=', executionId).execute();
}

/** The job (or monitor check) ids of a task's pending and running executions; null for one not started yet. */
export async function activeExecutionJobIds(db: Executor, taskId: string): Promise<Array<string | null>> {
  const rows = await db
    .selectFrom('task_executions')
    .select('job_uuid')
    .where('task_id', '=', taskId)
    .where('status', 'in', ['pending', 'running'])
    .execute();
  return rows.map((r) => r.job_uuid);
}

/** The tasks of revoked keys can no longer run: inactive, with no next run (docs/api.md, "Scheduled tasks"). */
export async function deactivateTasksOfOwners(db: Executor, ownerIds: string[]): Promise<void> {
  if (ownerIds.length === 0) return;
  await db
    .updateTable('scheduled_tasks')
    .set({ is_active: 0, next_execution_at: null })
    .where('owner_id', 'in', ownerIds)
    .execute();
}

/**
 * The scheduler's claim of a due occurrence: moves next_execution_at of the tasks named from
 * `dueAt` to `next`, only where it is still `dueAt` (the optimistic check against other
 * schedulers). Returns the ids this call advanced.
 */
export async function advanceNextRun(
  db: Executor,
  taskIds: string[],
  dueAt: string | null,
  next: string | null,
): Promise<string[]> {
  const rows = await db
    .updateTable('scheduled_tasks')
    .set({ next_execution_at: next })
    .where('id', 'in', taskIds)
    .where('next_execution_at', '=', dueAt)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The scheduled times of a task's executions since `since` (max_executions_per_day counts them per zoned day). */
export async function occurrencesSince(db: Executor, taskId: string, since: string): Promise<string[]> {
  const rows = await db
    .selectFrom('task_executions')
    .select('scheduled_for')
    .where('task_id', '=', taskId)
    .where('scheduled_for', '>=', since)
    .execute();
  return rows.map((r) => r.scheduled_for);
}

/** The pending and running executions of the tasks named: what concurrency_mode decides on. */
export async function activeExecutions(
  db: Executor,
  taskIds: string[],
): Promise<Array<{ task_id: string; status: string }>> {
  return db
    .selectFrom('task_executions')
    .select(['task_id', 'status'])
    .where('task_id', 'in', taskIds)
    .where('status', 'in', ['pending', 'running'])
    .execute();
}

/** The highest execution_number of each task named that has executions: the next one counts on from it. */
export async function lastExecutionNumbers(db: Executor, taskIds: string[]): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('task_executions')
    .select(['task_id', (eb) => eb.fn.max('execution_number').as('n')])
    .where('task_id', 'in', taskIds)
    .groupBy('task_id')
    .execute();
  return new Map(rows.map((r) => [r.task_id, Number(r.n ?? 0)]));
}

/**
 * Inserts executions under the unique (task, scheduled time) key, 200 a statement: an occurrence
 * another scheduler already inserted is left out. Returns the ids of those inserted here.
 */
export async function insertExecutions(db: Executor, executions: ExecutionRow[]): Promise<Set<string>> {
  const inserted = new Set<string>();
  for (let i = 0; i < executions.length; i += 200) {
    const result = await db
      .insertInto('task_executions')
      .values(executions.slice(i, i + 200))
      .onConflict((oc) => oc.columns(['task_id', 'scheduled_for']).doNothing())
      .returning('id')
      .execute();
    for (const r of result) inserted.add(r.id);
  }
  return inserted;
}

/** Records that the tasks named fired at `at`. */
export async function markFired(db: Executor, taskIds: string[], at: string): Promise<void> {
  if (taskIds.length === 0) return;
  await db.updateTable('scheduled_tasks').set({ last_execution_at: at }).where('id', 'in', taskIds).execute();
}

// ---------------------------------------------------------------------------------------------

export class TaskStore {
  constructor(
    private readonly db: Kysely<Database>,
    /** The app's outbox signal, given with every event recorded. */
    private readonly outbox: OutboxSignal,
  ) {}

  /** A task of this owner, or undefined (another owner's task is as good as missing). */
  async findOwned(ownerId: string, id: string): Promise<TaskRow | undefined> {
    return this.db
      .selectFrom('scheduled_tasks')
      .selectAll()
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
  }

  /** An owner's tasks, newest first. */
  async listOwned(ownerId: string): Promise<TaskRow[]> {
    return this.db
      .selectFrom('scheduled_tasks')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  /** Saves a new task: active, not paused, with no executions counted yet. */
  async insert(task: NewTask, now: string): Promise<void> {
    await insertTask(this.db, task, now);
  }

  /**
   * Writes an owner's edits to a task (with its recomputed next run); state and counters are not the caller's to set
   * here.
   */
  async updateSettings(id: string, changes: Updateable<ScheduledTaskTable>): Promise<void> {
    await updateTaskSettings(this.db, id, changes);
  }

  /** Deletes a task with its execution history, in one transaction. */
  async deleteWithExecutions(id: string): Promise<void> {
    await this.db.transaction().execute((trx) => deleteTaskWithExecutions(trx, id));
  }

  /**
   * Pauses a task (no next run while paused) and, when `task` (as read before) was not paused
   * yet, records task.paused in the same transaction.
   */
  async pause(task: TaskRow, reason: string, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('scheduled_tasks')
        .set({ is_paused: 1, pause_reason: reason, next_execution_at: null, updated_at: now })
        .where('id', '=', task.id)
        .execute();
      if (task.is_paused === 0) {
        await recordEvent(trx, taskEvents['task.paused'](task, reason, now), this.outbox);
      }
    });
  }

  /**
   * Resumes a task at `nextAt`, clearing its failure streak, and, when `task` (as read before) was
   * paused, records task.resumed in the same transaction.
   */
  async resume(task: TaskRow, nextAt: string | null, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('scheduled_tasks')
        .set({ is_paused: 0, pause_reason: null, next_execution_at: nextAt, consecutive_failures: 0, updated_at: now })
        .where('id', '=', task.id)
        .execute();
      if (task.is_paused === 1) {
        await recordEvent(trx, taskEvents['task.resumed'](task, nextAt, now), this.outbox);
      }
    });
  }

  /** Up to `limit` tasks due at `now` that may run (active, not paused), earliest first. */
  async dueTasks(now: string, limit: number): Promise<TaskRow[]> {
    return this.db
      .selectFrom('scheduled_tasks')
      .selectAll()
      .where('next_execution_at', '<=', now)
      .where('is_paused', '=', 0)
      .where('is_active', '=', 1)
      .orderBy('next_execution_at')
      .limit(limit)
      .execute();
  }

  /** The earliest next run of the tasks that may run, or null: how long the scheduler may sleep. */
  async earliestNextRun(): Promise<string | null> {
    const row = await this.db
      .selectFrom('scheduled_tasks')
      .select((eb) => eb.fn.min('next_execution_at').as('at'))
      .where('is_paused', '=', 0)
      .where('is_active', '=', 1)
      .executeTakeFirst();
    return row?.at ? String(row.at) : null;
  }

  /** A page of a task's executions, newest first, with how many it has in all. */
  async executionsPage(
    taskId: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: ExecutionRow[]; total: number }> {
    const rows = await this.db
      .selectFrom('task_executions')
      .selectAll()
      .where('task_id', '=', taskId)
      .orderBy('execution_number', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    const total = await this.db
      .selectFrom('task_executions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('task_id', '=', taskId)
      .executeTakeFirstOrThrow();
    return { rows, total: Number(total.n) };
  }

  /** An execution of this task, or undefined. */
  async findExecution(taskId: string, executionId: string): Promise<ExecutionRow | undefined> {
    return this.db
      .selectFrom('task_executions')
      .selectAll()
      .where('id', '=', executionId)
      .where('task_id', '=', taskId)
      .executeTakeFirst();
  }

  /**
   * Cancels an execution if it is still pending or running (it may have ended since it was read);
   * one that never started counts as started when cancelled.
   */
  async cancelExecution(execution: ExecutionRow, now: string): Promise<void> {
    await this.db
      .updateTable('task_executions')
      .set({
        status: 'cancelled',
        completed_at: now,
        started_at: execution.started_at ?? now,
        error_message: 'Cancelled by user',
      })
      .where('id', '=', execution.id)
      .where('status', 'in', ['pending', 'running'])
      .execute();
  }

  /** Links an execution to the job that runs it: reconcile() ends the execution when that job ends. */
  /**
   * Running executions after `afterId` in id order, `limit` at a time (the scheduler reconciles them all, page by
   * page).
   */
  async runningExecutions(
    afterId: string,
    limit: number,
  ): Promise<Array<Pick<ExecutionRow, 'id' | 'job_uuid' | 'job_kind' | 'started_at'>>> {
    return this.db
      .selectFrom('task_executions')
      .select(['id', 'job_uuid', 'job_kind', 'started_at'])
      .where('status', '=', 'running')
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async runningExecution(
    executionId: string,
  ): Promise<Pick<ExecutionRow, 'id' | 'job_uuid' | 'job_kind' | 'started_at'> | undefined> {
    return this.db
      .selectFrom('task_executions')
      .select(['id', 'job_uuid', 'job_kind', 'started_at'])
      .where('id', '=', executionId)
      .where('status', '=', 'running')
      .executeTakeFirst();
  }

  async setExecutionJob(executionId: string, jobId: string): Promise<void> {
    await setExecutionJobIn(this.db, executionId, jobId);
  }

  /**
   * Ends a running execution, in one transaction: the execution (only if still running, so it ends
   * once), its task's counters and failure streak, the auto-pause after `autoPauseAfter`
   * consecutive failures, their events (task.executed or task.failed, task.paused), and in queue
   * mode the start of the oldest waiting execution (not when the task was just paused). Returns
   * that started execution with its task, for the caller to run its job.
   */
  async endExecution(
    executionId: string,
    outcome: ExecutionOutcome,
    now: string,
    autoPauseAfter: number,
  ): Promise<{ task: TaskRow; execution: ExecutionRow } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const ended = await trx
        .updateTable('task_executions')
        .set({
          status: outcome.status,
          completed_at: now,
          error_message: outcome.error,
          job_status: outcome.jobStatus ?? null,
          credits_used: outcome.counts?.credits ?? 0,
          items_processed: outcome.counts?.total ?? 0,
          items_succeeded: outcome.counts?.completed ?? 0,
          items_failed: outcome.counts?.failed ?? 0,
        })
        .where('id', '=', executionId)
        .where('status', '=', 'running')
        .returningAll()
        .executeTakeFirst();
      if (!ended) return undefined;
      const task = await trx
        .selectFrom('scheduled_tasks')
        .selectAll()
        .where('id', '=', ended.task_id)
        .executeTakeFirst();
      if (!task) return undefined;
      const failed = outcome.status === 'failed';
      const streak = failed ? task.consecutive_failures + 1 : 0;
      const pause = failed && streak >= autoPauseAfter && task.is_paused === 0;
      const pauseReason = `Paused automatically after ${autoPauseAfter} consecutive failed executions`;
      await trx
        .updateTable('scheduled_tasks')
        .set({
          total_executions: task.total_executions + 1,
          successful_executions: task.successful_executions + (failed ? 0 : 1),
          failed_executions: task.failed_executions + (failed ? 1 : 0),
          consecutive_failures: streak,
          ...(pause ? { is_paused: 1, pause_reason: pauseReason, next_execution_at: null } : {}),
          updated_at: now,
        })
        .where('id', '=', task.id)
        .execute();
      const run = failed
        ? taskEvents['task.failed'](task, ended, now, outcome.error)
        : taskEvents['task.executed'](task, ended, now);
      await recordEvent(trx, run, this.outbox);
      if (pause) await recordEvent(trx, taskEvents['task.paused'](task, pauseReason, now), this.outbox);
      // queue mode: the oldest waiting execution starts now.
      const queued = await trx
        .selectFrom('task_executions')
        .selectAll()
        .where('task_id', '=', task.id)
        .where('status', '=', 'pending')
        .orderBy('execution_number')
        .limit(1)
        .executeTakeFirst();
      if (!queued || pause) return undefined;
      await trx
        .updateTable('task_executions')
        .set({ status: 'running', started_at: now })
        .where('id', '=', queued.id)
        .execute();
      return { task, execution: { ...queued, status: 'running', started_at: now } };
    });
  }
}
