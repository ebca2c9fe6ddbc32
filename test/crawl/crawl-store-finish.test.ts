// Recording a crawled page's outcome, on SQLite and PostgreSQL: what finishPage reports back (recorded, room left under
// the limit).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrawlOptions } from '../../src/crawl/schema.js';
import type { ClaimedPage, PageOutcome } from '../../src/crawl/store.js';
import { useCrawlStore } from '../helpers/crawl-store.js';
import { allDatabases, type TestDatabase } from '../helpers/databases.js';

const NOW = '2026-11-24T12:00:00.000Z';

for (const make of allDatabases()) {
  const database: TestDatabase = make();
  describe(`crawl page outcomes on ${database.name}`, () => {
    const t = useCrawlStore(database);

    /** Creates a crawl and claims its seed for `worker`. */
    async function seedOf(id: string, worker = 'worker'): Promise<ClaimedPage> {
      await t.store.create({
        id,
        ownerId: 'owner',
        options: { seed: `https://${id}.example/` } as CrawlOptions,
        request: {},
        now: NOW,
        retentionMs: 86_400_000,
      });
      // Earlier tests' crawls still have queued pages: one page of each crawl is claimed, this one's is its seed.
      const [page] = (await t.store.claim({ owner: worker, now: NOW, leaseMs: 60_000, max: 100, perJob: 1 })).filter(
        (p) => p.jobId === id,
      );
      assert.ok(page, `the seed of ${id} was claimed`);
      return page;
    }

    function outcome(page: ClaimedPage, links: string[], limit: number, worker = 'worker'): PageOutcome {
      return {
        pageId: page.id,
        leaseOwner: worker,
        jobId: page.jobId,
        links,
        linkDepth: 1,
        limit,
        now: NOW,
        retentionMs: 86_400_000,
        visited: true,
      };
    }

    const links = (id: string, n: number) => Array.from({ length: n }, (_, i) => `https://${id}.example/p${i}`);
    const total = async (id: string) =>
      (await t.db.kysely.selectFrom('jobs').select('total').where('id', '=', id).executeTakeFirstOrThrow()).total;

    it("reports the room left under the limit after the page's links were admitted", async () => {
      const seed = await seedOf('roomy');
      assert.deepEqual(await t.store.finishPage(outcome(seed, links('roomy', 2), 10)), { recorded: true, room: 7 });
      assert.equal(await total('roomy'), 3);
    });

    it('reports no room once the limit is reached, however many links the page had', async () => {
      const seed = await seedOf('full');
      assert.deepEqual(await t.store.finishPage(outcome(seed, links('full', 5), 3)), { recorded: true, room: 0 });
      assert.equal(await total('full'), 3, 'two of the five links were admitted, up to the limit');
    });

    it('records nothing and reports no room for a page this worker no longer holds', async () => {
      const seed = await seedOf('lost', 'other-worker');
      assert.deepEqual(await t.store.finishPage(outcome(seed, links('lost', 2), 10, 'worker')), { recorded: false });
      assert.equal(await total('lost'), 1, 'no link was admitted');
    });
  });
}
