// Opens the store's database: SQLite by default (a file under DATA_DIR), PostgreSQL for postgres:// URLs.
import fs from 'node:fs';
import path from 'node:path';
import { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { openSqlite } from './sqlite.js';
import { openPostgres } from './postgres.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  readonly kysely: Kysely<Database>;
  readonly dialect: Dialect;
  close(): Promise<void>;
}

export interface DatabaseTarget {
  /** postgres:// URL, sqlite:/file: URL or undefined for the default SQLite file. */
  url: string | undefined;
  dataDir: string;
  /** PostgreSQL schema to use (created when missing); tests give each run its own. */
  schema?: string;
}

export function describeTarget(target: DatabaseTarget): string {
  if (isPostgresUrl(target.url)) {
    const u = new URL(target.url as string);
    return `postgres://${u.host}${u.pathname}${target.schema ? ` (schema ${target.schema})` : ''}`;
  }
  return `sqlite:${sqlitePath(target)}`;
}

function isPostgresUrl(url: string | undefined): boolean {
  return url !== undefined && /^postgres(ql)?:/.test(url);
}

function sqlitePath(target: DatabaseTarget): string {
  if (target.url === undefined) return path.join(target.dataDir, 'crawlservice.sqlite');
  const file = target.url.replace(/^(sqlite|file):(\/\/)?/, '');
  return file === ':memory:' ? file : path.resolve(file);
}

export interface OpenOptions {
  /** A connection of the database broke (server restart, network): reported, never thrown. */
  onConnectionError?: (error: Error) => void;
}

export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Db> {
  if (isPostgresUrl(target.url)) {
    return openPostgres(target.url as string, target.schema, options.onConnectionError);
  }
  const file = sqlitePath(target);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  return openSqlite(file);
}
