// Crawl operations behind the routes: create, status, results pages, cancel.
import { randomUUID } from 'node:crypto';
import { CapabilityUnavailableError, ConflictError, InvalidInputError, NotFoundError } from '../domain/errors.js';
import type { Capabilities } from '../scrape/capabilities.js';
import { absoluteScreenshotUrl } from '../screenshots/store.js';
import type { Clock } from '../util/time.js';
import { type CrawlRequest, crawlRefusals, resolveCrawlOptions } from './schema.js';
import { normalizeUrl } from './scope/index.js';
import { refuseBlockedSeed, type TargetGuard } from './seed-guard.js';
import type { CrawlJob, CrawlStore } from './store.js';

export const RESULTS_PAGE_SIZE = 100;

export interface CrawlServiceDeps {
  store: CrawlStore;
  clock: Clock;
  capabilities: Capabilities;
  retentionMs: number;
  /** The address guard's settings: a private seed is refused at creation. */
  targets: TargetGuard;
  /** Called after a crawl is created, so a worker looks for work at once. */
  onCreated?: () => void;
}

export interface CrawlStatus {
  job_id: string;
  status: string;
  start_time: string;
  expires_at: string;
  credits_used: number;
  total: number;
  completed: number;
  failed: number;
  /** Only on a failed crawl: why (an extension of the interface's status object). */
  error?: { code: string; message: string };
}

export class CrawlService {
  constructor(private readonly deps: CrawlServiceDeps) {}

  async create(
    ownerId: string,
    request: CrawlRequest,
  ): Promise<{ job_id: string; status: 'created'; message: string }> {
    const options = resolveCrawlOptions(request);
    const refused = crawlRefusals(request, options, this.deps.capabilities);
    if (refused.length > 0) throw new CapabilityUnavailableError(refused);
    const seed = normalizeUrl(request.url);
    if (!seed)
      throw new InvalidInputError([
        { field: 'url', code: 'invalid_string', message: 'Must be an absolute http:// or https:// URL' },
      ]);
    options.seed = seed;
    await refuseBlockedSeed(seed, this.deps.targets);
    const id = randomUUID();
    await this.deps.store.create({
      id,
      ownerId,
      options,
      request: { ...request },
      now: this.deps.clock().toISOString(),
      retentionMs: this.deps.retentionMs,
    });
    this.deps.onCreated?.();
    return { job_id: id, status: 'created', message: 'Crawl job has been queued for processing' };
  }

  private async job(ownerId: string, id: string): Promise<CrawlJob> {
    const job = await this.deps.store.find(ownerId, id);
    // An expired job is gone even before the sweeper deletes its rows.
    if (!job || (job.expires_at !== null && job.expires_at < this.deps.clock().toISOString()))
      throw new NotFoundError('job');
    return job;
  }

  async status(ownerId: string, id: string): Promise<CrawlStatus> {
    const job = await this.job(ownerId, id);
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
        ? { error: { code: job.error_code ?? 'UNKNOWN', message: job.error_message ?? 'The crawl failed' } }
        : {}),
    };
  }

  async results(ownerId: string, id: string, skip: number, baseUrl: string) {
    const job = await this.job(ownerId, id);
    const data = await this.deps.store.results(id, skip, RESULTS_PAGE_SIZE);
    const nextSkip = skip + data.length;
    // `completed` counts saved results (written in the same transaction), so it says whether more exist now.
    const more = data.length === RESULTS_PAGE_SIZE && nextSkip < job.completed;
    return {
      success: true,
      status: job.status,
      total: job.total,
      completed: job.completed,
      credits_used: job.credits_used,
      ...(more ? { next: `${baseUrl}/v1/crawl/${id}?skip=${nextSkip}` } : {}),
      data: data.map((item) =>
        'screenshot' in item ? { ...item, screenshot: absoluteScreenshotUrl(item.screenshot, baseUrl) } : item,
      ),
    };
  }

  async cancel(ownerId: string, id: string): Promise<{ job_id: string; status: 'cancelled' }> {
    await this.job(ownerId, id);
    const outcome = await this.deps.store.cancel(ownerId, id, this.deps.clock().toISOString(), this.deps.retentionMs);
    if (outcome === 'missing') throw new NotFoundError('job');
    if (outcome === 'finished') throw new ConflictError('Job already finished', 'Finished jobs cannot be cancelled');
    return { job_id: id, status: 'cancelled' };
  }
}
