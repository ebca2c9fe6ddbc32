// The crawl worker: leases frontier pages from the store, runs the page pipeline, records outcomes; never throws.
// It runs the pages of crawls and of batch scrapes (src/batch/) alike; what only a crawl does (robots.txt, link
// discovery, scope and scrape_paths, redirect aliases, 4xx/5xx as failures) is switched on the job's kind.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { BrowserError } from '../browser/types.js';
import { ExtractError } from '../scrape/extractor.js';
import { FetchError } from '../fetch/index.js';
import { type IndexedPageResult, type PageResult, type PipelineDeps, runPageForIndex } from '../scrape/pipeline.js';
import type { SearchablePage } from '../search-index/index-store.js';
import { searchableOf } from '../scrape/searchable.js';
import { isRetryableStatus, MAX_PAGE_RETRIES, RETRYABLE_CODES, retryDelayMs } from '../scrape/retry-policy.js';
import type { Format } from '../scrape/schema.js';
import type { Clock } from '../util/time.js';
import { classifyStoreError } from '../store/store-errors.js';
import { BackgroundLoop, type StepResult } from '../util/background-loop.js';
import { LOOP_BACKOFF_CAP_MS, LoopFailures } from '../util/loop-failures.js';
import { LruCache } from '../util/lru.js';
import { HostLimiter } from './host-limiter.js';
import { LeaseFence } from './lease-fence.js';
import type { RobotsCache } from './robots-cache.js';
import type { CrawlOptions, PageJobOptions } from './schema.js';
import { createScope, normalizeUrl, type Scope } from './scope/index.js';
import type { ClaimedPage, CrawlStore, PageOutcome } from './store.js';
import { ROBOTS_DISALLOWED_ERROR } from './frontier-jobs.js';

export interface CrawlRunnerOptions {
  store: CrawlStore;
  pipeline: PipelineDeps;
  robots: RobotsCache | undefined;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Pages in flight in this process, over all crawls. */
  concurrency: number;
  /** Pages in flight per crawl (over all workers). */
  jobConcurrency: number;
  hostConcurrency: number;
  /** How long a claim on a page lasts without renewal; renewals every fifth of it (leaseHeartbeatMs). */
  leaseMs: number;
  retentionMs: number;
  /** Idle poll interval; new work also wakes the loop at once. */
  pollMs?: number;
  /** Base of the retry backoff (attempt n waits base * 2^(n-1)). */
  retryBaseMs?: number;
  /** Saved pages go into the key's search index (SEARCH_INDEX); off when absent. */
  searchIndex?: boolean;
}

interface CrawlContext {
  kind: 'crawl';
  options: CrawlOptions;
  ownerId: string;
  scope: Scope;
  /**
   * The crawl has admitted as many pages as its limit allows (its `total` only grows): links
   * found from now on can never be visited, so they are neither extracted nor checked.
   */
  frontierFull: boolean;
}

/**
 * A batch scrape: its pages are the URLs it was given, each run as a scrape would run it (no robots.txt, no
 * discovery, no scope; the page cache read within `max_age`; any answer saved with its status_code).
 */
interface BatchContext {
  kind: 'batch_scrape';
  options: PageJobOptions;
  ownerId: string;
}

type JobContext = CrawlContext | BatchContext;

/**
 * Crawl contexts (options, scope) a worker keeps; past this many, the one used longest ago is dropped and loaded again
 * when next needed.
 */
const JOB_CONTEXTS = 1000;

/** Links of one page considered for discovery; real pages stay far below (a long wiki page has a few thousand). */
export const MAX_LINKS_PER_PAGE = 10_000;
/** Links checked in one turn of the event loop before other work gets its turn. */
const LINKS_PER_TURN = 500;

class RetryablePageError extends Error {}

/**
 * The heartbeat of a lease of `leaseMs`: leases are renewed, and expired ones taken back, this
 * often. A worker gives a page up this long before its lease would run out (the fence's margin),
 * so up to three heartbeats in a row may fail before it does. Defaults: 10 s lease, 2 s heartbeat,
 * work stopped 8 s after the last renewal that got through.
 */
export function leaseHeartbeatMs(leaseMs: number): number {
  return Math.max(100, Math.floor(leaseMs / 5));
}

export class CrawlRunner {
  readonly workerId = randomUUID();
  private readonly hosts: HostLimiter;
  private readonly jobs = new LruCache<string, JobContext>(JOB_CONTEXTS);
  private readonly loop: BackgroundLoop;
  /** When the loop last took back expired leases (once a heartbeat). */
  private lastRelease = 0;
  private readonly inFlight = new Set<Promise<void>>();
  /** Pages this worker is working on, from their claim until their task ends (whatever the fence says). */
  private readonly working = new Set<number>();
  /**
   * A claim failed: its commit may have gone through with its answer lost, leaving pages leased
   * to this worker that it does not know of. They are given back at the next turn that reaches the store.
   */
  private claimInDoubt = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private renewing = false;
  private lastHeartbeat = 0;
  private readonly heartbeatMs: number;
  /** Stops a page's work before its lease could be taken elsewhere (lease-fence.ts). */
  private readonly fence: LeaseFence;

  /** Free slots that make a claim worth its transaction (a quarter of the concurrency). */
  private readonly claimBatch: number;
  private readonly pollMs: number;
  /** Outcome writes waiting for the store to come back (shared back-off; logged once per outage). */
  private readonly writeFailures: LoopFailures;

  constructor(private readonly o: CrawlRunnerOptions) {
    this.hosts = new HostLimiter(o.hostConcurrency);
    this.claimBatch = Math.max(1, Math.floor(o.concurrency / 4));
    this.heartbeatMs = leaseHeartbeatMs(o.leaseMs);
    this.pollMs = o.pollMs ?? 500;
    this.loop = new BackgroundLoop({ name: 'crawl worker', logger: o.logger, backoffBaseMs: this.pollMs });
    this.writeFailures = new LoopFailures({
      name: 'crawl page outcomes',
      logger: o.logger,
      baseMs: 100,
      capMs: LOOP_BACKOFF_CAP_MS,
    });
    this.fence = new LeaseFence({
      leaseMs: o.leaseMs,
      marginMs: this.heartbeatMs,
      onFenced: (pageId, reason) =>
        o.logger.warn(
          { pageId, reason },
          reason === 'lost'
            ? 'crawl page taken by another worker: stopped'
            : 'crawl page lease not renewed in time: stopped',
        ),
    });
  }

  start(): void {
    if (!this.loop.stopped) return;
    this.heartbeat = setInterval(() => void this.renew(), this.heartbeatMs);
    this.heartbeat.unref();
    this.lastRelease = 0;
    this.loop.start(() => this.step());
  }

  /** New work exists (a crawl was created, a page ended): look now instead of at the next poll. */
  notify(): void {
    this.loop.wake();
  }

  /** Stops taking work and waits for the pages in flight; their leases are kept valid until then. */
  async stop(): Promise<void> {
    if (this.loop.stopped) return;
    await this.loop.stop();
    await Promise.allSettled([...this.inFlight]);
    if (this.heartbeat) clearInterval(this.heartbeat);
  }

  private now(): string {
    return this.o.clock().toISOString();
  }

  private async renew(): Promise<void> {
    // How late this heartbeat fired: the event loop was blocked that long (a synchronous store waiting for a lock).
    const tick = performance.now();
    const lateMs = this.lastHeartbeat === 0 ? 0 : Math.max(0, tick - this.lastHeartbeat - this.heartbeatMs);
    this.lastHeartbeat = tick;
    // One renewal at a time: a slow store must not pile them up; the fence covers the wait.
    if (this.renewing) return;
    this.renewing = true;
    const sentAt = this.fence.beforeRenewal(lateMs);
    try {
      const ids = this.fence.ids();
      const held = await this.o.store.renewLeases(
        this.workerId,
        new Date(this.o.clock().getTime() + this.o.leaseMs).toISOString(),
        ids,
      );
      this.fence.renewed(sentAt, held);
    } catch (error) {
      this.fence.renewalFailed(sentAt);
      // An outage is reported once by the loop; anything else here is worth a line each time.
      if (classifyStoreError(error) === undefined) this.o.logger.error({ err: error }, 'crawl lease renewal failed');
    } finally {
      this.renewing = false;
    }
  }

  /** One turn of the loop: take back expired leases when due, claim pages if enough slots are free. */
  private async step(): Promise<StepResult> {
    // Every heartbeat: a dead worker's pages are queued again within a heartbeat of their lease's end.
    const releasing = Date.now() - this.lastRelease >= this.heartbeatMs;
    if (releasing) {
      this.lastRelease = Date.now();
      const released = await this.o.store.releaseExpiredLeases(this.now());
      if (released > 0) this.o.logger.info({ released }, 'took back crawl pages whose lease expired');
    }
    if (this.claimInDoubt) {
      // Claims happen only in this loop, so every page leased to this worker is in `working` but those of the lost
      // answer.
      const released = await this.o.store.releaseUnworked(this.workerId, [...this.working]);
      this.claimInDoubt = false;
      if (released > 0) this.o.logger.info({ released }, 'gave back crawl pages of a claim whose answer was lost');
    }
    const free = this.o.concurrency - this.working.size;
    // A claim is a transaction of its own: while pages are in flight it waits until a batch
    // of slots is free, instead of costing one transaction for every page that ends.
    const worthClaiming = free >= this.claimBatch || (free > 0 && this.working.size === 0);
    // Taken with the claim's `now`: the lease's local deadline starts no later than the lease itself.
    const since = performance.now();
    let claimed: ClaimedPage[] = [];
    if (worthClaiming) {
      try {
        claimed = await this.o.store.claim({
          owner: this.workerId,
          now: this.now(),
          leaseMs: this.o.leaseMs,
          max: free,
          perJob: this.o.jobConcurrency,
        });
      } catch (error) {
        this.claimInDoubt = true;
        throw error;
      }
    }
    for (const page of claimed) this.launch(page, since);
    // Pages that end wake the loop: it sleeps while it cannot claim a batch.
    const sleepMs = claimed.length === 0 || this.working.size + this.claimBatch > this.o.concurrency ? this.pollMs : 0;
    // A turn that asked the store nothing says nothing of an outage (pages in flight may be waiting for the store).
    return releasing || worthClaiming ? sleepMs : { sleepMs, tried: false };
  }

  private launch(page: ClaimedPage, since: number): void {
    this.working.add(page.id);
    const signal = this.fence.hold(page.id, since);
    const task = this.run(page, signal)
      .catch((error: unknown) =>
        this.o.logger.error({ err: error, jobId: page.jobId, url: page.url }, 'crawl page failed unexpectedly'),
      )
      .finally(() => {
        this.fence.drop(page.id);
        this.working.delete(page.id);
        this.inFlight.delete(task);
        this.notify();
      });
    this.inFlight.add(task);
  }

  private async context(jobId: string): Promise<JobContext | undefined> {
    const cached = this.jobs.get(jobId);
    if (cached) return cached;
    const row = await this.o.store.options(jobId);
    if (!row) return undefined;
    if (row.kind === 'batch_scrape') {
      const batch: BatchContext = { kind: 'batch_scrape', options: row.resolved, ownerId: row.ownerId };
      this.jobs.set(jobId, batch);
      return batch;
    }
    const options = row.resolved;
    const ctx: JobContext = {
      kind: 'crawl',
      options,
      ownerId: row.ownerId,
      scope: createScope({
        seed: options.seed,
        strategy: options.strategy,
        includePaths: options.includePaths,
        excludePaths: options.excludePaths,
        scrapePaths: options.scrapePaths,
        maxDepth: options.maxDepth,
        pathSyntax: options.pathSyntax,
        regexOnFullUrl: options.regexOnFullUrl,
        pathPrefix: options.pathPrefix,
      }),
      frontierFull: false,
    };
    this.jobs.set(jobId, ctx);
    return ctx;
  }

  /**
   * Asked before a page's outcome is written, once its fetch is over. False once the page was
   * fenced (its lease may be another worker's by now): nothing of it is written, and it is given
   * back to the queue if this worker still holds it (a slow store), else its lease runs out or is
   * already another's. True: the fence lets the page go (its work on the target is done, so a
   * renewal that no longer finds it once it is written is no theft); the write itself is made
   * only under the lease.
   */
  private async stillHeld(page: ClaimedPage): Promise<boolean> {
    if (!this.fence.fenced(page.id)) {
      this.fence.drop(page.id);
      return true;
    }
    await this.o.store
      .release(page.id, this.workerId)
      .catch((error: unknown) =>
        this.o.logger.warn(
          { err: error, pageId: page.id },
          'could not give back a stopped crawl page; its lease will run out',
        ),
      );
    return false;
  }

  /**
   * Runs a page; when the store fails under it (an outage, a full disk) the page is not the
   * culprit: it is not failed, but given back to the queue (without using up a retry) once the
   * store takes writes again, so the crawl resumes without waiting out a lease nobody lost.
   */
  private async run(page: ClaimedPage, signal: AbortSignal): Promise<void> {
    try {
      await this.process(page, signal);
    } catch (error) {
      if (classifyStoreError(error) === undefined) throw error;
      this.fence.drop(page.id);
      await this.whileStoreFails(() => this.o.store.release(page.id, this.workerId));
    }
  }

  /**
   * Repeats a write while the store is unreachable or full, with the shared back-off; gives up
   * (throws) on any other error, or once the runner stops (the page's lease then runs out).
   */
  private async whileStoreFails<T>(write: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        const result = await write();
        this.writeFailures.succeeded();
        return result;
      } catch (error) {
        if (classifyStoreError(error) === undefined || this.loop.stopped) throw error;
        await new Promise((resolve) => setTimeout(resolve, this.writeFailures.failed(error)));
      }
    }
  }

  private async process(page: ClaimedPage, signal: AbortSignal): Promise<void> {
    const ctx = await this.context(page.jobId);
    if (!ctx) return;
    const { options } = ctx;
    const base = {
      pageId: page.id,
      jobId: page.jobId,
      leaseOwner: this.workerId,
      linkDepth: page.depth + 1,
      // A batch admits no page after its creation.
      limit: ctx.kind === 'crawl' ? ctx.options.limit : 0,
      retentionMs: this.o.retentionMs,
      links: [] as string[],
    };

    let delayMs = 0;
    // A batch is scrapes of URLs its client named: like /v1/scrape, it does not read robots.txt.
    if (this.o.robots && ctx.kind === 'crawl') {
      const rules = await this.o.robots.rulesFor(page.url, options.page.proxy);
      if (!rules.isAllowed(page.url)) {
        if (!(await this.stillHeld(page))) return;
        // An unreachable robots.txt disallows everything: the failure names why it could not be had.
        const failed = rules.unavailable
          ? { error: rules.unavailable.message, code: rules.unavailable.code }
          : { error: ROBOTS_DISALLOWED_ERROR, code: 'ROBOTS_DISALLOWED' };
        await this.whileStoreFails(() => this.o.store.finishPage({ ...base, now: this.now(), failed }));
        return;
      }
      delayMs = rules.crawlDelayMs() ?? 0;
    }

    const host = new URL(page.url).host;
    let result: PageResult;
    let search: SearchablePage | undefined;
    const release = await this.hosts.acquire(host, delayMs);
    try {
      const fetched = await this.fetch(page, ctx, signal);
      result = fetched.page;
      search = searchableOf(fetched);
    } catch (error) {
      // The store failed under the page (its cache write, a redirect's claim): run() gives it back.
      if (classifyStoreError(error) !== undefined) throw error;
      if (!(await this.stillHeld(page))) return;
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof FetchError && error.code === 'REDIRECT_DUPLICATE') {
        // The page is another address of one already taken: visited, neither saved nor failed.
        await this.whileStoreFails(() => this.o.store.finishPage({ ...base, now: this.now(), visited: true }));
        return;
      }
      const known = error instanceof FetchError || error instanceof BrowserError || error instanceof ExtractError;
      if (error instanceof RetryablePageError || (known && RETRYABLE_CODES.has(error.code))) {
        if (options.retry && page.attempts < MAX_PAGE_RETRIES) {
          const wait = retryDelayMs(this.o.retryBaseMs ?? 1000, page.attempts);
          await this.whileStoreFails(() =>
            this.o.store.retry(
              page.id,
              this.workerId,
              new Date(this.o.clock().getTime() + wait).toISOString(),
              message,
            ),
          );
          return;
        }
      }
      if (!known && !(error instanceof RetryablePageError)) {
        this.o.logger.error({ err: error, jobId: page.jobId, url: page.url }, 'crawl page failed on an internal error');
      }
      const code = known ? error.code : error instanceof RetryablePageError ? 'HTTP_ERROR' : 'INTERNAL';
      await this.whileStoreFails(() =>
        this.o.store.finishPage({ ...base, now: this.now(), failed: { error: message, code } }),
      );
      return;
    } finally {
      release();
    }

    if (ctx.kind === 'batch_scrape') {
      // As a scrape answers it: any HTTP answer is the page's result, its status in metadata.status_code.
      const data = resultData(result, options);
      if (!(await this.stillHeld(page))) return;
      const saved = { url: result.url, data, ...(search ? { search } : {}) };
      await this.whileStoreFails(() => this.o.store.finishPage({ ...base, now: this.now(), saved }));
      return;
    }
    const links = await this.discover(result, page, ctx);
    const finalUrl = normalizeUrl(result.metadata.final_url);
    const alias = finalUrl && finalUrl !== page.url ? finalUrl : undefined;
    const status = result.metadata.status_code;
    let kind: Pick<PageOutcome, 'failed' | 'saved' | 'visited'>;
    if (status >= 400) {
      kind = { failed: { error: `The page answered HTTP ${status}`, code: 'HTTP_ERROR' } };
    } else if (ctx.scope.shouldSave(page.url)) {
      const data = resultData(result, options);
      kind = { saved: { url: result.url, data, ...(search ? { search } : {}) } };
    } else {
      kind = { visited: true };
    }
    if (!(await this.stillHeld(page))) return;
    const record = await this.whileStoreFails(() =>
      this.o.store.finishPage({ ...base, links, alias, now: this.now(), ...kind }),
    );
    if (record.room !== undefined && record.room <= 0) ctx.frontierFull = true;
  }

  private async fetch(page: ClaimedPage, ctx: JobContext, signal: AbortSignal): Promise<IndexedPageResult> {
    const { options, ownerId } = ctx;
    const index = this.o.searchIndex === true;
    if (ctx.kind === 'batch_scrape') {
      // A scrape's run: the page cache within max_age on the first try; redirects followed to any URL, even one
      // another page of the batch names (each given URL has its own result).
      const run = {
        readCache: page.attempts === 0,
        signal,
        job: { ownerId, jobId: page.jobId },
        browserSessionKey: page.jobId,
      };
      const fetched = await runPageForIndex(page.url, options.page, this.o.pipeline, run, index);
      const status = fetched.page.metadata.status_code;
      // Tried again while retries are left; then the last answer stands, as a scrape's does.
      if (isRetryableStatus(status) && options.retry && page.attempts < MAX_PAGE_RETRIES)
        throw new RetryablePageError(`The page answered HTTP ${status}`);
      return fetched;
    }
    // Discovery needs the links even when the client did not ask, while any could be admitted.
    const formats: Format[] =
      options.page.formats.includes('links') || !this.discovers(page, ctx)
        ? options.page.formats
        : [...options.page.formats, 'links'];
    const onRedirect = async (next: string): Promise<boolean> => {
      const url = normalizeUrl(next);
      return url === undefined || url === page.url || this.o.store.claimAlias(page.jobId, url, this.now());
    };
    const run = {
      readCache: false,
      signal,
      onRedirect,
      job: { ownerId, jobId: page.jobId },
      browserSessionKey: page.jobId,
    };
    const fetched = await runPageForIndex(page.url, { ...options.page, formats }, this.o.pipeline, run, index);
    const status = fetched.page.metadata.status_code;
    if (isRetryableStatus(status)) throw new RetryablePageError(`The page answered HTTP ${status}`);
    return fetched;
  }

  /**
   * Could a link found on this page still be admitted: not at the depth limit, not once the crawl's page limit is
   * reached.
   */
  private discovers(page: ClaimedPage, ctx: CrawlContext): boolean {
    return page.depth + 1 <= ctx.options.maxDepth && !ctx.frontierFull;
  }

  /** In-scope links of a page, normalized, filtered by scope, depth and robots. */
  private async discover(result: PageResult, page: ClaimedPage, ctx: CrawlContext): Promise<string[]> {
    // Asked again after the fetch: another page may have filled the frontier meanwhile.
    if (!this.discovers(page, ctx)) return [];
    const depth = page.depth + 1;
    const out: string[] = [];
    const links = result.links ?? [];
    for (let i = 0; i < links.length && i < MAX_LINKS_PER_PAGE; i++) {
      // Each check is bounded, but a page may carry thousands of links: let other work in between.
      if (i > 0 && i % LINKS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
      const raw = links[i] as string;
      const url = normalizeUrl(raw);
      if (!url || !ctx.scope.shouldVisit(url, depth)) continue;
      if (this.o.robots) {
        const rules = await this.o.robots.rulesFor(url, ctx.options.page.proxy);
        if (!rules.isAllowed(url)) continue;
      }
      out.push(url);
    }
    return out;
  }
}

/** A page's saved result: its formats, links only when asked for, the template that made the job in its metadata. */
function resultData(result: PageResult, options: PageJobOptions): Record<string, unknown> {
  const data: Record<string, unknown> = { ...result };
  if (!options.page.formats.includes('links')) delete data.links;
  if (options.template)
    data.metadata = {
      ...result.metadata,
      template_id: options.template.id,
      template_version: options.template.version,
    };
  return data;
}
