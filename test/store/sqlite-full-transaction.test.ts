import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/store/database.js';
import { sqliteDatabase } from '../helpers/databases.js';

describe('SQLite transaction on a full disk', () => {
  it('fails with the SQLITE_FULL that caused it, not with the ROLLBACK that SQLite made needless', async () => {
    const database = sqliteDatabase();
    const db = await openDatabase(database.target);
    try {
      await sql`create table t (v text)`.execute(db.kysely);
      const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(db.kysely);
      await sql.raw(`pragma max_page_count = ${(rows[0]?.page_count ?? 1) + 2}`).execute(db.kysely);
      const big = 'x'.repeat(100_000);
      await assert.rejects(
        db.kysely.transaction().execute(async (trx) => {
          for (let i = 0; i < 50; i++) await sql`insert into t (v) values (${big})`.execute(trx);
        }),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, 'SQLITE_FULL', `${error.code}: ${error.message}`);
          return true;
        },
      );
      await sql.raw('pragma max_page_count = 1073741823').execute(db.kysely);
      await sql`insert into t (v) values ('after')`.execute(db.kysely);
      const count = await sql<{ n: number }>`select count(*) as n from t`.execute(db.kysely);
      assert.equal(count.rows[0]?.n, 1, 'the failed transaction left nothing behind');
    } finally {
      await db.close();
      await database.drop();
    }
  });
});
