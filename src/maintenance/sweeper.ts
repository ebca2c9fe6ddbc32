// Periodic clean-up: page-cache entries past their lifetime and job records past expires_at.
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { CrawlStore } from '../crawl/store.js';
import type { PageCache } from '../scrape/page-cache.js';
import type { Database } from '../store/schema.js';
import type { Clock } from '../util/time.js';
import { type OutboxSignal, recordEvent } from '../events/outbox.js';
import { classifyStoreError } from '../store/store-errors.js';
import { deleteScreenshotsOfJobs } from '../screenshots/store.js';

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

/**
 * A scrape runs within its request (at most its `timeout` plus extraction's budget): one still
 * pending this long after it started was cut off, by a process that died or a store that
 * stopped taking its last write. It would stay pending until it expires.
 */
export const INTERRUPTED_SCRAPE_MS = 10 * 60_000;

const INTERRUPTED_MESSAGE = 'Interrupted: the scrape stopped before its result was saved (the process stopped or the store was unreachable)';

/** Marks scrapes that can no longer end as failed, each with its scrape.failed event. */
async function failInterruptedScrapes(db: Kysely<Database>, now: Date, outbox: OutboxSignal | undefined): Promise<number> {
  const before = new Date(now.getTime() - INTERRUPTED_SCRAPE_MS).toISOString();
  const at = now.toISOString();
  const stale = await db.selectFrom('jobs').select(['id', 'owner_id', 'url', 'created_at']).where('kind', '=', 'scrape').where('status', '=', 'pending').where('created_at', '<', before).limit(500).execute();
  let failed = 0;
  for (const job of stale) {
    await db.transaction().execute(async (trx) => {
      const ended = await trx
        .updateTable('jobs')
        .set({ status: 'failed', error_message: INTERRUPTED_MESSAGE, error_code: 'INTERRUPTED', finished_at: at, updated_at: at, total: 1, failed: 1 })
        .where('id', '=', job.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(ended.numUpdatedRows) === 0) return;
      failed += 1;
      await recordEvent(trx, {
        ownerId: job.owner_id,
        type: 'scrape.failed',
        subjectId: job.id,
        createdAt: at,
        payload: { job_id: job.id, status: 'failed', url: job.url, error_message: INTERRUPTED_MESSAGE, error_code: 'INTERRUPTED', credits_used: 0, created_at: job.created_at, completed_at: at },
      }, outbox);
    });
  }
  return failed;
}

/** Deletes what has expired at `now`, and fails scrapes that were cut off; returns what it changed. */
export async function sweepOnce(
  options: Omit<SweeperOptions, 'intervalMs' | 'logger'>,
): Promise<{ cacheEntries: number; jobs: number; crawls: number; interruptedScrapes: number }> {
  const now = options.clock();
  const interruptedScrapes = await failInterruptedScrapes(options.db, now, options.outbox);
  const cacheEntries = await options.cache.sweep(new Date(now.getTime() - options.cacheTtlMs));
  const crawls = await options.crawls.deleteExpired(now.toISOString());
  const jobs = await options.db.transaction().execute(async (trx) => {
    const expired = trx.selectFrom('jobs').select('id').where('kind', '=', 'scrape').where('expires_at', '<', now.toISOString());
    await deleteScreenshotsOfJobs(trx, expired);
    const result = await trx.deleteFrom('jobs').where('id', 'in', expired).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
  return { cacheEntries, jobs, crawls, interruptedScrapes };
}

/** Runs sweepOnce every interval; never throws, and stop() waits for a sweep in progress. */
export function startSweeper(options: SweeperOptions): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = sweepOnce(options)
      .then((removed) => {
        if (removed.cacheEntries + removed.jobs + removed.crawls + removed.interruptedScrapes > 0) options.logger.info(removed, 'swept expired data');
      })
      .catch((error: unknown) => {
        // An outage is the other loops' to report with their back-off; one line here is enough.
        if (classifyStoreError(error) !== undefined) options.logger.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'sweep skipped: the store is unavailable');
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
