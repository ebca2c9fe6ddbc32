// Claims from the crawl frontier, on SQLite and PostgreSQL: id order, pages waiting for a retry passed over, crawls
// shared fairly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrawlOptions } from '../../src/crawl/schema.js';
import { useCrawlStore } from '../helpers/crawl-store.js';
import { allDatabases, type TestDatabase } from '../helpers/databases.js';

const NOW = '2026-11-23T12:00:00.000Z';
const LATER = '2026-11-23T12:05:00.000Z';

for (const make of allDatabases()) {
  const database: TestDatabase = make();
  describe(`crawl claims on ${database.name}`, () => {
    const t = useCrawlStore(database);

    /**
     * A crawl whose seed is queued, plus `more` queued pages; `waiting` of them (from the seed on) wait until LATER.
     */
    async function crawl(id: string, more: number, waiting = 0): Promise<void> {
      const seed = `https://${id}.example/`;
      await t.store.create({
        id,
        ownerId: 'owner',
        options: { seed } as CrawlOptions,
        request: {},
        now: NOW,
        retentionMs: 86_400_000,
      });
      if (more > 0) {
        await t.db.kysely
          .insertInto('crawl_pages')
          .values(
            Array.from({ length: more }, (_, i) => ({
              job_id: id,
              url: `${seed}p${i}`,
              depth: 1,
              state: 'queued',
              attempts: 0,
              available_at: NOW,
              lease_until: null,
              lease_owner: null,
              error: null,
            })),
          )
          .execute();
      }
      if (waiting > 0) {
        const first = await t.db.kysely
          .selectFrom('crawl_pages')
          .select('id')
          .where('job_id', '=', id)
          .orderBy('id')
          .limit(waiting)
          .execute();
        await t.db.kysely
          .updateTable('crawl_pages')
          .set({ available_at: LATER })
          .where(
            'id',
            'in',
            first.map((r) => r.id),
          )
          .execute();
      }
    }

    const claim = (max: number, perJob = 100) =>
      t.store.claim({ owner: 'worker', now: NOW, leaseMs: 60_000, max, perJob });

    it("takes a crawl's pages in the order they were queued, passing over pages that wait for a retry", async () => {
      await crawl('order', 5, 2);
      const claimed = await claim(3);
      assert.deepEqual(
        claimed.map((p) => p.url),
        ['https://order.example/p1', 'https://order.example/p2', 'https://order.example/p3'],
      );
      const rest = await claim(10);
      assert.deepEqual(
        rest.map((p) => p.url),
        ['https://order.example/p4'],
      );
      assert.deepEqual(await claim(10), [], 'the waiting pages are not claimed before their time');
      const due = await t.store.claim({ owner: 'worker', now: LATER, leaseMs: 60_000, max: 10, perJob: 100 });
      assert.deepEqual(
        due.map((p) => p.url),
        ['https://order.example/', 'https://order.example/p0'],
      );
    });

    it('shares the slots between the crawls that have work, not with one whose pages all wait', async () => {
      await crawl('big', 30);
      await crawl('small', 2);
      await crawl('asleep', 0, 1);
      const claimed = await claim(4);
      const perJob = new Map<string, number>();
      for (const p of claimed) perJob.set(p.jobId, (perJob.get(p.jobId) ?? 0) + 1);
      assert.equal(claimed.length, 4);
      assert.equal(perJob.get('big'), 2);
      assert.equal(perJob.get('small'), 2);
      assert.equal(perJob.has('asleep'), false);
      const states = await t.db.kysely
        .selectFrom('crawl_pages')
        .select(['state', 'lease_owner'])
        .where(
          'id',
          'in',
          claimed.map((p) => p.id),
        )
        .execute();
      assert.ok(states.every((s) => s.state === 'in_flight' && s.lease_owner === 'worker'));
    });

    it('finds every crawl with work among many', async () => {
      for (let i = 0; i < 25; i++) await crawl(`many-${String(i).padStart(2, '0')}`, 0);
      const claimed = await claim(200, 1);
      const jobs = new Set(claimed.map((p) => p.jobId));
      for (let i = 0; i < 25; i++)
        assert.ok(jobs.has(`many-${String(i).padStart(2, '0')}`), `crawl ${i} was offered a slot`);
      assert.ok(!jobs.has('asleep'));
    });
  });
}
