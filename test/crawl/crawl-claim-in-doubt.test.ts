// A claim whose commit went through while its answer was lost (the connection dropped during
// COMMIT) leaves pages leased to a worker that does not know it holds them. The worker must give
// them back once the store answers again, not leave the crawl waiting out leases nobody works on.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { CrawlRunner } from '../../src/crawl/runner.js';
import { crawlRequestSchema, resolveCrawlOptions } from '../../src/crawl/schema.js';
import { type ClaimedPage, CrawlStore } from '../../src/crawl/store.js';
import { type Db, openDatabase } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrations.js';
import { systemClock } from '../../src/util/time.js';
import { allDatabases, type TestDatabase } from '../helpers/databases.js';
import { testPipeline } from '../helpers/pipeline.js';

/** A store whose next claim commits and then fails as a dropped connection does. */
class LosesClaimAnswers extends CrawlStore {
  lostAnswers = 0;
  loseNext = 0;
  override async claim(input: Parameters<CrawlStore['claim']>[0]): Promise<ClaimedPage[]> {
    const claimed = await super.claim(input);
    if (this.loseNext > 0 && claimed.length > 0) {
      this.loseNext -= 1;
      this.lostAnswers += 1;
      throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
    }
    return claimed;
  }
}

for (const make of allDatabases()) {
  const database: TestDatabase = make();
  describe(`a claim whose answer was lost (${database.name})`, () => {
    let db: Db;
    let store: LosesClaimAnswers;
    let server: Server;
    let siteUrl: string;
    before(async () => {
      db = await openDatabase(database.target);
      await migrateToLatest(db.kysely);
      store = new LosesClaimAnswers(db.kysely, db.dialect);
      server = createServer((req, res) => {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            `<html><head><title>${req.url}</title></head><body><main><p>Page ${req.url} with a few words of text.</p></main></body></html>`,
          );
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      siteUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await db.close();
      await database.drop();
    });

    it('gives the pages back once the store answers, so the crawl ends without waiting out their lease', async () => {
      const jobId = randomUUID();
      const request = crawlRequestSchema.parse({ url: `${siteUrl}/`, limit: 1 });
      const options = { ...resolveCrawlOptions(request), seed: `${siteUrl}/` };
      await store.create({
        id: jobId,
        ownerId: 'owner',
        options,
        request: { ...request },
        now: new Date().toISOString(),
        retentionMs: 86_400_000,
      });
      store.loseNext = 1;
      const runner = new CrawlRunner({
        store,
        pipeline: testPipeline(db.kysely, { userAgent: 'claim-test', maxBytes: 1_000_000 }),
        robots: undefined,
        clock: systemClock,
        logger: pino({ level: 'silent' }),
        concurrency: 2,
        jobConcurrency: 2,
        hostConcurrency: 2,
        // Far longer than the test waits: the page must not end by its lease running out.
        leaseMs: 600_000,
        retentionMs: 86_400_000,
        pollMs: 50,
      });
      runner.start();
      try {
        const job = () =>
          db.kysely
            .selectFrom('jobs')
            .select(['status', 'completed', 'failed', 'total'])
            .where('id', '=', jobId)
            .executeTakeFirstOrThrow();
        const deadline = Date.now() + 10_000;
        while ((await job()).status === 'pending') {
          const page = await db.kysely
            .selectFrom('crawl_pages')
            .select(['state', 'lease_owner'])
            .where('job_id', '=', jobId)
            .executeTakeFirstOrThrow();
          assert.ok(Date.now() < deadline, `the crawl did not end; its page: ${JSON.stringify(page)}`);
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.equal(store.lostAnswers, 1, 'one claim answer was lost');
        assert.deepEqual(await job(), { status: 'completed', completed: 1, failed: 0, total: 1 });
        const results = await db.kysely.selectFrom('crawl_results').select('url').where('job_id', '=', jobId).execute();
        assert.equal(results.length, 1);
      } finally {
        await runner.stop();
      }
    });
  });
}
