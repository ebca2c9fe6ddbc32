// What a client reads of a job on the crawl's frontier (a crawl, a batch scrape): its status, its results page by
// page, and its cancel. One implementation for both kinds, so their answers cannot drift apart.
import { ConflictError, NotFoundError } from '../domain/errors.js';
import { withAbsoluteScreenshots } from '../screenshots/store.js';
import type { Clock } from '../util/time.js';
import type { CrawlJob, CrawlStore, FrontierKind } from './store.js';

export const RESULTS_PAGE_SIZE = 100;

/** The error saved with a crawl's page that robots.txt disallows (its seed; disallowed links are never visited). */
export const ROBOTS_DISALLOWED_ERROR = 'Disallowed by robots.txt';

export interface FrontierJobStatus {
  job_id: string;
  status: string;
  start_time: string;
  expires_at: string;
  credits_used: number;
  total: number;
  completed: number;
  failed: number;
  /** Only on a failed job: why (an extension of the interface's status object). */
  error?: { code: string; message: string };
  /** Only on a job expanded from a template: which one and its version (docs/templates.md). */
  template?: { template_id: string; version: number };
}

export interface FrontierJobsOptions {
  store: CrawlStore;
  clock: Clock;
  retentionMs: number;
  kind: FrontierKind;
  /** The results route of a job, after the base URL (`/v1/crawl/<id>`), for `next`. */
  resultsPath: (id: string) => string;
  /** Used in a failed job's error when it recorded no message ("The crawl failed"). */
  failedMessage: string;
  /** Batch results pages also say how many pages failed (as AnyCrawl's do); crawl ones keep the interface's fields. */
  resultsCountFailed: boolean;
}

/** The request a job was created with, as stored with it. */
function requestOfJob(job: CrawlJob): Record<string, unknown> {
  const { request } = JSON.parse(job.options) as { request?: Record<string, unknown> };
  return request ?? {};
}

/** The template a job's stored options name, as its status shows it. */
function templateOfJob(job: CrawlJob): { template?: { template_id: string; version: number } } {
  const { resolved } = JSON.parse(job.options) as { resolved?: { template?: { id: string; version: number } } };
  const template = resolved?.template;
  return template ? { template: { template_id: template.id, version: template.version } } : {};
}

export class FrontierJobs {
  constructor(private readonly o: FrontierJobsOptions) {}

  private async job(ownerId: string, id: string): Promise<CrawlJob> {
    const job = await this.o.store.find(ownerId, id, this.o.kind);
    // An expired job is gone even before the sweeper deletes its rows.
    if (!job || (job.expires_at !== null && job.expires_at < this.o.clock().toISOString()))
      throw new NotFoundError('job');
    return job;
  }

  async status(ownerId: string, id: string): Promise<FrontierJobStatus> {
    return this.statusOf(await this.job(ownerId, id));
  }

  async results(ownerId: string, id: string, skip: number, baseUrl: string) {
    return this.resultsOf(await this.job(ownerId, id), skip, baseUrl);
  }

  /** The status and a results page read from one look at the job (Firecrawl's status pages show both). */
  async statusAndResults(ownerId: string, id: string, skip: number, baseUrl: string) {
    const job = await this.job(ownerId, id);
    return { status: this.statusOf(job), results: await this.resultsOf(job, skip, baseUrl) };
  }

  private statusOf(job: CrawlJob): FrontierJobStatus {
    return {
      job_id: job.id,
      status: job.status,
      start_time: job.created_at,
      expires_at: job.expires_at ?? '',
      credits_used: job.credits_used,
      total: job.total,
      completed: job.completed,
      failed: job.failed,
      ...(job.status === 'failed'
        ? { error: { code: job.error_code ?? 'UNKNOWN', message: job.error_message ?? this.o.failedMessage } }
        : {}),
      ...templateOfJob(job),
    };
  }

  private async resultsOf(job: CrawlJob, skip: number, baseUrl: string) {
    const id = job.id;
    const data = await this.o.store.results(id, skip, RESULTS_PAGE_SIZE);
    const nextSkip = skip + data.length;
    // `completed` counts saved results (written in the same transaction), so it says whether more exist now.
    const more = data.length === RESULTS_PAGE_SIZE && nextSkip < job.completed;
    return {
      success: true,
      status: job.status,
      total: job.total,
      completed: job.completed,
      ...(this.o.resultsCountFailed ? { failed: job.failed } : {}),
      credits_used: job.credits_used,
      ...(more ? { next: `${baseUrl}${this.o.resultsPath(id)}?skip=${nextSkip}` } : {}),
      data: data.map((item) => withAbsoluteScreenshots(item, baseUrl)),
    };
  }

  /** A job's failed pages (the first `max`), after the same ownership and expiry check as its status. */
  async failures(ownerId: string, id: string, max: number) {
    await this.job(ownerId, id);
    return this.o.store.failedPages(id, max);
  }

  /** The request a job was created with (as stored), after the same ownership and expiry check as its status. */
  async request(ownerId: string, id: string): Promise<Record<string, unknown>> {
    return requestOfJob(await this.job(ownerId, id));
  }

  /** The owner's running jobs of this kind (at most `max`), with the request each was created with. */
  async running(ownerId: string, max: number) {
    const jobs = await this.o.store.running(ownerId, this.o.kind, this.o.clock().toISOString(), max);
    return jobs.map((job) => ({ id: job.id, url: job.url, created_at: job.created_at, request: requestOfJob(job) }));
  }

  async cancel(ownerId: string, id: string): Promise<{ job_id: string; status: 'cancelled' }> {
    await this.job(ownerId, id);
    const now = this.o.clock().toISOString();
    const outcome = await this.o.store.cancel(ownerId, id, now, this.o.retentionMs, this.o.kind);
    if (outcome === 'missing') throw new NotFoundError('job');
    if (outcome === 'finished') throw new ConflictError('Job already finished', 'Finished jobs cannot be cancelled');
    return { job_id: id, status: 'cancelled' };
  }
}
