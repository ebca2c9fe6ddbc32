// The databases every store test runs against: a fresh SQLite file and a fresh PostgreSQL schema.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseTarget } from '../../src/store/database.js';

export const POSTGRES_URL = process.env.DATABASE_URL_TEST ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  target: DatabaseTarget;
  /** Removes the file or schema. */
  drop(): Promise<void>;
}

export function tempDir(prefix = 'cs-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function sqliteDatabase(): TestDatabase {
  const dir = tempDir();
  return {
    name: 'sqlite',
    target: { url: undefined, dataDir: dir },
    async drop() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function postgresDatabase(): TestDatabase {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  return {
    name: 'postgres',
    target: { url: POSTGRES_URL, dataDir: tempDir(), schema },
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Both backends, for conformance suites. */
export function allDatabases(): Array<() => TestDatabase> {
  return [sqliteDatabase, postgresDatabase];
}
