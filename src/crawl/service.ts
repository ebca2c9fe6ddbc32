// Crawl operations behind the routes: create, status, results pages, cancel.
import { randomUUID } from 'node:crypto';
import { CapabilityUnavailableError, InvalidInputError } from '../domain/errors.js';
import type { Capabilities } from '../scrape/capabilities.js';
import type { Clock } from '../util/time.js';
import type { TemplateRef } from '../domain/template-ref.js';
import { type CrawlRequest, type CrawlRuleOverrides, crawlRefusals, resolveCrawlOptions } from './schema.js';
import { normalizeUrl } from './scope/index.js';
import { refuseBlockedSeed, type TargetGuard } from './seed-guard.js';
import { FrontierJobs, type FrontierJobStatus } from './frontier-jobs.js';
import type { CrawlStore } from './store.js';

export { RESULTS_PAGE_SIZE } from './frontier-jobs.js';

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

export type CrawlStatus = FrontierJobStatus;

export class CrawlService {
  private readonly jobs: FrontierJobs;

  constructor(private readonly deps: CrawlServiceDeps) {
    this.jobs = new FrontierJobs({
      store: deps.store,
      clock: deps.clock,
      retentionMs: deps.retentionMs,
      kind: 'crawl',
      resultsPath: (id) => `/v1/crawl/${id}`,
      failedMessage: 'The crawl failed',
      resultsCountFailed: false,
    });
  }

  /**
   * `template`: the template the request was expanded from, recorded with the job. `rules`: regex path rules and a
   * path prefix of a crawl started through /v2 (validated by its caller), in place of the request's globs.
   */
  async create(
    ownerId: string,
    request: CrawlRequest,
    template?: TemplateRef,
    rules?: CrawlRuleOverrides,
  ): Promise<{ job_id: string; status: 'created'; message: string }> {
    const options = resolveCrawlOptions(request);
    if (template) options.template = template;
    if (rules) {
      options.pathSyntax = 'regex';
      options.includePaths = rules.includeRegexes;
      options.excludePaths = rules.excludeRegexes;
      options.regexOnFullUrl = rules.regexOnFullUrl === true;
      if (rules.pathPrefix !== undefined) options.pathPrefix = rules.pathPrefix;
    }
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

  status(ownerId: string, id: string): Promise<CrawlStatus> {
    return this.jobs.status(ownerId, id);
  }

  results(ownerId: string, id: string, skip: number, baseUrl: string) {
    return this.jobs.results(ownerId, id, skip, baseUrl);
  }

  statusAndResults(ownerId: string, id: string, skip: number, baseUrl: string) {
    return this.jobs.statusAndResults(ownerId, id, skip, baseUrl);
  }

  failures(ownerId: string, id: string, max: number) {
    return this.jobs.failures(ownerId, id, max);
  }

  running(ownerId: string, max: number) {
    return this.jobs.running(ownerId, max);
  }

  cancel(ownerId: string, id: string): Promise<{ job_id: string; status: 'cancelled' }> {
    return this.jobs.cancel(ownerId, id);
  }
}
