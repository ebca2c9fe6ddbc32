// The search.* events: one constructor per type, each payload's shape declared once (docs/webhooks.md lists them).
import type { DomainEvent } from '../events/domain-event.js';
import { endedAt, jobEvent, totalsOf, type JobFacts, type JobTotals } from '../jobs/job-events.js';
import type { JobRow } from '../jobs/job-store.js';

/** A search job's row keeps its query where other jobs keep their URL. */
export type SearchFacts = JobFacts & { engine: string };

type Base = { job_id: string; query: string; engine: string; created_at: string };
export type SearchCreatedPayload = Base & { status: 'created' };
export type SearchStartedPayload = Base & { status: 'running'; started_at: string };
/** `total` is the results answered; `completed` and `failed` the results scraped and not (with scrape_options). */
export type SearchCompletedPayload = Base & { status: 'completed' } & JobTotals & { completed_at: string };
export type SearchFailedPayload = Base & {
  status: 'failed';
  error_message: string;
  error_code: string;
  credits_used: number;
  completed_at: string;
};

function base(job: JobFacts, engine: string): Base {
  return { job_id: job.id, query: job.url, engine, created_at: job.created_at };
}

/** The engine a search job ran on, from its stored options. */
export function engineOf(job: JobRow): string {
  try {
    const options = JSON.parse(job.options) as { engine?: unknown };
    return typeof options.engine === 'string' ? options.engine : 'unknown';
  } catch {
    return 'unknown';
  }
}

export const searchEvents = {
  'search.created': (job: SearchFacts): DomainEvent<'search.created', SearchCreatedPayload> =>
    jobEvent('search.created', job, job.created_at, { ...base(job, job.engine), status: 'created' }),
  'search.started': (job: SearchFacts, startedAt: string): DomainEvent<'search.started', SearchStartedPayload> =>
    jobEvent('search.started', job, startedAt, { ...base(job, job.engine), status: 'running', started_at: startedAt }),
  /** From the row as it ended. */
  'search.completed': (job: JobRow): DomainEvent<'search.completed', SearchCompletedPayload> => {
    const at = endedAt(job);
    return jobEvent('search.completed', job, at, {
      ...base(job, engineOf(job)),
      status: 'completed',
      ...totalsOf(job),
      completed_at: at,
    });
  },
  /** From the row as it ended; its error is the one the end wrote. */
  'search.failed': (job: JobRow): DomainEvent<'search.failed', SearchFailedPayload> => {
    const at = endedAt(job);
    return jobEvent('search.failed', job, at, {
      ...base(job, engineOf(job)),
      status: 'failed',
      error_message: job.error_message ?? 'The search failed',
      error_code: job.error_code ?? 'INTERNAL',
      credits_used: job.credits_used,
      completed_at: at,
    });
  },
};
