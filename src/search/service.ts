// The synchronous search operation: a job row and its events around one engine query and, with scrape_options, the
// scrapes of its results (docs/api.md, "POST /v1/search").
import { randomUUID } from 'node:crypto';
import type { TemplateRef } from '../domain/template-ref.js';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { OutboxSignal } from '../events/outbox.js';
import { InvalidInputError, OperationFailedError } from '../domain/errors.js';
import type { ValidationIssue } from '../domain/errors.js';
import { createJobWithEvents, endJobAlone } from '../jobs/job-store.js';
import type { Database } from '../store/schema.js';
import { type Clock, iso } from '../util/time.js';
import { classifyStoreError } from '../store/store-errors.js';
import { type Capabilities, unsupportedOptions } from '../scrape/capabilities.js';
import { classifyPageError, type PageFailure } from '../scrape/failures.js';
import { type PageResult, type PipelineDeps, runPageForIndex } from '../scrape/pipeline.js';
import { MAX_TIMEOUT_MS, type PageOptions, resolvePageOptions } from '../scrape/schema.js';
import { SearchEngineError, type SearchEngine, type SearchHit } from './engine.js';
import { searchEvents } from './events.js';
import { indexPage } from '../search-index/index-store.js';
import { searchableOf } from '../scrape/searchable.js';
import { type SearchRequest, type SearchScrapeOptions, searchQueryOf } from './schema.js';

export interface SearchServiceDeps {
  db: Kysely<Database>;
  /** The engines this deployment offers, by name; the first is the default. */
  engines: readonly SearchEngine[];
  /** Results are scraped through the scrape pipeline (address guard, page cache, extraction threads). */
  pipeline: PipelineDeps;
  capabilities: Capabilities;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** How long a finished job's record is kept. */
  retentionMs: number;
  outbox: OutboxSignal;
  /** Results scraped at once per search (SEARCH_SCRAPE_CONCURRENCY). */
  scrapeConcurrency: number;
  /** Scraped results go into the key's search index (SEARCH_INDEX). */
  searchIndex: boolean;
}

/** One result as answered: the engine's hit, and with scrape_options the page's formats or why it failed. */
export type SearchResultItem = {
  title: string;
  url: string;
  description: string;
  source: string;
} & Record<string, unknown>;

export interface SearchSuccess {
  job_id: string;
  engine: string;
  results: SearchResultItem[];
  template?: { template_id: string; version: number };
}

/** The scrapes of one search end within this; results not scraped by then fail with TIMEOUT. */
export const SEARCH_SCRAPE_DEADLINE_MS = MAX_TIMEOUT_MS;

const ENGINE_HINTS: Record<string, string> = {
  searxng: 'set SEARXNG_URL to a SearXNG instance to offer it',
  google: 'this service does not call Google; use searxng (SearXNG can query Google) or index',
  'ac-engine': "AnyCrawl's hosted engine is not part of this service; use searxng or index",
};

export class SearchService {
  private readonly engines: ReadonlyMap<string, SearchEngine>;

  constructor(private readonly deps: SearchServiceDeps) {
    this.engines = new Map(deps.engines.map((e) => [e.name, e]));
  }

  /** The engines offered, the default first. */
  offered(): string[] {
    return this.deps.engines.map((e) => e.name);
  }

  /**
   * `jobId` lets a caller (the scheduler) know the job's id before the search ends; `template` is the template the
   * request was expanded from, recorded with the job and in the answer.
   */
  async search(
    ownerId: string,
    request: SearchRequest,
    signal?: AbortSignal,
    run: { jobId?: string; template?: TemplateRef } = {},
  ): Promise<SearchSuccess> {
    const refused = this.refusals(request);
    if (refused.length > 0) throw new InvalidInputError(refused);
    const engine = this.engineFor(request.engine) as SearchEngine;
    const query = searchQueryOf(request);
    const scrapeOptions =
      request.scrape_options === undefined ? undefined : resolvePageOptions(pageOptionsOf(request.scrape_options));

    const { db, clock } = this.deps;
    const jobId = run.jobId ?? randomUUID();
    const createdAt = iso(clock());
    // A search job keeps its query where other jobs keep their URL.
    const job = { id: jobId, owner_id: ownerId, url: query.query, created_at: createdAt, engine: engine.name };
    await createJobWithEvents(
      db,
      {
        id: jobId,
        ownerId,
        kind: 'search',
        status: 'pending',
        url: query.query,
        options: { ...request, engine: engine.name, ...(run.template ? { template: run.template } : {}) },
        createdAt,
        startedAt: createdAt,
        expiresAt: iso(new Date(Date.parse(createdAt) + this.deps.retentionMs)),
      },
      [searchEvents['search.created'](job), searchEvents['search.started'](job, createdAt)],
      this.deps.outbox,
    );

    let hits: SearchHit[];
    try {
      hits = await engine.search(ownerId, query, signal);
    } catch (error) {
      throw await this.failed(jobId, engine.name, error);
    }
    let results: SearchResultItem[] = hits.map(itemOf);
    let scraped = 0;
    let failed = 0;
    if (scrapeOptions !== undefined && hits.length > 0) {
      results = await this.scrapeAll(ownerId, jobId, hits, scrapeOptions, signal);
      for (const item of results) {
        if (item.status === 'completed') scraped += 1;
        else failed += 1;
      }
    }
    await endJobAlone(
      db,
      jobId,
      {
        status: 'completed',
        at: iso(clock()),
        counts: { total: hits.length, completed: hits.length - failed, failed, credits_used: hits.length + scraped },
      },
      searchEvents['search.completed'],
      this.deps.outbox,
    );
    return {
      job_id: jobId,
      engine: engine.name,
      results,
      ...(run.template ? { template: { template_id: run.template.id, version: run.template.version } } : {}),
    };
  }

  /**
   * What this deployment refuses in a request that passed its schema: an engine it does not offer, what the engine
   * cannot do with the query, scrape options it cannot serve, a template. Tasks check their payload with it when saved.
   */
  refusals(request: SearchRequest): ValidationIssue[] {
    const issues = templateRefusals(request);
    const engine = this.engineFor(request.engine);
    if (engine === undefined) {
      const offered = this.offered();
      const name = request.engine ?? '';
      const hint = ENGINE_HINTS[name];
      issues.push({
        field: 'engine',
        code: 'custom',
        message:
          offered.length === 0
            ? 'No search engine is offered by this deployment (set SEARXNG_URL, or SEARCH_INDEX=true for the index)'
            : `Engine '${name}' is not offered by this deployment; it offers: ${offered.join(', ')}${hint ? ` (${hint})` : ''}`,
      });
    } else {
      issues.push(...(engine.check?.(searchQueryOf(request)) ?? []));
    }
    if (request.scrape_options !== undefined) {
      const options = resolvePageOptions(pageOptionsOf(request.scrape_options));
      issues.push(...unsupportedOptions(options, this.deps.capabilities, 'scrape_options'));
    }
    return issues;
  }

  /** The engine a request names, else the default; undefined when this deployment does not offer it. */
  private engineFor(name: string | undefined): SearchEngine | undefined {
    return this.engines.get(name ?? this.offered()[0] ?? '');
  }

  /** Ends the job failed and gives the error to answer with; a store failure is rethrown as it is (503). */
  private async failed(jobId: string, engine: string, error: unknown): Promise<unknown> {
    const failure = failureOf(error);
    const storeFailure = failure.code === 'INTERNAL' ? classifyStoreError(error) : undefined;
    if (failure.code === 'INTERNAL' && !storeFailure)
      this.deps.logger.error({ err: error, jobId, engine }, 'search failed on an internal error');
    const recorded = endJobAlone(
      this.deps.db,
      jobId,
      { status: 'failed', at: iso(this.deps.clock()), counts: { total: 0, failed: 0 }, error: failure },
      searchEvents['search.failed'],
      this.deps.outbox,
    );
    if (storeFailure) {
      await recorded.catch(() => undefined);
      return error;
    }
    await recorded;
    const data = { job_id: jobId, engine, status: 'failed' };
    if (error instanceof SearchEngineError)
      return new OperationFailedError(
        error.kind === 'timeout' ? 'timeout' : 'upstream',
        'Search engine failed',
        failure.code,
        failure.message,
        data,
      );
    if (failure.code === 'ABORTED')
      return new OperationFailedError('unavailable', 'Search stopped', failure.code, failure.message, data);
    return new OperationFailedError('internal', 'Internal server error', failure.code, failure.message, data);
  }

  /** Scrapes every hit, SEARCH_SCRAPE_CONCURRENCY at a time, each failure its own; in the hits' order. */
  private async scrapeAll(
    ownerId: string,
    jobId: string,
    hits: readonly SearchHit[],
    options: PageOptions,
    signal: AbortSignal | undefined,
  ): Promise<SearchResultItem[]> {
    const deadline = AbortSignal.timeout(SEARCH_SCRAPE_DEADLINE_MS);
    // The store failing under one result fails the search (503): the others stop with it.
    const storeDown = new AbortController();
    const stop = AbortSignal.any([deadline, storeDown.signal, ...(signal ? [signal] : [])]);
    const results: SearchResultItem[] = new Array<SearchResultItem>(hits.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < hits.length; i = next++) {
        const hit = hits[i] as SearchHit;
        try {
          results[i] = await this.scrapeOne(ownerId, jobId, hit, options, stop, deadline);
        } catch (error) {
          storeDown.abort(error);
          throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.deps.scrapeConcurrency, hits.length) }, worker));
    return results;
  }

  private async scrapeOne(
    ownerId: string,
    jobId: string,
    hit: SearchHit,
    options: PageOptions,
    stop: AbortSignal,
    deadline: AbortSignal,
  ): Promise<SearchResultItem> {
    const base = itemOf(hit);
    try {
      const run = { readCache: true, signal: stop, job: { ownerId, jobId } };
      const outcome = await runPageForIndex(hit.url, options, this.deps.pipeline, run, this.deps.searchIndex);
      const search = searchableOf(outcome);
      if (search) {
        const indexedAt = iso(this.deps.clock());
        await this.deps.db.transaction().execute((trx) => indexPage(trx, { ...search, ownerId, jobId, indexedAt }));
      }
      return { ...base, ...pageFields(outcome.page), status: 'completed' };
    } catch (error) {
      // The store failing under a page fails the whole search (503), as it fails a scrape.
      if (classifyStoreError(error) !== undefined) throw error;
      const failure: PageFailure = deadline.aborted
        ? { code: 'TIMEOUT', message: `Not scraped within the search's ${SEARCH_SCRAPE_DEADLINE_MS / 1000} s` }
        : classifyPageError(error);
      if (failure.code === 'INTERNAL')
        this.deps.logger.error({ err: error, jobId, url: hit.url }, 'a search result failed on an internal error');
      return { ...base, status: 'failed', error: failure.message, error_code: failure.code };
    }
  }
}

/** The page options of scrape_options (its template fields are not page options). */
function pageOptionsOf(options: SearchScrapeOptions): Omit<SearchScrapeOptions, 'template_id' | 'variables'> {
  const { template_id, variables, ...page } = options;
  void template_id;
  void variables;
  return page;
}

function itemOf(hit: SearchHit): SearchResultItem {
  return { title: hit.title, url: hit.url, description: hit.description, source: hit.source, ...hit.extra };
}

/** The page's formats and metadata; the hit keeps its own url and title (the page's are in metadata). */
function pageFields(page: PageResult): Record<string, unknown> {
  const { url, title, ...rest } = page;
  void url;
  void title;
  return rest;
}

/** Why a search failed: the engine's failure (its own codes), else as a page's failure is classified. */
function failureOf(error: unknown): { code: string; message: string } {
  if (error instanceof SearchEngineError)
    return {
      code: error.kind === 'timeout' ? 'SEARCH_ENGINE_TIMEOUT' : 'SEARCH_ENGINE_UNAVAILABLE',
      message: error.message,
    };
  return classifyPageError(error);
}

/**
 * A top-level template_id is expanded before a search reaches here (the route's hook, a task's payload); one that is
 * left was never looked up. A scrape template for the results is not supported.
 */
function templateRefusals(request: SearchRequest): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (request.template_id !== undefined)
    issues.push({ field: 'template_id', code: 'custom', message: `Template '${request.template_id}' not found` });
  if (request.scrape_options?.template_id !== undefined)
    issues.push({
      field: 'scrape_options.template_id',
      code: 'custom',
      message: 'A scrape template for the results is not supported; give the scrape options in scrape_options',
    });
  return issues;
}
