// The SQLite adapter: one better-sqlite3 connection in WAL mode behind Kysely.
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from './schema.js';
import type { Db } from './database.js';

export function openSqlite(file: string): Db {
  const connection = new SqliteDatabase(file);
  // WAL lets readers in other processes (CLI, a second worker) proceed while one writes;
  // busy_timeout makes a writer wait for the lock instead of failing at once.
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('busy_timeout = 5000');
  connection.pragma('foreign_keys = ON');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
  return {
    kysely,
    dialect: 'sqlite',
    close: () => kysely.destroy(),
  };
}
