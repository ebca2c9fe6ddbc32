// Starts the whole app in-process on a throwaway store, for API tests through inject().
import type { LightMyRequestResponse } from 'fastify';
import { pino } from 'pino';
import { createApp, type App, type AppOptions } from '../../src/app.js';
import type { Resolver } from '../../src/net/address-guard.js';
import { loadConfig } from '../../src/config.js';
import { type Clock, systemClock } from '../../src/util/time.js';
import { postgresDatabase, sqliteDatabase, type TestDatabase } from './databases.js';

export const TEST_KEY = 'test-key-0123456789';
export const OTHER_KEY = 'other-key-9876543210';

export interface TestApp {
  app: App;
  database: TestDatabase;
  request(
    method: string,
    url: string,
    options?: { body?: unknown; key?: string | null; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function startTestApp(
  options: {
    env?: Record<string, string>;
    backend?: 'sqlite' | 'postgres';
    clock?: Clock;
    database?: TestDatabase;
    resolve?: Resolver;
    roles?: AppOptions['roles'];
  } = {},
): Promise<TestApp> {
  // A shared database (several apps on one store) is dropped by its creator, not by close().
  const shared = options.database !== undefined;
  const database = options.database ?? (options.backend === 'postgres' ? postgresDatabase() : sqliteDatabase());
  const config = loadConfig({
    DATA_DIR: database.target.dataDir,
    DATABASE_URL: database.target.url,
    API_KEYS: `${TEST_KEY},${OTHER_KEY}`,
    LOG_LEVEL: 'silent',
    ALLOW_LOCAL_TARGETS: 'true',
    // In-process extraction keeps test start-up fast; the e2e process tests run the default pool.
    EXTRACT_THREADS: '0',
    ...options.env,
  });
  const app = await createApp({
    config,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    clock: options.clock ?? systemClock,
    databaseSchema: database.target.schema,
    ...(options.resolve ? { resolve: options.resolve } : {}),
    ...(options.roles ? { roles: options.roles } : {}),
  });
  return {
    app,
    database,
    request(method, url, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      const key = opts.key === undefined ? TEST_KEY : opts.key;
      if (key !== null) headers.authorization = `Bearer ${key}`;
      return app.server.inject({
        method: method as 'GET',
        url,
        headers,
        ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
      });
    },
    async close() {
      await app.close();
      if (!shared) await database.drop();
    },
  };
}
