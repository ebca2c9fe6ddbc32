// Job rows (scrapes now, crawls later): creation and state changes, each with its outbox event.
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { Database, JobTable } from '../store/schema.js';
import { type OutboxSignal, recordEvent } from '../events/outbox.js';

export type JobKind = 'scrape' | 'crawl';
export type JobRow = JobTable;

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
      total: 0,
      completed: 0,
      failed: 0,
      credits_used: 0,
      error_message: null,
      error_code: null,
      updated_at: job.createdAt,
    })
    .execute();
}

export async function updateJob(db: Executor, id: string, changes: Updateable<JobTable>): Promise<void> {
  await db.updateTable('jobs').set(changes).where('id', '=', id).execute();
}

/** A job of this owner, or undefined (another owner's job is as good as missing). */
export async function findJob(db: Executor, ownerId: string, id: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
}

/** Inserts the job and its first events in one transaction. */
export async function createJobWithEvents(
  db: Kysely<Database>,
  job: NewJob,
  events: Array<{ type: string; payload: Record<string, unknown> }>,
  signal?: OutboxSignal,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await insertJob(trx, job);
    for (const e of events) {
      await recordEvent(trx, { ownerId: job.ownerId, type: e.type, subjectId: job.id, payload: e.payload, createdAt: job.createdAt }, signal);
    }
  });
}
