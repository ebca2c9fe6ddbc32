// Periodic clean-up: page-cache entries past their lifetime and job records past expires_at.
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { CrawlStore } from '../crawl/store.js';
import type { PageCache } from '../scrape/page-cache.js';
import type { Database } from '../store/schema.js';
import type { Clock } from '../util/time.js';
import { deleteScreenshotsOfJobs } from '../screenshots/store.js';

export interface SweeperOptions {
  db: Kysely<Database>;
  cache: PageCache;
  crawls: CrawlStore;
  clock: Clock;
  logger: FastifyBaseLogger;
  cacheTtlMs: number;
  intervalMs: number;
}

/** Deletes what has expired at `now`; returns what it removed. */
export async function sweepOnce(options: Omit<SweeperOptions, 'intervalMs' | 'logger'>): Promise<{ cacheEntries: number; jobs: number; crawls: number }> {
  const now = options.clock();
  const cacheEntries = await options.cache.sweep(new Date(now.getTime() - options.cacheTtlMs));
  const crawls = await options.crawls.deleteExpired(now.toISOString());
  const jobs = await options.db.transaction().execute(async (trx) => {
    const expired = trx.selectFrom('jobs').select('id').where('kind', '=', 'scrape').where('expires_at', '<', now.toISOString());
    await deleteScreenshotsOfJobs(trx, expired);
    const result = await trx.deleteFrom('jobs').where('id', 'in', expired).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
  return { cacheEntries, jobs, crawls };
}

/** Runs sweepOnce every interval; never throws, and stop() waits for a sweep in progress. */
export function startSweeper(options: SweeperOptions): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = sweepOnce(options)
      .then((removed) => {
        if (removed.cacheEntries + removed.jobs + removed.crawls > 0) options.logger.info(removed, 'swept expired data');
      })
      .catch((error: unknown) => options.logger.error({ err: error }, 'sweep failed; will retry next interval'))
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
