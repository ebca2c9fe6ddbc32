// The crawl.* events: one constructor per type, each payload's shape declared once (docs/webhooks.md lists them).
import type { DomainEvent } from '../events/domain-event.js';
import {
  type JobCancelledPayload,
  jobCancelled,
  endedAt,
  type JobFacts,
  jobCreated,
  jobEvent,
  jobStarted,
  type JobTotals,
  totalsOf,
} from '../jobs/job-events.js';
import type { JobRow } from '../jobs/job-store.js';

export type CrawlEndedPayload = { job_id: string; status: 'completed' | 'failed'; url: string } & JobTotals & {
    error_message?: string;
    error_code?: string;
    created_at: string;
    completed_at: string;
  };
export type CrawlCancelledPayload = JobCancelledPayload;

function ended<Status extends 'completed' | 'failed'>(
  status: Status,
  job: JobRow,
): DomainEvent<`crawl.${Status}`, CrawlEndedPayload> {
  const at = endedAt(job);
  return jobEvent(`crawl.${status}`, job, at, {
    job_id: job.id,
    status,
    url: job.url,
    ...totalsOf(job),
    ...(job.error_message ? { error_message: job.error_message } : {}),
    ...(job.error_code ? { error_code: job.error_code } : {}),
    created_at: job.created_at,
    completed_at: at,
  });
}

export const crawlEvents = {
  'crawl.created': (job: JobFacts) => jobCreated('crawl', job),
  'crawl.started': (job: JobFacts, startedAt: string) => jobStarted('crawl', job, startedAt),
  /** From the row as it ended (its counters, error and finished_at). */
  'crawl.completed': (job: JobRow) => ended('completed', job),
  'crawl.failed': (job: JobRow) => ended('failed', job),
  'crawl.cancelled': (job: JobRow) => jobCancelled('crawl', job),
};
