// The scrape.* events: one constructor per type, each payload's shape declared once (docs/webhooks.md lists them).
// They report single scrapes (POST /v1/scrape) and batch scrapes (jobs of kind `batch_scrape`, src/batch/), whose
// payloads say so with `batch: true`.
import type { DomainEvent } from '../events/domain-event.js';
import {
  type JobCompletedPayload,
  type JobCancelledPayload,
  jobCompleted,
  jobCancelled,
  endedAt,
  type JobCreatedPayload,
  type JobFacts,
  jobCreated,
  jobEvent,
  jobStarted,
  type JobStartedPayload,
  type JobTotals,
} from '../jobs/job-events.js';
import type { JobRow } from '../jobs/job-store.js';

/** A scrape job's facts; `kind` is its row's (a batch's events are marked). */
export type ScrapeJobFacts = JobFacts & { kind?: string };

/** Present, as `true`, only in the events of a batch scrape job. */
export type BatchMark = { batch?: true };

export type ScrapeCompletedPayload = JobCompletedPayload & BatchMark;
export type ScrapeFailedPayload = {
  job_id: string;
  status: 'failed';
  url: string;
  error_message: string;
  error_code: string;
  credits_used: number;
  created_at: string;
  completed_at: string;
} & BatchMark &
  // A batch's counters (its pages known, saved, failed); a single scrape's are implied (one page, failed).
  Partial<Pick<JobTotals, 'total' | 'completed' | 'failed'>>;
export type ScrapeCancelledPayload = JobCancelledPayload & BatchMark;

function isBatch(job: { kind?: string }): boolean {
  return job.kind === 'batch_scrape';
}

function batchMark(job: { kind?: string }): BatchMark {
  return isBatch(job) ? { batch: true } : {};
}

export const scrapeEvents = {
  'scrape.created': (job: ScrapeJobFacts): DomainEvent<'scrape.created', JobCreatedPayload & BatchMark> => {
    const event = jobCreated('scrape', job);
    return { ...event, payload: { ...event.payload, ...batchMark(job) } };
  },
  'scrape.started': (
    job: ScrapeJobFacts,
    startedAt: string,
  ): DomainEvent<'scrape.started', JobStartedPayload & BatchMark> => {
    const event = jobStarted('scrape', job, startedAt);
    return { ...event, payload: { ...event.payload, ...batchMark(job) } };
  },
  /** From the row as it ended. */
  'scrape.completed': (job: JobRow): DomainEvent<'scrape.completed', ScrapeCompletedPayload> => {
    const event = jobCompleted('scrape', job);
    return { ...event, payload: { ...event.payload, ...batchMark(job) } };
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
      ...(isBatch(job) ? { batch: true as const, total: job.total, completed: job.completed, failed: job.failed } : {}),
    });
  },
  /** A batch scrape cancelled by its owner (a single scrape runs within its request and cannot be). */
  'scrape.cancelled': (job: JobRow): DomainEvent<'scrape.cancelled', ScrapeCancelledPayload> => {
    const event = jobCancelled('scrape', job);
    return { ...event, payload: { ...event.payload, ...batchMark(job) } };
  },
};
