// The scrape.* events: one constructor per type, each payload's shape declared once (docs/webhooks.md lists them).
import type { DomainEvent } from '../events/domain-event.js';
import {
  endedAt,
  type JobFacts,
  jobCreated,
  jobEvent,
  jobStarted,
  type JobTotals,
  totalsOf,
} from '../jobs/job-events.js';
import type { JobRow } from '../jobs/job-store.js';

export type ScrapeCompletedPayload = { job_id: string; status: 'completed'; url: string } & JobTotals & {
    created_at: string;
    completed_at: string;
  };
export type ScrapeFailedPayload = {
  job_id: string;
  status: 'failed';
  url: string;
  error_message: string;
  error_code: string;
  credits_used: number;
  created_at: string;
  completed_at: string;
};

export const scrapeEvents = {
  'scrape.created': (job: JobFacts) => jobCreated('scrape', job),
  'scrape.started': (job: JobFacts, startedAt: string) => jobStarted('scrape', job, startedAt),
  /** From the row as it ended. */
  'scrape.completed': (job: JobRow): DomainEvent<'scrape.completed', ScrapeCompletedPayload> => {
    const at = endedAt(job);
    return jobEvent('scrape.completed', job, at, {
      job_id: job.id,
      status: 'completed',
      url: job.url,
      ...totalsOf(job),
      created_at: job.created_at,
      completed_at: at,
    });
  },
  /** From the row as it ended; its error is the one the end wrote. */
  'scrape.failed': (job: JobRow): DomainEvent<'scrape.failed', ScrapeFailedPayload> => {
    const at = endedAt(job);
    return jobEvent('scrape.failed', job, at, {
      job_id: job.id,
      status: 'failed',
      url: job.url,
      error_message: job.error_message ?? 'The scrape failed',
      error_code: job.error_code ?? 'INTERNAL',
      credits_used: job.credits_used,
      created_at: job.created_at,
      completed_at: at,
    });
  },
};
