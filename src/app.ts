// Wires the service together from its settings: store, keys, pipeline, HTTP server.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { buildServer } from './http/server.js';
import { ApiKeys } from './keys/api-keys.js';
import { CURRENT_CAPABILITIES } from './scrape/capabilities.js';
import { PageCache } from './scrape/page-cache.js';
import { scrapeRoutes } from './scrape/routes.js';
import { ScrapeService } from './scrape/service.js';
import { type Db, openDatabase } from './store/database.js';
import { migrateToLatest } from './store/migrations.js';
import { startSweeper } from './maintenance/sweeper.js';
import { type Clock, systemClock } from './util/time.js';

export const VERSION = '0.1.0';

export interface App {
  server: FastifyInstance;
  db: Db;
  keys: ApiKeys;
  close(): Promise<void>;
}

export interface AppOptions {
  config: Config;
  logger: Logger;
  clock?: Clock;
  /** PostgreSQL schema (tests give each run its own). */
  databaseSchema?: string;
}

export async function createApp(options: AppOptions): Promise<App> {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, schema: options.databaseSchema });
  try {
    const applied = await migrateToLatest(db.kysely);
    if (applied.length > 0) logger.info({ migrations: applied }, 'applied migrations');

    const keys = new ApiKeys(db.kysely, config.apiKeys, clock);
    const cache = new PageCache(db.kysely);
    const scrape = new ScrapeService({
      db: db.kysely,
      clock,
      logger,
      capabilities: CURRENT_CAPABILITIES,
      retentionMs: config.jobRetentionMs,
      pipeline: {
        cache,
        now: clock,
        userAgent: config.userAgent,
        maxBytes: config.scrapeMaxBytes,
        maxRedirects: config.scrapeMaxRedirects,
        allowPrivateAddresses: config.allowLocalTargets,
        defaultMaxAgeMs: config.cacheDefaultMaxAgeMs,
      },
    });
    const server = await buildServer({
      logger,
      keys,
      bodyLimitBytes: config.bodyLimitBytes,
      version: VERSION,
      routes: [scrapeRoutes(scrape)],
    });
    const sweeper = startSweeper({ db: db.kysely, cache, clock, logger, cacheTtlMs: config.cacheTtlMs, intervalMs: 10 * 60_000 });
    return {
      server,
      db,
      keys,
      async close() {
        await server.close();
        await sweeper.stop();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
