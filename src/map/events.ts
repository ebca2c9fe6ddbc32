// The map.* events: one constructor per type, each payload's shape declared once (docs/webhooks.md lists them).
import type { DomainEvent } from '../events/domain-event.js';
import {
  type JobCompletedPayload,
  jobCompleted,
  endedAt,
  type JobFacts,
  jobCreated,
  jobEvent,
  jobStarted,
} from '../jobs/job-events.js';
import type { JobRow } from '../jobs/job-store.js';

/** `total` is the number of links found; `failed` the sources (sitemaps, the start page) that could not be read. */
export type MapCompletedPayload = JobCompletedPayload;
export type MapFailedPayload = {
  job_id: string;
  status: 'failed';
  url: string;
  total: number;
  error_message: string;
  error_code: string;
  credits_used: number;
  created_at: string;
  completed_at: string;
};

export const mapEvents = {
  'map.created': (job: JobFacts) => jobCreated('map', job),
  'map.started': (job: JobFacts, startedAt: string) => jobStarted('map', job, startedAt),
  /** From the row as it ended. */
  'map.completed': (job: JobRow) => jobCompleted('map', job),
  /** From the row as it ended; its error is the one the end wrote. */
  'map.failed': (job: JobRow): DomainEvent<'map.failed', MapFailedPayload> => {
    const at = endedAt(job);
    return jobEvent('map.failed', job, at, {
      job_id: job.id,
      status: 'failed',
      url: job.url,
      total: job.total,
      error_message: job.error_message ?? 'The map failed',
      error_code: job.error_code ?? 'INTERNAL',
      credits_used: job.credits_used,
      created_at: job.created_at,
      completed_at: at,
    });
  },
};
