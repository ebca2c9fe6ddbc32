// The PostgreSQL adapter: a pg pool behind Kysely, optionally confined to one schema.
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { Database } from './schema.js';
import type { Db } from './database.js';

// int8 columns (counts, sequence numbers) stay far below 2^53: read them as numbers.
pg.types.setTypeParser(20, (value) => Number(value));

/** How long taking a connection may wait before the request fails (a database that does not answer). */
const CONNECT_TIMEOUT_MS = 3000;

/** A schema name PostgreSQL takes unquoted and unchanged: lower case, at most 63 bytes (NAMEDATALEN - 1). */
export function isSchemaName(name: string): boolean {
  return /^[a-z_][a-z0-9_]{0,62}$/.test(name);
}

export async function openPostgres(
  url: string,
  schema?: string,
  onConnectionError: (error: Error) => void = () => undefined,
): Promise<Db> {
  if (schema !== undefined && !isSchemaName(schema)) {
    throw new Error(`invalid PostgreSQL schema name ${JSON.stringify(schema)}`);
  }
  if (schema) {
    // Create the schema before the pool pins search_path to it. Only when missing: PostgreSQL
    // checks the CREATE privilege on the database even for CREATE SCHEMA IF NOT EXISTS, and a
    // role given an existing schema by its DBA need not have it.
    const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    await admin.connect();
    try {
      const existing = await admin.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
      if (existing.rowCount === 0) await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // A restart or failover ends every session: pg emits 'error' on each client, through the pool
  // for idle ones and on the client itself for one that is checked out. An 'error' event without
  // a listener kills the process. The query in flight fails on its own, the pool drops the
  // broken client and opens new connections on demand, so the error is only reported here
  // (once, from the client's own listener; the pool's is there to keep the event handled).
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', onConnectionError));
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  await sql`select 1`.execute(kysely);
  return {
    kysely,
    dialect: 'postgres',
    close: () => kysely.destroy(),
  };
}
