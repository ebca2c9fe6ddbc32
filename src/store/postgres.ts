// The PostgreSQL adapter: a pg pool behind Kysely, optionally confined to one schema.
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { Database } from './schema.js';
import type { Db } from './database.js';

// int8 columns (counts, sequence numbers) stay far below 2^53: read them as numbers.
pg.types.setTypeParser(20, (value) => Number(value));

export async function openPostgres(url: string, schema?: string): Promise<Db> {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) {
    throw new Error(`invalid PostgreSQL schema name ${JSON.stringify(schema)}`);
  }
  if (schema) {
    // Create the schema before the pool pins search_path to it.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  await sql`select 1`.execute(kysely);
  return {
    kysely,
    dialect: 'postgres',
    close: () => kysely.destroy(),
  };
}
