// One conformance suite for the store, run against SQLite and PostgreSQL alike.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readEvents, recordEvent } from '../../src/events/outbox.js';
import { createJobWithEvents, endJob, findJob, insertJob } from '../../src/jobs/job-store.js';
import { scrapeEvents } from '../../src/scrape/events.js';
import { ApiKeys } from '../../src/keys/api-keys.js';
import { revokeApiKey } from '../../src/revoke-key.js';
import { PageCache, cacheKey } from '../../src/scrape/page-cache.js';
import { type Db, openDatabase } from '../../src/store/database.js';
import { latestMigration, migrateToLatest } from '../../src/store/migrations.js';
import { allDatabases, type TestDatabase } from '../helpers/databases.js';

for (const make of allDatabases()) {
  const database: TestDatabase = make();
  describe(`store on ${database.name}`, () => {
    let db: Db;
    before(async () => {
      db = await openDatabase(database.target);
      assert.equal((await migrateToLatest(db.kysely)).at(-1), latestMigration);
    });
    after(async () => {
      await db.close();
      await database.drop();
    });

    it('applies migrations once and is idempotent on the next start', async () => {
      assert.deepEqual(await migrateToLatest(db.kysely), []);
    });

    it('creates, verifies and revokes API keys, storing only hashes', async () => {
      const keys = new ApiKeys(db.kysely, []);
      const created = await keys.create('ci');
      assert.match(created.key, /^cs_[A-Za-z0-9_-]{43}$/);
      assert.equal(await keys.verify(created.key), created.id);
      assert.equal(await keys.verify(`${created.key}x`), undefined);
      const stored = await db.kysely
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      assert.notEqual(stored.key_hash, created.key);
      assert.ok(!JSON.stringify(await keys.list()).includes(created.key), 'list never shows the key');
      assert.equal(await revokeApiKey(keys, created.key.slice(0, 10)), 1);
      assert.equal(await keys.verify(created.key), undefined);
      assert.equal(await revokeApiKey(keys, created.id), 0, 'revoking twice changes nothing');
    });

    it('makes the scheduled tasks of a revoked key inactive', async () => {
      const keys = new ApiKeys(db.kysely, []);
      const created = await keys.create('tasks');
      const now = new Date().toISOString();
      await db.kysely
        .insertInto('scheduled_tasks')
        .values({
          id: crypto.randomUUID(),
          owner_id: created.id,
          name: 't',
          description: null,
          cron_expression: '* * * * *',
          timezone: 'UTC',
          task_type: 'scrape',
          task_payload: '{}',
          concurrency_mode: 'skip',
          max_executions_per_day: null,
          webhook_ids: null,
          webhook_url: null,
          implicit_webhook_id: null,
          tags: null,
          metadata: null,
          min_credits_required: 1,
          is_active: 1,
          is_paused: 0,
          pause_reason: null,
          next_execution_at: now,
          total_executions: 0,
          successful_executions: 0,
          failed_executions: 0,
          consecutive_failures: 0,
          last_execution_at: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await revokeApiKey(keys, created.id);
      const task = await db.kysely
        .selectFrom('scheduled_tasks')
        .select(['is_active', 'next_execution_at'])
        .where('owner_id', '=', created.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(task, { is_active: 0, next_execution_at: null });
    });

    it('accepts environment keys with a stable owner per key', async () => {
      const a = new ApiKeys(db.kysely, ['alpha-key', 'beta-key']);
      const b = new ApiKeys(db.kysely, ['alpha-key']);
      const ownerA = await a.verify('alpha-key');
      assert.ok(ownerA);
      assert.equal(await b.verify('alpha-key'), ownerA);
      assert.notEqual(await a.verify('beta-key'), ownerA);
      assert.equal(await a.verify('gamma-key'), undefined);
    });

    it('writes a job and its events in one transaction, and neither when it rolls back', async () => {
      const now = new Date().toISOString();
      const job = {
        id: crypto.randomUUID(),
        ownerId: 'owner-1',
        kind: 'scrape' as const,
        status: 'pending',
        url: 'https://example.com/',
        options: {},
        createdAt: now,
      };
      const facts = { id: job.id, owner_id: job.ownerId, url: job.url, created_at: now };
      await createJobWithEvents(db.kysely, job, [scrapeEvents['scrape.created'](facts)]);
      assert.equal((await findJob(db.kysely, 'owner-1', job.id))?.status, 'pending');
      assert.equal(await findJob(db.kysely, 'owner-2', job.id), undefined, 'another owner cannot see it');
      const events = await readEvents(db.kysely, { subjectId: job.id });
      assert.deepEqual(
        events.map((e) => [e.type, e.payload]),
        [['scrape.created', { job_id: job.id, status: 'created', url: job.url, created_at: now }]],
      );

      const doomed = { ...job, id: crypto.randomUUID() };
      await assert.rejects(
        db.kysely.transaction().execute(async (trx) => {
          await insertJob(trx, doomed);
          await recordEvent(trx, {
            ownerId: 'owner-1',
            type: 'scrape.created',
            subjectId: doomed.id,
            payload: {},
            createdAt: now,
          });
          throw new Error('crash before commit');
        }),
        /crash before commit/,
      );
      assert.equal(await findJob(db.kysely, 'owner-1', doomed.id), undefined);
      assert.deepEqual(await readEvents(db.kysely, { subjectId: doomed.id }), []);

      const end = { status: 'completed' as const, at: now, counts: { total: 1, completed: 1, credits_used: 1 } };
      assert.equal(
        await db.kysely.transaction().execute((trx) => endJob(trx, job.id, end, scrapeEvents['scrape.completed'])),
        true,
      );
      const done = await findJob(db.kysely, 'owner-1', job.id);
      assert.equal(done?.status, 'completed');
      assert.equal(done?.completed, 1);
      assert.deepEqual(
        (await readEvents(db.kysely, { subjectId: job.id })).map((e) => e.type),
        ['scrape.created', 'scrape.completed'],
        'the end is written with its event',
      );
      // An ended job does not end again: neither its row nor a second event is written.
      const again = { status: 'failed' as const, at: now, error: { message: 'late', code: 'INTERNAL' } };
      assert.equal(
        await db.kysely.transaction().execute((trx) => endJob(trx, job.id, again, scrapeEvents['scrape.failed'])),
        false,
      );
      assert.equal((await findJob(db.kysely, 'owner-1', job.id))?.status, 'completed');
      assert.equal((await readEvents(db.kysely, { subjectId: job.id })).length, 2);
    });

    it('orders events by a strictly increasing sequence', async () => {
      const now = new Date().toISOString();
      for (let i = 0; i < 5; i++) {
        await recordEvent(db.kysely, {
          ownerId: 'seq-owner',
          type: 'scrape.created',
          subjectId: null,
          payload: { i },
          createdAt: now,
        });
      }
      const events = await readEvents(db.kysely, { ownerId: 'seq-owner' });
      assert.deepEqual(
        events.map((e) => e.payload.i),
        [0, 1, 2, 3, 4],
      );
      const seqs = events.map((e) => e.seq);
      assert.ok(seqs.every((s, i) => i === 0 || s > (seqs[i - 1] as number)));
      assert.equal(typeof seqs[0], 'number');
      const later = await readEvents(db.kysely, { ownerId: 'seq-owner', afterSeq: seqs[2] });
      assert.deepEqual(
        later.map((e) => e.payload.i),
        [3, 4],
      );
    });

    it('keeps page cache entries by key and age, and sweeps old ones', async () => {
      const cache = new PageCache(db.kysely);
      const key = cacheKey('https://example.com/a#frag', { engine: 'http' });
      assert.equal(key, cacheKey('https://example.com/a', { engine: 'http' }), 'fragments do not matter');
      assert.notEqual(key, cacheKey('https://example.com/a', { engine: 'http', proxy: 'http://p:1' }));
      const t0 = new Date('2026-01-01T00:00:00.000Z');
      await cache.write(key, {
        url: 'https://example.com/a',
        finalUrl: 'https://example.com/a',
        statusCode: 200,
        contentType: 'text/html',
        headers: { 'content-type': 'text/html' },
        body: '<p>é €</p>',
        engine: 'cheerio',
        cachedAt: t0.toISOString(),
      });
      const hit = await cache.read(key, 60_000, new Date(t0.getTime() + 59_000));
      assert.equal(hit?.body, '<p>é €</p>');
      assert.deepEqual(hit?.headers, { 'content-type': 'text/html' });
      assert.equal(await cache.read(key, 60_000, new Date(t0.getTime() + 61_000)), undefined);
      assert.equal(await cache.sweep(new Date(t0.getTime() + 1)), 1);
      assert.equal(await cache.read(key, 10 ** 12, t0), undefined);
    });
  });
}
