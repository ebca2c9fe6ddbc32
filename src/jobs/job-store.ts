// The `jobs` table's one owner: job rows (scrapes, crawls, batch scrapes and maps), their counters, and every change of
// their state written together with the event that reports it, in the caller's transaction.
import type { Kysely, Transaction } from 'kysely';
import { type NewEvent, type OutboxSignal, recordEvent } from '../events/outbox.js';
import type { Dialect } from '../store/database.js';
import type { Database, JobTable } from '../store/schema.js';

export type JobKind = 'scrape' | 'crawl' | 'batch_scrape' | 'map' | 'search';
export type JobRow = JobTable;
/** A job's states: pending until it ends, then one of the three ends, never changed again. */
export type JobEndStatus = 'completed' | 'failed' | 'cancelled';

export interface NewJob {
  id: string;
  ownerId: string;
  kind: JobKind;
  status: string;
  url: string;
  options: Record<string, unknown>;
  createdAt: string;
  startedAt?: string | null;
  expiresAt?: string | null;
  /** Pages known at creation (a crawl's seed, a batch's URLs); 0 otherwise. */
  total?: number;
}

/** How a job ended: its end state, when, and what is written with it. */
export interface JobEnd {
  status: JobEndStatus;
  at: string;
  /** The counters at the end, when the end sets them (a scrape's one page). */
  counts?: Partial<Pick<JobRow, 'total' | 'completed' | 'failed' | 'credits_used'>>;
  error?: { message: string; code: string | null } | null;
  /** A new expiry, counted from the end (crawls are kept for their retention after they end). */
  expiresAt?: string;
}

type Executor = Kysely<Database> | Transaction<Database>;

export async function insertJob(db: Executor, job: NewJob): Promise<void> {
  await db
    .insertInto('jobs')
    .values({
      id: job.id,
      owner_id: job.ownerId,
      kind: job.kind,
      status: job.status,
      url: job.url,
      options: JSON.stringify(job.options),
      created_at: job.createdAt,
      started_at: job.startedAt ?? null,
      finished_at: null,
      expires_at: job.expiresAt ?? null,
      total: job.total ?? 0,
      completed: 0,
      failed: 0,
      credits_used: 0,
      error_message: null,
      error_code: null,
      updated_at: job.createdAt,
    })
    .execute();
}

/** Inserts the job and the events of its creation in the caller's transaction. */
export async function createJob(
  trx: Transaction<Database>,
  job: NewJob,
  events: readonly NewEvent[],
  signal?: OutboxSignal,
): Promise<void> {
  await insertJob(trx, job);
  for (const event of events) await recordEvent(trx, event, signal);
}

/** Inserts the job and its first events in a transaction of their own. */
export async function createJobWithEvents(
  db: Kysely<Database>,
  job: NewJob,
  events: readonly NewEvent[],
  signal?: OutboxSignal,
): Promise<void> {
  await db.transaction().execute((trx) => createJob(trx, job, events, signal));
}

/** A job of this owner, or undefined (another owner's job is as good as missing). */
export async function findJob(db: Executor, ownerId: string, id: string, kind?: JobKind): Promise<JobRow | undefined> {
  let query = db.selectFrom('jobs').selectAll().where('id', '=', id).where('owner_id', '=', ownerId);
  if (kind) query = query.where('kind', '=', kind);
  return query.executeTakeFirst();
}

/**
 * The ids of an owner's jobs of these kinds not expired at `now`, as a subquery for the owners of the rows that hang
 * off jobs (`where('job_id', 'in', ownerJobIds(…))`), so a read of them never reaches another owner's.
 */
export function ownerJobIds(db: Executor, ownerId: string, kinds: readonly JobKind[], now: string) {
  return db
    .selectFrom('jobs')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('kind', 'in', [...kinds])
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
}

/** An owner's running jobs of `kind` (pending, not expired), oldest first, at most `max`. */
export async function pendingJobsOfOwner(
  db: Executor,
  ownerId: string,
  kind: JobKind,
  now: string,
  max: number,
): Promise<JobRow[]> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('kind', '=', kind)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('created_at')
    .limit(max)
    .execute();
}

/** What an owner's jobs kept now add up to: credits used, running jobs, and when one last completed. */
export async function ownerUsage(
  db: Executor,
  ownerId: string,
): Promise<{ creditsUsed: number; pending: number; lastCompletedAt: string | null }> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number | string>('credits_used'), eb.lit(0)).as('credits'),
      eb.fn.sum<number | string>(eb.case().when('status', '=', 'pending').then(1).else(0).end()).as('pending'),
      eb.fn.max(eb.case().when('status', '=', 'completed').then(eb.ref('finished_at')).end()).as('last_completed'),
    ])
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return {
    creditsUsed: Number(row?.credits ?? 0),
    pending: Number(row?.pending ?? 0),
    lastCompletedAt: (row?.last_completed as string | null | undefined) ?? null,
  };
}

/** The job by id alone (workers, which act for every owner). */
export async function jobById(db: Executor, id: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Jobs by id, for views over many (a task's executions); missing ids are left out. */
export async function jobsByIds(db: Executor, ids: readonly string[]): Promise<JobRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/**
 * The job, locked against the other writers of its counters until the transaction ends: on
 * PostgreSQL a row lock (FOR UPDATE); SQLite has one writer at a time anyway. `ownerId` limits it
 * to one owner's jobs (an API call); without it, any owner's (a worker).
 */
export async function lockJob(
  trx: Transaction<Database>,
  dialect: Dialect,
  id: string,
  scope: { ownerId?: string; kind?: JobKind } = {},
): Promise<JobRow | undefined> {
  let query = trx.selectFrom('jobs').selectAll().where('id', '=', id);
  if (scope.ownerId !== undefined) query = query.where('owner_id', '=', scope.ownerId);
  if (scope.kind !== undefined) query = query.where('kind', '=', scope.kind);
  if (dialect === 'postgres') query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Sets a pending job's counters (pages known, saved, failed, credits) and the first error seen. */
export async function setJobProgress(
  trx: Transaction<Database>,
  id: string,
  progress: Pick<JobRow, 'total' | 'completed' | 'failed' | 'credits_used'> & {
    at: string;
    firstError?: { message: string; code: string };
  },
): Promise<void> {
  await trx
    .updateTable('jobs')
    .set({
      total: progress.total,
      completed: progress.completed,
      failed: progress.failed,
      credits_used: progress.credits_used,
      updated_at: progress.at,
      ...(progress.firstError
        ? { error_message: progress.firstError.message, error_code: progress.firstError.code }
        : {}),
    })
    .where('id', '=', id)
    .execute();
}

/**
 * Marks a pending job started at `at`, once, and records the event `eventOf` builds from it.
 * Answers false (and records nothing) when it had started or ended already.
 */
export async function startJob(
  trx: Transaction<Database>,
  id: string,
  at: string,
  eventOf: (job: JobRow) => NewEvent,
  signal?: OutboxSignal,
): Promise<boolean> {
  const job = await trx
    .updateTable('jobs')
    .set({ started_at: at, updated_at: at })
    .where('id', '=', id)
    .where('started_at', 'is', null)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (!job) return false;
  await recordEvent(trx, eventOf(job), signal);
  return true;
}

/**
 * Ends a pending job and records the event `eventOf` builds from the ended row, in the caller's
 * transaction: the only way a job ends, so no end is written without its event. Answers false
 * (and writes nothing) when the job had ended already or does not exist.
 */
export async function endJob(
  trx: Transaction<Database>,
  id: string,
  end: JobEnd,
  eventOf: (job: JobRow) => NewEvent,
  signal?: OutboxSignal,
): Promise<boolean> {
  const job = await trx
    .updateTable('jobs')
    .set({
      status: end.status,
      finished_at: end.at,
      updated_at: end.at,
      ...end.counts,
      ...(end.error !== undefined
        ? { error_message: end.error?.message ?? null, error_code: end.error?.code ?? null }
        : {}),
      ...(end.expiresAt !== undefined ? { expires_at: end.expiresAt } : {}),
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (!job) return false;
  await recordEvent(trx, eventOf(job), signal);
  return true;
}

/** endJob in a transaction of its own (a job whose end changes nothing else). */
export async function endJobAlone(
  db: Kysely<Database>,
  id: string,
  end: JobEnd,
  eventOf: (job: JobRow) => NewEvent,
  signal?: OutboxSignal,
): Promise<boolean> {
  return db.transaction().execute((trx) => endJob(trx, id, end, eventOf, signal));
}

/**
 * Fails a synchronous job (a scrape, a map) that was cut off: its process died or the store stopped taking its
 * last write. Recorded as `INTERRUPTED` with the failed event `eventOf` builds; false if it had ended meanwhile.
 */
export async function failInterruptedJob(
  db: Kysely<Database>,
  jobId: string,
  at: string,
  cut: { what: string; counts: JobEnd['counts']; eventOf: (job: JobRow) => NewEvent },
  outbox: OutboxSignal | undefined,
): Promise<boolean> {
  const message = `Interrupted: the ${cut.what} stopped before its result was saved (the process stopped or the store was unreachable)`;
  const end: JobEnd = { status: 'failed', at, counts: cut.counts, error: { message, code: 'INTERRUPTED' } };
  return endJobAlone(db, jobId, end, cut.eventOf, outbox);
}

/** Jobs of `kind` still pending that were created before `before` (a synchronous job runs within its request). */
export async function pendingJobsCreatedBefore(
  db: Executor,
  kind: JobKind,
  before: string,
  limit: number,
): Promise<JobRow[]> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('kind', '=', kind)
    .where('status', '=', 'pending')
    .where('created_at', '<', before)
    .limit(limit)
    .execute();
}

/** Ids of jobs of `kind` past their expiry at `now`, at most `limit`. */
export async function expiredJobIds(db: Executor, kind: JobKind, now: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('jobs')
    .select('id')
    .where('kind', '=', kind)
    .where('expires_at', '<', now)
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Deletes job rows; what hangs off them (pages, results, screenshots) is their owners' to delete first. */
export async function deleteJobs(trx: Executor, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await trx
    .deleteFrom('jobs')
    .where('id', 'in', [...ids])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
