// Monitors, their checks, snapshots and changes in the store: the one module that reads and writes the monitor_*
// tables. A check's result (snapshot, change, events, the monitor's last state) is committed in one transaction, and
// only by the runner that holds its lease (docs/monitors.md, "Exactly once").
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Transaction, Updateable } from 'kysely';
import { type NewEvent, type OutboxSignal, recordEvent } from '../events/outbox.js';
import type {
  Database,
  MonitorChangeTable,
  MonitorCheckTable,
  MonitorSnapshotTable,
  MonitorTable,
  ScheduledTaskTable,
} from '../store/schema.js';
import {
  activeExecutionJobIds,
  deleteTaskWithExecutions,
  insertExecutions,
  insertTask,
  lastExecutionNumbers,
  markFired,
  newExecution,
  type NewTask,
  setExecutionJobIn,
  tasksByIds,
  updateTaskSettings,
} from '../tasks/task-store.js';
import type { ExecutionRow, TaskRow } from '../tasks/views.js';

export type MonitorRow = Selectable<MonitorTable>;
export type CheckRow = Selectable<MonitorCheckTable>;
export type SnapshotRow = Selectable<MonitorSnapshotTable>;
export type ChangeRow = Selectable<MonitorChangeTable>;
export type MonitorWithTask = { monitor: MonitorRow; task: TaskRow };

/** Kept per monitor (docs/monitors.md, "Retention"): older rows are deleted as new ones come. */
export const RETENTION = { snapshots: 500, checks: 1_000, changes: 1_000 } as const;
/** Attempts a check may make (a process that died holding it counts as one) before it fails for good. */
export const MAX_CHECK_ATTEMPTS = 3;

export type CheckState = 'pending' | 'processing' | 'completed' | 'failed';

/** What a finished check writes, all of it in the commit's transaction. */
export interface CheckResult {
  state: 'completed' | 'failed';
  resultStatus: string;
  sourceError: { message: string; code?: string } | null;
  snapshot: Omit<MonitorSnapshotTable, 'id' | 'sequence_number' | 'monitor_id' | 'check_id' | 'execution_id'>;
  change?: Omit<MonitorChangeTable, 'id' | 'monitor_id' | 'owner_id' | 'check_id' | 'to_snapshot_id' | 'created_at'>;
  /** Built once the ids are known: the events to record with the result. */
  events: (ids: { snapshotId: string; changeId: string | null }) => NewEvent[];
  now: string;
}

/** Where a history page starts: after `cursor`, else `offset` rows in; `limit` rows. */
export interface PageAt {
  cursor: string | undefined;
  offset: number | undefined;
  limit: number;
}

export interface Page<T> {
  rows: T[];
  nextCursor: string | null;
}

const encode = (parts: Array<string | number>): string => Buffer.from(JSON.stringify(parts)).toString('base64url');
function decode(cursor: string | undefined): unknown[] | undefined {
  if (!cursor) return undefined;
  try {
    const parts: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return Array.isArray(parts) ? parts : undefined;
  } catch {
    return undefined;
  }
}

export class MonitorStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly outbox: OutboxSignal,
  ) {}

  /** A monitor and the task that schedules it, in one transaction. */
  async insert(monitor: MonitorTable, task: NewTask, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await insertTask(trx, task, now);
      await trx.insertInto('monitors').values(monitor).execute();
    });
  }

  async findOwned(ownerId: string, id: string): Promise<MonitorWithTask | undefined> {
    const monitor = await this.db
      .selectFrom('monitors')
      .selectAll()
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    if (!monitor) return undefined;
    const [task] = await tasksByIds(this.db, [monitor.task_id]);
    return task ? { monitor, task } : undefined;
  }

  async listOwned(ownerId: string, limit: number): Promise<MonitorWithTask[]> {
    const monitors = await this.db
      .selectFrom('monitors')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    const tasks = new Map(
      (
        await tasksByIds(
          this.db,
          monitors.map((m) => m.task_id),
        )
      ).map((t) => [t.id, t]),
    );
    return monitors.flatMap((monitor) => {
      const task = tasks.get(monitor.task_id);
      return task ? [{ monitor, task }] : [];
    });
  }

  /** The monitor with the task's id, whatever its owner (the scheduler fires tasks, not monitors). */
  async byTaskId(taskId: string): Promise<MonitorRow | undefined> {
    return this.db.selectFrom('monitors').selectAll().where('task_id', '=', taskId).executeTakeFirst();
  }

  async byId(id: string): Promise<MonitorRow | undefined> {
    return this.db.selectFrom('monitors').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async update(
    monitorId: string,
    taskId: string,
    monitor: Updateable<MonitorTable>,
    task: Updateable<ScheduledTaskTable>,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('monitors').set(monitor).where('id', '=', monitorId).execute();
      await updateTaskSettings(trx, taskId, task);
    });
  }

  /** The monitor, its task with its executions, and its whole history, in one transaction. */
  async delete(monitor: MonitorRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const table of ['monitor_changes', 'monitor_snapshots', 'monitor_checks'] as const)
        await trx.deleteFrom(table).where('monitor_id', '=', monitor.id).execute();
      await trx.deleteFrom('monitors').where('id', '=', monitor.id).execute();
      await deleteTaskWithExecutions(trx, monitor.task_id);
    });
  }

  /**
   * Queues a check for an execution the scheduler fired (once per execution: a second call finds it). Answers the
   * check's id.
   */
  async queueScheduledCheck(monitor: MonitorRow, execution: Pick<ExecutionRow, 'id'>, now: string): Promise<string> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('monitor_checks')
        .select('id')
        .where('execution_id', '=', execution.id)
        .executeTakeFirst();
      if (existing) return existing.id;
      const id = await this.insertCheck(trx, monitor, execution.id, 'scheduler', now);
      await setExecutionJobIn(trx, execution.id, id);
      return id;
    });
  }

  /**
   * "Check now": an execution of the monitor's task (triggered_by manual) and its check, in one transaction; undefined
   * when one is already pending or running (a monitor runs one check at a time).
   */
  async queueManualCheck(monitor: MonitorRow, task: TaskRow, now: string): Promise<string | undefined> {
    return this.db.transaction().execute(async (trx) => {
      if (await hasUnfinishedCheck(trx, task.id)) return undefined;
      const last = (await lastExecutionNumbers(trx, [task.id])).get(task.id) ?? 0;
      const checkId = randomUUID();
      const execution = newExecution(task, {
        id: randomUUID(),
        execution_number: last + 1,
        status: 'running',
        scheduled_for: now,
        started_at: now,
        job_uuid: checkId,
        triggered_by: 'manual',
        created_at: now,
      });
      const inserted = await insertExecutions(trx, [execution]);
      if (!inserted.has(execution.id)) return undefined;
      await markFired(trx, [task.id], now);
      await this.insertCheck(trx, monitor, execution.id, 'manual', now, checkId);
      return checkId;
    });
  }

  private async insertCheck(
    trx: Transaction<Database>,
    monitor: MonitorRow,
    executionId: string,
    triggeredBy: string,
    now: string,
    id = randomUUID(),
  ): Promise<string> {
    const bumped = await trx
      .updateTable('monitors')
      .set((eb) => ({ check_seq: eb('check_seq', '+', 1) }))
      .where('id', '=', monitor.id)
      .returning(['check_seq', 'revision'])
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('monitor_checks')
      .values({
        id,
        monitor_id: monitor.id,
        owner_id: monitor.owner_id,
        execution_id: executionId,
        sequence_number: bumped.check_seq,
        monitor_revision: bumped.revision,
        triggered_by: triggeredBy,
        state: 'pending',
        result_status: null,
        source_error: null,
        attempts: 0,
        last_error: null,
        lease_token: null,
        lease_until: null,
        created_at: now,
        processed_at: null,
      })
      .execute();
    return id;
  }

  /**
   * Leases up to `limit` checks that are pending, or processing under a lease that ran out (its runner died), oldest
   * first. Each claim is a conditional update, so two runners never hold the same check.
   */
  async claim(now: string, leaseUntil: string, limit: number): Promise<Array<CheckRow & { lease_token: string }>> {
    const candidates = await this.db
      .selectFrom('monitor_checks')
      .select('id')
      .where((eb) =>
        eb.or([eb('state', '=', 'pending'), eb.and([eb('state', '=', 'processing'), eb('lease_until', '<', now)])]),
      )
      .orderBy('created_at')
      .limit(limit)
      .execute();
    const claimed: Array<CheckRow & { lease_token: string }> = [];
    for (const { id } of candidates) {
      const token = randomUUID();
      const row = await this.db
        .updateTable('monitor_checks')
        .set((eb) => ({
          state: 'processing',
          lease_token: token,
          lease_until: leaseUntil,
          attempts: eb('attempts', '+', 1),
        }))
        .where('id', '=', id)
        .where((eb) =>
          eb.or([eb('state', '=', 'pending'), eb.and([eb('state', '=', 'processing'), eb('lease_until', '<', now)])]),
        )
        .returningAll()
        .executeTakeFirst();
      if (row) claimed.push({ ...row, lease_token: token });
    }
    return claimed;
  }

  /** Extends a lease this runner still holds. */
  async renew(checkId: string, token: string, until: string): Promise<void> {
    await this.db
      .updateTable('monitor_checks')
      .set({ lease_until: until })
      .where('id', '=', checkId)
      .where('state', '=', 'processing')
      .where('lease_token', '=', token)
      .execute();
  }

  /** The state of each check named, with its error (the scheduler ends a monitor execution when its check ended). */
  async states(checkIds: readonly string[]): Promise<Map<string, { state: CheckState; error: string | null }>> {
    if (checkIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('monitor_checks')
      .select(['id', 'state', 'last_error'])
      .where('id', 'in', [...checkIds])
      .execute();
    return new Map(rows.map((r) => [r.id, { state: r.state as CheckState, error: r.last_error }]));
  }

  /** The snapshot a check compares with: the newest of this revision that reported a state (new, changed, removed). */
  async baseline(monitorId: string, revision: number): Promise<SnapshotRow | undefined> {
    return this.db
      .selectFrom('monitor_snapshots')
      .selectAll()
      .where('monitor_id', '=', monitorId)
      .where('monitor_revision', '=', revision)
      .where('status', 'in', ['new', 'changed', 'removed'])
      .orderBy('sequence_number', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Commits a check's result if this runner still holds its lease: the check's end, the snapshot, the change, the
   * events and the monitor's last state, in one transaction. False when another runner took the check over (its result
   * is the one kept).
   */
  async commit(
    check: Pick<CheckRow, 'id' | 'monitor_id' | 'owner_id' | 'execution_id'>,
    token: string,
    result: CheckResult,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const ended = await trx
        .updateTable('monitor_checks')
        .set({
          state: result.state,
          result_status: result.resultStatus,
          source_error: result.sourceError ? JSON.stringify(result.sourceError) : null,
          last_error: result.sourceError?.message ?? null,
          lease_token: null,
          lease_until: null,
          processed_at: result.now,
        })
        .where('id', '=', check.id)
        .where('state', '=', 'processing')
        .where('lease_token', '=', token)
        .returning('id')
        .executeTakeFirst();
      if (!ended) return false;
      const bumped = await trx
        .updateTable('monitors')
        .set((eb) => ({
          snapshot_seq: eb('snapshot_seq', '+', 1),
          last_check_state: result.state,
          last_check_error: result.sourceError?.message ?? null,
          last_check_at: result.now,
        }))
        .where('id', '=', check.monitor_id)
        .returning('snapshot_seq')
        .executeTakeFirst();
      // Deleted while the check ran: the check's end is all there is to keep.
      if (!bumped) return true;
      const snapshotId = randomUUID();
      await trx
        .insertInto('monitor_snapshots')
        .values({
          ...result.snapshot,
          id: snapshotId,
          monitor_id: check.monitor_id,
          check_id: check.id,
          execution_id: check.execution_id,
          sequence_number: bumped.snapshot_seq,
        })
        .execute();
      let changeId: string | null = null;
      if (result.change) {
        changeId = randomUUID();
        await trx
          .insertInto('monitor_changes')
          .values({
            ...result.change,
            id: changeId,
            monitor_id: check.monitor_id,
            owner_id: check.owner_id,
            check_id: check.id,
            to_snapshot_id: snapshotId,
            created_at: result.now,
          })
          .execute();
      }
      for (const event of result.events({ snapshotId, changeId })) await recordEvent(trx, event, this.outbox);
      await this.prune(trx, check.monitor_id, bumped.snapshot_seq);
      return true;
    });
  }

  /** Keeps the newest RETENTION rows of each kind of the monitor. */
  private async prune(trx: Transaction<Database>, monitorId: string, snapshotSeq: number): Promise<void> {
    if (snapshotSeq > RETENTION.snapshots)
      await trx
        .deleteFrom('monitor_snapshots')
        .where('monitor_id', '=', monitorId)
        .where('sequence_number', '<=', snapshotSeq - RETENTION.snapshots)
        .execute();
    const checks = await trx
      .selectFrom('monitor_checks')
      .select('sequence_number')
      .where('monitor_id', '=', monitorId)
      .orderBy('sequence_number', 'desc')
      .offset(RETENTION.checks)
      .limit(1)
      .executeTakeFirst();
    if (checks)
      await trx
        .deleteFrom('monitor_checks')
        .where('monitor_id', '=', monitorId)
        .where('sequence_number', '<=', checks.sequence_number)
        .where('state', 'in', ['completed', 'failed'])
        .execute();
    const changes = await trx
      .selectFrom('monitor_changes')
      .select(['created_at', 'id'])
      .where('monitor_id', '=', monitorId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(RETENTION.changes)
      .limit(1)
      .executeTakeFirst();
    if (changes)
      await trx
        .deleteFrom('monitor_changes')
        .where('monitor_id', '=', monitorId)
        .where('created_at', '<=', changes.created_at)
        .execute();
  }

  // -------------------------------------------------------------------------------------------
  // History, newest first, a page at a time.

  /** `offset` applies when no cursor is given (AnyCrawl's older clients page by offset). */
  async snapshotsPage(monitorId: string, at: PageAt): Promise<Page<SnapshotRow>> {
    const after = decode(at.cursor)?.[0];
    let query = this.db.selectFrom('monitor_snapshots').selectAll().where('monitor_id', '=', monitorId);
    if (typeof after === 'number') query = query.where('sequence_number', '<', after);
    else if (at.offset) query = query.offset(at.offset);
    const { limit } = at;
    const rows = await query
      .orderBy('sequence_number', 'desc')
      .limit(limit + 1)
      .execute();
    return paged(rows, limit, (r) => [r.sequence_number]);
  }

  async snapshot(monitorId: string, id: string): Promise<SnapshotRow | undefined> {
    return this.db
      .selectFrom('monitor_snapshots')
      .selectAll()
      .where('monitor_id', '=', monitorId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async checksPage(monitorId: string, limit: number): Promise<CheckRow[]> {
    return this.db
      .selectFrom('monitor_checks')
      .selectAll()
      .where('monitor_id', '=', monitorId)
      .orderBy('sequence_number', 'desc')
      .limit(limit)
      .execute();
  }

  /** Changes of one monitor, or of all the owner's monitors (the feed), newest first. */
  async changesPage(
    scope: { monitorId: string } | { ownerId: string },
    at: PageAt,
    changeType: string | undefined,
  ): Promise<Page<ChangeRow>> {
    const { limit } = at;
    let query = this.db.selectFrom('monitor_changes').selectAll();
    query =
      'monitorId' in scope
        ? query.where('monitor_id', '=', scope.monitorId)
        : query.where('owner_id', '=', scope.ownerId);
    if (changeType) query = query.where('change_type', '=', changeType);
    const after = decode(at.cursor);
    if (after && typeof after[0] === 'string' && typeof after[1] === 'string') {
      const [createdAt, id] = after as [string, string];
      query = query.where((eb) =>
        eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]),
      );
    } else if (at.offset) query = query.offset(at.offset);
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    return paged(rows, limit, (r) => [r.created_at, r.id]);
  }

  async change(monitorId: string, id: string): Promise<ChangeRow | undefined> {
    return this.db
      .selectFrom('monitor_changes')
      .selectAll()
      .where('monitor_id', '=', monitorId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** One check of a monitor, with the snapshot and the change it recorded (either may be absent). */
  async checkWithRecords(
    monitorId: string,
    checkId: string,
  ): Promise<{ check: CheckRow; snapshot?: SnapshotRow; change?: ChangeRow } | undefined> {
    const check = await this.db
      .selectFrom('monitor_checks')
      .selectAll()
      .where('monitor_id', '=', monitorId)
      .where('id', '=', checkId)
      .executeTakeFirst();
    if (!check) return undefined;
    const [snapshot, change] = await Promise.all([
      this.db
        .selectFrom('monitor_snapshots')
        .selectAll()
        .where('monitor_id', '=', monitorId)
        .where('check_id', '=', checkId)
        .executeTakeFirst(),
      this.db
        .selectFrom('monitor_changes')
        .selectAll()
        .where('monitor_id', '=', monitorId)
        .where('check_id', '=', checkId)
        .executeTakeFirst(),
    ]);
    return { check, ...(snapshot ? { snapshot } : {}), ...(change ? { change } : {}) };
  }

  /** Which of the monitors have a check pending or running. */
  async inProgress(monitorIds: readonly string[]): Promise<Set<string>> {
    if (monitorIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('monitor_checks')
      .select('monitor_id')
      .distinct()
      .where('monitor_id', 'in', [...monitorIds])
      .where('state', 'in', ['pending', 'processing'])
      .execute();
    return new Set(rows.map((r) => r.monitor_id));
  }

  /** Names and types of monitors by id (the change feed shows them). */
  async namesOf(ids: readonly string[]): Promise<Map<string, { name: string; monitor_type: string }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('monitors')
      .select(['id', 'name', 'monitor_type'])
      .where('id', 'in', [...ids])
      .execute();
    return new Map(rows.map((r) => [r.id, { name: r.name, monitor_type: r.monitor_type }]));
  }
}

function paged<T>(rows: T[], limit: number, key: (row: T) => Array<string | number>): Page<T> {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return { rows: page, nextCursor: more ? encode(key(page.at(-1) as T)) : null };
}

/**
 * Whether a check of the monitor's task is still to end: an active execution whose check is pending or processing (or
 * not yet made). An execution whose check has ended is one the scheduler has yet to close (a moment later, in the
 * process that ran the check): it does not hold back the next check.
 */
async function hasUnfinishedCheck(trx: Transaction<Database>, taskId: string): Promise<boolean> {
  const jobIds = await activeExecutionJobIds(trx, taskId);
  if (jobIds.length === 0) return false;
  const checkIds = jobIds.flatMap((id) => (id === null ? [] : [id]));
  if (checkIds.length < jobIds.length) return true;
  const ended = await trx
    .selectFrom('monitor_checks')
    .select('id')
    .where('id', 'in', checkIds)
    .where('state', 'in', ['completed', 'failed'])
    .execute();
  return ended.length < checkIds.length;
}
