// The SQLite adapter: one better-sqlite3 connection in WAL mode behind Kysely, with a prepared-statement cache.
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import type { Database } from './schema.js';
import type { Db } from './database.js';

/** A statement that reads nothing and changes nothing. */
const NOTHING = 'select 1 where 0';

/** Distinct SQL texts kept prepared; queries with IN lists of many lengths make the long tail. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew, and preparing costs as much as running a small query
 * (measured: ~15% of the webhook engine's CPU). The same SQL text always compiles to the same
 * statement, so statements are kept in a small LRU keyed by their text.
 */
function withStatementCache(connection: SqliteDatabase.Database): KyselySqliteDatabase {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => connection.close(),
    prepare(sql: string) {
      // On SQLITE_FULL (and some I/O errors) SQLite has already rolled the transaction back by
      // itself; the ROLLBACK that Kysely then sends would fail with "no transaction is active"
      // and replace the error that says what happened. With no transaction open it does nothing.
      if (!connection.inTransaction && /^\s*rollback\s*;?\s*$/i.test(sql)) return connection.prepare(NOTHING);
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = connection.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) {
          const oldest = cache.keys().next().value;
          if (oldest !== undefined) cache.delete(oldest);
        }
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

export function openSqlite(file: string): Db {
  const connection = new SqliteDatabase(file);
  // WAL lets readers in other processes (CLI, a second worker) proceed while one writes;
  // busy_timeout makes a writer wait for the lock instead of failing at once.
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('busy_timeout = 5000');
  connection.pragma('foreign_keys = ON');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  return {
    kysely,
    dialect: 'sqlite',
    close: () => kysely.destroy(),
  };
}
