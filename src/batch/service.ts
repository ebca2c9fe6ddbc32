// Batch scrape operations behind the routes: create, status, results pages, cancel. A batch is a job of kind
// `batch_scrape` on the crawl's frontier (crawl/store.ts): its pages are the URLs given, run by the crawl worker.
import { randomUUID } from 'node:crypto';
import type { TemplateRef } from '../domain/template-ref.js';
import { CapabilityUnavailableError, InvalidInputError } from '../domain/errors.js';
import type { ValidationIssue } from '../domain/errors.js';
import { BlockedAddressError, checkHostLiteral } from '../net/address-guard.js';
import type { Capabilities } from '../scrape/capabilities.js';
import type { Clock } from '../util/time.js';
import { normalizeUrl } from '../crawl/scope/index.js';
import { FrontierJobs, type FrontierJobStatus } from '../crawl/frontier-jobs.js';
import type { CrawlStore } from '../crawl/store.js';
import { BATCH_LIMITS, type BatchScrapeRequest, batchRefusals, resolveBatchOptions } from './schema.js';

const KIND = 'batch_scrape';

export interface BatchServiceDeps {
  store: CrawlStore;
  clock: Clock;
  capabilities: Capabilities;
  retentionMs: number;
  /** ALLOW_LOCAL_TARGETS: a URL whose host is a private literal is invalid unless it is set. */
  allowPrivateTargets: boolean;
  /** Called after a batch is created, so a worker looks for work at once. */
  onCreated?: () => void;
}

export interface BatchCreated {
  job_id: string;
  status: 'created';
  total: number;
  invalid_urls?: string[];
  message: string;
}

/** A batch's status: a failed batch's error is its first page failure. */
export type BatchStatus = FrontierJobStatus;

/** The given URLs sorted: valid ones normalized and distinct in their order, and the issue of each invalid one. */
export function sortUrls(
  urls: readonly string[],
  allowPrivate: boolean,
): { valid: string[]; invalid: Array<{ index: number; url: string; issue: ValidationIssue }> } {
  const valid = new Set<string>();
  const invalid: Array<{ index: number; url: string; issue: ValidationIssue }> = [];
  urls.forEach((raw, index) => {
    const field = `urls.${index}`;
    const url = raw.length <= BATCH_LIMITS.maxUrlLength ? normalizeUrl(raw.trim()) : undefined;
    if (url === undefined) {
      const message =
        raw.length > BATCH_LIMITS.maxUrlLength
          ? `URLs are at most ${BATCH_LIMITS.maxUrlLength} characters`
          : 'Must be an absolute http:// or https:// URL';
      invalid.push({ index, url: raw, issue: { field, code: 'invalid_string', message } });
      return;
    }
    if (!allowPrivate) {
      // The literal check only: names are looked up when each page is fetched (and checked at connect time).
      const host = new URL(url).hostname;
      const literal = checkHostLiteral(host);
      if (!literal.allowed) {
        const blocked = new BlockedAddressError(host, literal.address, { reason: literal.reason });
        invalid.push({ index, url: raw, issue: { field, code: 'custom', message: blocked.message } });
        return;
      }
    }
    valid.add(url);
  });
  return { valid: [...valid], invalid };
}

export class BatchService {
  private readonly jobs: FrontierJobs;

  constructor(private readonly deps: BatchServiceDeps) {
    this.jobs = new FrontierJobs({
      store: deps.store,
      clock: deps.clock,
      retentionMs: deps.retentionMs,
      kind: KIND,
      resultsPath: (id) => `/v1/batch/scrape/${id}`,
      failedMessage: 'The batch failed',
      resultsCountFailed: true,
    });
  }

  /** `template`: the template the request was expanded from, recorded with the job. */
  async create(ownerId: string, request: BatchScrapeRequest, template?: TemplateRef): Promise<BatchCreated> {
    const options = resolveBatchOptions(request);
    if (template) options.template = template;
    const refused = batchRefusals(request, options, this.deps.capabilities);
    if (refused.length > 0) throw new CapabilityUnavailableError(refused);
    const { valid, invalid } = sortUrls(request.urls, this.deps.allowPrivateTargets);
    // Invalid URLs are a 400 naming each, unless the client lets them go and some URL is left to scrape.
    if (invalid.length > 0 && (request.ignore_invalid_urls === false || valid.length === 0))
      throw new InvalidInputError(invalid.map((i) => i.issue));
    const id = randomUUID();
    await this.deps.store.createBatch({
      id,
      ownerId,
      urls: valid,
      options,
      request: { ...request },
      now: this.deps.clock().toISOString(),
      retentionMs: this.deps.retentionMs,
    });
    this.deps.onCreated?.();
    const invalidUrls = [...new Set(invalid.map((i) => i.url))];
    return {
      job_id: id,
      status: 'created',
      total: valid.length,
      ...(invalidUrls.length > 0 ? { invalid_urls: invalidUrls } : {}),
      message: 'Batch scrape job has been queued for processing',
    };
  }

  status(ownerId: string, id: string): Promise<BatchStatus> {
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

  request(ownerId: string, id: string) {
    return this.jobs.request(ownerId, id);
  }

  cancel(ownerId: string, id: string): Promise<{ job_id: string; status: 'cancelled' }> {
    return this.jobs.cancel(ownerId, id);
  }
}
