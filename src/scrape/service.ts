// The synchronous scrape operation: a job row and its events around one run of the page pipeline.
import { setTimeout as delay } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import type { TemplateRef } from '../domain/template-ref.js';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { OutboxSignal } from '../events/outbox.js';
import { CapabilityUnavailableError } from '../domain/errors.js';
import { createJobWithEvents, endJobAlone } from '../jobs/job-store.js';
import { scrapeEvents } from './events.js';
import type { Database } from '../store/schema.js';
import { type Clock, iso } from '../util/time.js';
import { BrowserError } from '../browser/types.js';
import { type Capabilities, unsupportedOptions } from './capabilities.js';
import { ExtractError } from './extractor.js';
import { FetchError } from '../fetch/index.js';
import { classifyStoreError, type StoreFailure } from '../store/store-errors.js';
import { classifyPageError, type PageFailure, scrapeFailedError } from './failures.js';
import {
  type IndexedPageResult,
  type PageResult,
  type PipelineDeps,
  runGivenPage,
  runPageForIndex,
} from './pipeline.js';
import type { CachedPage } from './page-cache.js';
import { classifyMediaType } from '../page/content-type.js';
import { decodeBody, detectCharset } from '../fetch/index.js';
import { indexPage } from '../search-index/index-store.js';
import { searchableOf } from './searchable.js';
import { isRetryableStatus, MAX_PAGE_RETRIES, RETRYABLE_CODES, retryDelayMs } from './retry-policy.js';
import { type PageOptions, type PageOptionsInput, type ScrapeRequest, resolvePageOptions } from './schema.js';

export interface ScrapeServiceDeps {
  db: Kysely<Database>;
  pipeline: PipelineDeps;
  capabilities: Capabilities;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** How long a finished job's record is kept. */
  retentionMs: number;
  /** Base of the wait between tries of a page with `retry` (CRAWL_RETRY_BASE_MS). */
  retryBaseMs: number;
  /** The app's outbox signal, given with every event recorded. */
  outbox: OutboxSignal;
  /** Scraped pages go into the key's search index (SEARCH_INDEX); off when absent. */
  searchIndex?: boolean;
}

export interface ScrapeSuccess extends PageResult {
  job_id: string;
  /** The same id under AnyCrawl's name for it, which its SDKs read (`result.jobId`). */
  jobId: string;
  status: 'completed';
}

export class ScrapeService {
  constructor(private readonly deps: ScrapeServiceDeps) {}

  /**
   * One page, tried again with `retry` on what the crawl retries (a network error, a timeout, an
   * engine fault, 429 or 5xx) up to MAX_PAGE_RETRIES times; the last answer or error stands.
   */
  private async runWithRetries(
    url: string,
    options: PageOptions,
    retry: boolean,
    signal: AbortSignal | undefined,
    job: { ownerId: string; jobId: string },
  ): Promise<IndexedPageResult> {
    for (let retries = 0; ; retries++) {
      const mayRetry = retry && retries < MAX_PAGE_RETRIES;
      try {
        const run = { readCache: retries === 0, signal, job };
        const page = await runPageForIndex(url, options, this.deps.pipeline, run, this.deps.searchIndex === true);
        if (!mayRetry || !isRetryableStatus(page.page.metadata.status_code)) return page;
      } catch (error) {
        const known = error instanceof FetchError || error instanceof BrowserError || error instanceof ExtractError;
        if (!mayRetry || !known || !RETRYABLE_CODES.has(error.code)) throw error;
      }
      // An abort ends the wait early; the next try then fails at once with ABORTED.
      await delay(retryDelayMs(this.deps.retryBaseMs, retries), undefined, signal ? { signal } : {}).catch(
        () => undefined,
      );
    }
  }

  /**
   * `jobId` lets a caller (the scheduler) know the job's id before the scrape ends; `template` is the template the
   * request was expanded from, recorded with the job and in the page's metadata.
   */
  async scrape(
    ownerId: string,
    request: ScrapeRequest,
    signal?: AbortSignal,
    run: { jobId?: string; template?: TemplateRef } = {},
  ): Promise<ScrapeSuccess> {
    const options = resolvePageOptions(request);
    const refused = unsupportedOptions(options, this.deps.capabilities);
    if (refused.length > 0) throw new CapabilityUnavailableError(refused);

    const { db, clock } = this.deps;
    const jobId = run.jobId ?? randomUUID();
    const createdAt = iso(clock());
    const url = new URL(request.url).href;
    const job = { id: jobId, owner_id: ownerId, url, created_at: createdAt };
    await createJobWithEvents(
      db,
      {
        id: jobId,
        ownerId,
        kind: 'scrape',
        status: 'pending',
        url,
        options: { ...request, ...(run.template ? { template: run.template } : {}) },
        createdAt,
        startedAt: createdAt,
        expiresAt: iso(new Date(Date.parse(createdAt) + this.deps.retentionMs)),
      },
      [scrapeEvents['scrape.created'](job), scrapeEvents['scrape.started'](job, createdAt)],
      this.deps.outbox,
    );

    let outcome: IndexedPageResult;
    try {
      outcome = await this.runWithRetries(url, options, request.retry === true, signal, { ownerId, jobId });
    } catch (error) {
      // The store failing under the page (a full disk, an outage) is not the page's failure: the
      // answer is the store's 507/503, and the job is marked failed if the store still takes it.
      const pageFailure = classifyPageError(error);
      const storeFailure = pageFailure.code === 'INTERNAL' ? classifyStoreError(error) : undefined;
      const failure = storeFailure ? storeFailureOfPage(storeFailure) : pageFailure;
      if (failure.code === 'INTERNAL' && !storeFailure)
        this.deps.logger.error({ err: error, jobId, url }, 'scrape failed on an internal error');
      const finishedAt = iso(clock());
      const recorded = endJobAlone(
        db,
        jobId,
        { status: 'failed', at: finishedAt, counts: { total: 1, failed: 1 }, error: failure },
        scrapeEvents['scrape.failed'],
        this.deps.outbox,
      );
      if (storeFailure) {
        await recorded.catch(() => undefined);
        throw error;
      }
      await recorded;
      throw scrapeFailedError(failure, { job_id: jobId, url, status: 'failed' });
    }

    const finishedAt = iso(clock());
    const search = searchableOf(outcome);
    if (search)
      await db.transaction().execute((trx) => indexPage(trx, { ...search, ownerId, jobId, indexedAt: finishedAt }));
    await endJobAlone(
      db,
      jobId,
      { status: 'completed', at: finishedAt, counts: { total: 1, completed: 1, credits_used: 1 } },
      scrapeEvents['scrape.completed'],
      this.deps.outbox,
    );
    const page = run.template
      ? {
          ...outcome.page,
          metadata: {
            ...outcome.page.metadata,
            template_id: run.template.id,
            template_version: run.template.version,
          },
        }
      : outcome.page;
    return { job_id: jobId, jobId, status: 'completed', ...page };
  }

  /**
   * The formats of a file a client sent (Firecrawl's POST /v2/parse): HTML, XHTML or a text type, decoded as a fetched
   * page would be, extracted with `request`'s options. Nothing is fetched, rendered, cached or stored (no job, no
   * event, no credit): the answer is the only copy. A screenshot format is refused; another file type is
   * UNSUPPORTED_CONTENT_TYPE.
   */
  async parseFile(
    file: { name: string; mediaType: string; bytes: Buffer },
    request: PageOptionsInput,
    signal?: AbortSignal,
  ): Promise<PageResult> {
    const options = resolvePageOptions(request);
    const refused = unsupportedOptions(options, { ...this.deps.capabilities, browser: true }).concat(
      options.formats.flatMap((format, i) =>
        format === 'screenshot' || format === 'screenshot@fullPage'
          ? [{ field: `formats.${i}`, code: 'custom', message: 'A file is not rendered: no screenshot of it' }]
          : [],
      ),
    );
    if (refused.length > 0) throw new CapabilityUnavailableError(refused);
    const kind = classifyMediaType(file.mediaType);
    if (kind === 'unsupported') {
      throw scrapeFailedError(
        { code: 'UNSUPPORTED_CONTENT_TYPE', message: `Unsupported file type ${file.mediaType} (${file.name})` },
        { url: file.name, status: 'failed' },
      );
    }
    const { text } = decodeBody(file.bytes, detectCharset(file.bytes, undefined, kind));
    const now = iso(this.deps.clock());
    const page: CachedPage = {
      url: file.name,
      finalUrl: file.name,
      statusCode: 200,
      contentType: kind === 'sniff' ? 'text/html' : file.mediaType,
      headers: {},
      body: text,
      engine: 'upload',
      cachedAt: now,
    };
    try {
      return await runGivenPage(page, options, this.deps.pipeline, { readCache: false, ...(signal ? { signal } : {}) });
    } catch (error) {
      const failure = classifyPageError(error);
      if (failure.code === 'INTERNAL') this.deps.logger.error({ err: error, file: file.name }, 'parse failed');
      throw scrapeFailedError(failure, { url: file.name, status: 'failed' });
    }
  }
}

function storeFailureOfPage(kind: StoreFailure): PageFailure {
  return {
    code: 'INTERNAL',
    message:
      kind === 'full'
        ? 'The service ran out of storage space while saving the page'
        : 'The database became unreachable while saving the page',
  };
}
