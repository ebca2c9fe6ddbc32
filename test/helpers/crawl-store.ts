// A migrated test database with a CrawlStore on it, opened before a suite's tests and dropped after them.
import { after, before } from 'node:test';
import { CrawlStore } from '../../src/crawl/store.js';
import { type Db, openDatabase } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrations.js';
import type { TestDatabase } from './databases.js';

export interface CrawlStoreFixture {
  readonly db: Db;
  readonly store: CrawlStore;
}

/** Call inside a describe(): the fixture's fields are there once the suite's tests run. */
export function useCrawlStore(database: TestDatabase): CrawlStoreFixture {
  let opened: { db: Db; store: CrawlStore } | undefined;
  before(async () => {
    const db = await openDatabase(database.target);
    await migrateToLatest(db.kysely);
    opened = { db, store: new CrawlStore(db.kysely, db.dialect) };
  });
  after(async () => {
    await opened?.db.close();
    await database.drop();
  });
  const get = (): { db: Db; store: CrawlStore } => {
    if (!opened) throw new Error('the crawl store is opened in before(): use it inside a test');
    return opened;
  };
  return {
    get db() {
      return get().db;
    },
    get store() {
      return get().store;
    },
  };
}
