// Periodic clean-up: page-cache entries past their lifetime and job records past expires_at.
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { CrawlStore } from '../crawl/store.js';
import type { PageCache } from '../scrape/page-cache.js';
import type { Database } from '../store/schema.js';
import type { Clock } from '../util/time.js';
import type { OutboxSignal } from '../events/outbox.js';
import { deleteJobs, expiredJobIds, pendingJobsCreatedBefore } from '../jobs/job-store.js';
import { failInterruptedMap, INTERRUPTED_MAP_MS } from '../map/interrupted.js';
import { failInterruptedScrape, INTERRUPTED_SCRAPE_MS } from '../scrape/interrupted.js';
import { failInterruptedSearch, INTERRUPTED_SEARCH_MS } from '../search/interrupted.js';
import { classifyStoreError } from '../store/store-errors.js';
import { deleteScreenshotsOfJobs } from '../screenshots/store.js';
import { deleteIndexedPagesOfJobs } from '../search-index/index-store.js';

export interface SweeperOptions {
  db: Kysely<Database>;
  cache: PageCache;
  crawls: CrawlStore;
  clock: Clock;
  logger: FastifyBaseLogger;
  cacheTtlMs: number;
  intervalMs: number;
  /** The app's outbox signal, given with the events of interrupted scrapes (tests may go without). */
  outbox?: OutboxSignal;
}

/** Expired scrapes, maps and searches deleted per transaction. */
const EXPIRED_BATCH = 500;

/** Marks scrapes that can no longer end as failed, each with its scrape.failed event. */
async function failInterruptedScrapes(
  db: Kysely<Database>,
  now: Date,
  outbox: OutboxSignal | undefined,
): Promise<number> {
  const before = new Date(now.getTime() - INTERRUPTED_SCRAPE_MS).toISOString();
  const stale = await pendingJobsCreatedBefore(db, 'scrape', before, 500);
  let failed = 0;
  for (const job of stale) {
    if (await failInterruptedScrape(db, job.id, now.toISOString(), outbox)) failed += 1;
  }
  return failed;
}

/** The same for maps, each with its map.failed event. */
async function failInterruptedMaps(db: Kysely<Database>, now: Date, outbox: OutboxSignal | undefined): Promise<number> {
  const before = new Date(now.getTime() - INTERRUPTED_MAP_MS).toISOString();
  const stale = await pendingJobsCreatedBefore(db, 'map', before, 500);
  let failed = 0;
  for (const job of stale) {
    if (await failInterruptedMap(db, job.id, now.toISOString(), outbox)) failed += 1;
  }
  return failed;
}

/** The same for searches, each with its search.failed event. */
async function failInterruptedSearches(
  db: Kysely<Database>,
  now: Date,
  outbox: OutboxSignal | undefined,
): Promise<number> {
  const before = new Date(now.getTime() - INTERRUPTED_SEARCH_MS).toISOString();
  const stale = await pendingJobsCreatedBefore(db, 'search', before, 500);
  let failed = 0;
  for (const job of stale) {
    if (await failInterruptedSearch(db, job.id, now.toISOString(), outbox)) failed += 1;
  }
  return failed;
}

/** Deletes what has expired at `now`, and fails scrapes that were cut off; returns what it changed. */
export async function sweepOnce(options: Omit<SweeperOptions, 'intervalMs' | 'logger'>): Promise<{
  cacheEntries: number;
  jobs: number;
  crawls: number;
  interruptedScrapes: number;
  interruptedMaps: number;
  interruptedSearches: number;
}> {
  const now = options.clock();
  const interruptedScrapes = await failInterruptedScrapes(options.db, now, options.outbox);
  const interruptedMaps = await failInterruptedMaps(options.db, now, options.outbox);
  const interruptedSearches = await failInterruptedSearches(options.db, now, options.outbox);
  const cacheEntries = await options.cache.sweep(new Date(now.getTime() - options.cacheTtlMs));
  const crawls = await options.crawls.deleteExpired(now.toISOString());
  let jobs = 0;
  // In batches (a bounded IN list), until none is left.
  for (const kind of ['scrape', 'map', 'search'] as const) {
    for (;;) {
      const expired = await expiredJobIds(options.db, kind, now.toISOString(), EXPIRED_BATCH);
      if (expired.length === 0) break;
      jobs += await options.db.transaction().execute(async (trx) => {
        await deleteScreenshotsOfJobs(trx, expired);
        await deleteIndexedPagesOfJobs(trx, expired);
        return deleteJobs(trx, expired);
      });
      if (expired.length < EXPIRED_BATCH) break;
    }
  }
  return { cacheEntries, jobs, crawls, interruptedScrapes, interruptedMaps, interruptedSearches };
}

/** Runs sweepOnce every interval; never throws, and stop() waits for a sweep in progress. */
export function startSweeper(options: SweeperOptions): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = sweepOnce(options)
      .then((removed) => {
        if (
          removed.cacheEntries +
            removed.jobs +
            removed.crawls +
            removed.interruptedScrapes +
            removed.interruptedMaps +
            removed.interruptedSearches >
          0
        )
          options.logger.info(removed, 'swept expired data');
      })
      .catch((error: unknown) => {
        // An outage is the other loops' to report with their back-off; one line here is enough.
        if (classifyStoreError(error) !== undefined)
          options.logger.warn(
            { err: { message: error instanceof Error ? error.message : String(error) } },
            'sweep skipped: the store is unavailable',
          );
        else options.logger.error({ err: error }, 'sweep failed; will retry next interval');
      })
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
