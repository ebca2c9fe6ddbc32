// A crawl worker that can no longer vouch for a page's lease stops that page's fetch before the lease
// could be taken elsewhere, and writes nothing for it (issue 12: one page never runs in two places).
// SQLite and PostgreSQL, a real fetch to a local server that never answers.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { pino } from 'pino';
import { LeaseFence } from '../../src/crawl/lease-fence.js';
import { CrawlRunner } from '../../src/crawl/runner.js';
import { crawlRequestSchema, resolveCrawlOptions } from '../../src/crawl/schema.js';
import { CrawlStore } from '../../src/crawl/store.js';
import { type Db, openDatabase } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrations.js';
import { systemClock } from '../../src/util/time.js';
import { allDatabases, POSTGRES_URL, type TestDatabase } from '../helpers/databases.js';
import { testPipeline } from '../helpers/pipeline.js';

/**
 * A site whose pages hang (no answer) until `serve` is set; it notes when each request came and when its connection
 * closed.
 */
interface HangingSite {
  url: string;
  requests: Array<{ at: number; closedAt?: number; closed: Promise<number> }>;
  serve: boolean;
  /** The n-th request (1-based), once it arrived. */
  request(n: number): Promise<{ at: number; closedAt?: number; closed: Promise<number> }>;
  close(): Promise<void>;
}

async function startHangingSite(): Promise<HangingSite> {
  const waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    const entry: HangingSite['requests'][number] = {
      at: Date.now(),
      closed: new Promise((resolve) =>
        res.on('close', () => {
          entry.closedAt = Date.now();
          resolve(entry.closedAt);
        }),
      ),
    };
    site.requests.push(entry);
    for (const w of waiters.splice(0)) w();
    if (site.serve) {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<html><head><title>Seed</title></head><body><main><p>Answered at last, with a few words of text.</p></main></body></html>',
        );
    }
    // Otherwise never answered: the connection stays open until the client closes it.
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const site: HangingSite = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: [],
    serve: false,
    async request(n) {
      while (site.requests.length < n) await new Promise<void>((r) => waiters.push(r));
      return site.requests[n - 1] as HangingSite['requests'][number];
    },
    close() {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
  return site;
}

function runnerOn(db: Db, store: CrawlStore, leaseMs: number): CrawlRunner {
  return new CrawlRunner({
    store,
    pipeline: testPipeline(db.kysely, { userAgent: 'lease-test', maxBytes: 1_000_000 }),
    robots: undefined,
    clock: systemClock,
    logger: pino({ level: 'silent' }),
    concurrency: 2,
    jobConcurrency: 2,
    hostConcurrency: 2,
    leaseMs,
    retentionMs: 86_400_000,
    pollMs: 50,
  });
}

for (const make of allDatabases()) {
  const database: TestDatabase = make();
  describe(`crawl page leases are fenced (${database.name})`, () => {
    let db: Db;
    let store: CrawlStore;
    const sites: HangingSite[] = [];
    before(async () => {
      db = await openDatabase(database.target);
      await migrateToLatest(db.kysely);
      store = new CrawlStore(db.kysely, db.dialect);
    });
    after(async () => {
      await Promise.all(sites.map((s) => s.close()));
      await db.close();
      await database.drop();
    });

    /** A crawl of one page (the site's seed, timeout 60 s so only the fence can end its fetch). */
    async function crawlOf(site: HangingSite): Promise<{ jobId: string; pageId: number }> {
      const jobId = randomUUID();
      const request = crawlRequestSchema.parse({ url: `${site.url}/`, limit: 1, timeout: 60_000 });
      const options = { ...resolveCrawlOptions(request), seed: `${site.url}/` };
      await store.create({
        id: jobId,
        ownerId: 'owner',
        options,
        request: { ...request },
        now: new Date().toISOString(),
        retentionMs: 86_400_000,
      });
      const page = await db.kysely
        .selectFrom('crawl_pages')
        .select('id')
        .where('job_id', '=', jobId)
        .executeTakeFirstOrThrow();
      return { jobId, pageId: Number(page.id) };
    }

    async function hanging(): Promise<HangingSite> {
      const site = await startHangingSite();
      sites.push(site);
      return site;
    }

    const pageRow = (id: number) =>
      db.kysely
        .selectFrom('crawl_pages')
        .select(['state', 'lease_owner', 'lease_until'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const results = async (jobId: string) =>
      (await db.kysely.selectFrom('crawl_results').select('url').where('job_id', '=', jobId).execute()).length;
    const job = (jobId: string) =>
      db.kysely
        .selectFrom('jobs')
        .select(['status', 'completed', 'failed', 'total'])
        .where('id', '=', jobId)
        .executeTakeFirstOrThrow();

    it('stops the fetch of a page whose lease another worker took, at the next heartbeat, and writes nothing', async () => {
      const leaseMs = 1500;
      const site = await hanging();
      const { jobId, pageId } = await crawlOf(site);
      const runner = runnerOn(db, store, leaseMs);
      runner.start();
      try {
        const first = await site.request(1);
        assert.equal(site.requests[0]?.closedAt, undefined, 'the fetch is in flight');
        // Another worker takes the page, as after a release of an expired lease and a new claim.
        const stolenAt = Date.now();
        await db.kysely
          .updateTable('crawl_pages')
          .set({ lease_owner: 'another-worker', lease_until: new Date(Date.now() + 60_000).toISOString() })
          .where('id', '=', pageId)
          .execute();
        const closedAt = await first.closed;
        assert.ok(
          closedAt - stolenAt < leaseMs,
          `the fetch was stopped ${closedAt - stolenAt} ms after the page was taken (a heartbeat is ${leaseMs / 5} ms)`,
        );
        // Two more heartbeats: still nothing written, the page untouched and not fetched again.
        await new Promise((r) => setTimeout(r, (2 * leaseMs) / 5 + 100));
        assert.deepEqual(
          { ...(await pageRow(pageId)), lease_until: undefined },
          { state: 'in_flight', lease_owner: 'another-worker', lease_until: undefined },
        );
        assert.equal(await results(jobId), 0);
        assert.deepEqual(await job(jobId), { status: 'pending', completed: 0, failed: 0, total: 1 });
        assert.equal(site.requests.length, 1);
      } finally {
        await runner.stop();
      }
    });

    it('stops the fetch before the lease runs out when the heartbeat cannot reach the store, then the page is done once', async () => {
      // SQLite: another connection holds the write lock (the worker's writes wait out its busy
      // timeout, blocking its event loop). PostgreSQL: another session locks the page's row (the
      // renewal waits). Either way the lease in the store stays as it was when the lock was taken.
      const leaseMs = database.name === 'sqlite' ? 3000 : 1500;
      const site = await hanging();
      const { jobId, pageId } = await crawlOf(site);
      const runner = runnerOn(db, store, leaseMs);
      let unlock: () => Promise<void>;
      let leaseUntil: string;
      if (database.name === 'sqlite') {
        await sql`PRAGMA busy_timeout = 200`.execute(db.kysely);
      }
      runner.start();
      try {
        const first = await site.request(1);
        if (database.name === 'sqlite') {
          const locker = new SqliteDatabase(`${database.target.dataDir}/crawlservice.sqlite`);
          locker.exec('BEGIN IMMEDIATE');
          leaseUntil = (
            locker.prepare('select lease_until from crawl_pages where id = ?').get(pageId) as { lease_until: string }
          ).lease_until;
          unlock = async () => {
            locker.exec('ROLLBACK');
            locker.close();
          };
        } else {
          const client = new pg.Client({ connectionString: POSTGRES_URL });
          await client.connect();
          await client.query(`SET search_path TO "${database.target.schema as string}"`);
          await client.query('BEGIN');
          leaseUntil = (
            await client.query<{ lease_until: string }>(
              'select lease_until from crawl_pages where id = $1 for update',
              [pageId],
            )
          ).rows[0]?.lease_until as string;
          unlock = async () => {
            await client.query('ROLLBACK');
            await client.end();
          };
        }
        try {
          const closedAt = await first.closed;
          assert.ok(
            closedAt < Date.parse(leaseUntil),
            `the fetch was stopped at ${new Date(closedAt).toISOString()}, before the lease ran out at ${leaseUntil}`,
          );
          assert.equal(await results(jobId), 0);
        } finally {
          site.serve = true;
          await unlock();
        }
        // The page was given back (or its lease ran out) and is fetched again, and saved once.
        const deadline = Date.now() + 15_000;
        while ((await job(jobId)).status === 'pending') {
          assert.ok(Date.now() < deadline, `crawl did not end: ${JSON.stringify(await job(jobId))}`);
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.deepEqual(await job(jobId), { status: 'completed', completed: 1, failed: 0, total: 1 });
        assert.equal(await results(jobId), 1);
        assert.equal(site.requests.length, 2, 'fetched twice in all, never at once');
        assert.ok(
          (site.requests[1]?.at ?? 0) >= (site.requests[0]?.closedAt ?? Infinity),
          'the second fetch began after the first was stopped',
        );
      } finally {
        await runner.stop();
        if (database.name === 'sqlite') await sql`PRAGMA busy_timeout = 5000`.execute(db.kysely);
      }
    });
  });
}

describe('LeaseFence (the rules, without a store)', () => {
  it('fences a page a renewal no longer finds only if it was held before the renewal was sent', () => {
    const fenced: Array<[number, string]> = [];
    const fence = new LeaseFence({
      leaseMs: 60_000,
      marginMs: 12_000,
      onFenced: (id, reason) => fenced.push([id, reason]),
    });
    const before = fence.hold(1, performance.now());
    const sentAt = fence.beforeRenewal();
    const after = fence.hold(2, performance.now() + 1); // claimed while the renewal was on its way
    fence.renewed(sentAt, new Set());
    assert.deepEqual(fenced, [[1, 'lost']]);
    assert.equal(before.aborted, true);
    assert.equal(after.aborted, false);
    assert.deepEqual(fence.ids(), [2], 'a fenced page is not renewed any more');
    fence.drop(1);
    fence.drop(2);
  });

  it('fences before a renewal the pages whose deadline falls within the time the store may block the event loop', () => {
    const fence = new LeaseFence({ leaseMs: 10_000, marginMs: 2_000 });
    const signal = fence.hold(1, performance.now() - 3_000); // deadline in 5 s
    fence.beforeRenewal(1_000);
    assert.equal(signal.aborted, false, 'a heartbeat 1 s late leaves 4 s');
    fence.beforeRenewal(6_000);
    assert.equal(signal.aborted, true, 'a heartbeat 6 s late: the next block could outlast the deadline');
    fence.drop(1);
  });
});
