// Payloads every kind of job shares (created, started, completed, cancelled), built from the job's row.
import type { DomainEvent } from '../events/domain-event.js';
import type { JobKind, JobRow } from './job-store.js';

/** The facts of a job its events carry (a row, or what a caller knows before the row exists). */
export type JobFacts = Pick<JobRow, 'id' | 'owner_id' | 'url' | 'created_at'>;

export type JobCreatedPayload = { job_id: string; status: 'created'; url: string; created_at: string };
export type JobStartedPayload = {
  job_id: string;
  status: 'running';
  url: string;
  created_at: string;
  started_at: string;
};

export function jobEvent<Type extends string, Payload extends Record<string, unknown>>(
  type: Type,
  job: JobFacts,
  at: string,
  payload: Payload,
): DomainEvent<Type, Payload> {
  return { type, ownerId: job.owner_id, subjectId: job.id, createdAt: at, payload };
}

export function jobCreated<Kind extends JobKind>(
  kind: Kind,
  job: JobFacts,
): DomainEvent<`${Kind}.created`, JobCreatedPayload> {
  return jobEvent(`${kind}.created`, job, job.created_at, {
    job_id: job.id,
    status: 'created',
    url: job.url,
    created_at: job.created_at,
  });
}

export function jobStarted<Kind extends JobKind>(
  kind: Kind,
  job: JobFacts,
  startedAt: string,
): DomainEvent<`${Kind}.started`, JobStartedPayload> {
  return jobEvent(`${kind}.started`, job, startedAt, {
    job_id: job.id,
    status: 'running',
    url: job.url,
    created_at: job.created_at,
    started_at: startedAt,
  });
}

export type JobTotals = { total: number; completed: number; failed: number; credits_used: number };

/** A job's counters, as its end events carry them. */
export function totalsOf(job: JobRow): JobTotals {
  return { total: job.total, completed: job.completed, failed: job.failed, credits_used: job.credits_used };
}

/** When an ended job ended (its finished_at; updated_at for a row written before it was set). */
export function endedAt(job: JobRow): string {
  return job.finished_at ?? job.updated_at;
}

export type JobCompletedPayload = { job_id: string; status: 'completed'; url: string } & JobTotals & {
    created_at: string;
    completed_at: string;
  };
export type JobCancelledPayload = { job_id: string; status: 'cancelled'; url: string } & JobTotals & {
    created_at: string;
    cancelled_at: string;
  };

/** A job that completed, from its row as it ended (its counters and finished_at). */
export function jobCompleted<Kind extends JobKind>(
  kind: Kind,
  job: JobRow,
): DomainEvent<`${Kind}.completed`, JobCompletedPayload> {
  const at = endedAt(job);
  return jobEvent(`${kind}.completed`, job, at, {
    job_id: job.id,
    status: 'completed',
    url: job.url,
    ...totalsOf(job),
    created_at: job.created_at,
    completed_at: at,
  });
}

/** A job its owner cancelled, from its row as it ended. */
export function jobCancelled<Kind extends JobKind>(
  kind: Kind,
  job: JobRow,
): DomainEvent<`${Kind}.cancelled`, JobCancelledPayload> {
  const at = endedAt(job);
  return jobEvent(`${kind}.cancelled`, job, at, {
    job_id: job.id,
    status: 'cancelled',
    url: job.url,
    ...totalsOf(job),
    created_at: job.created_at,
    cancelled_at: at,
  });
}
