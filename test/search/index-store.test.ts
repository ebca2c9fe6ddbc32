// The embedded search index on both databases: ranking, snippets, the query syntax, filters, one copy per URL and
// per key, and deletion with the jobs that saved the pages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type Db } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrations.js';
import { sql } from 'kysely';
import {
  deleteIndexedPagesOfJobs,
  flushPendingFts,
  indexPage,
  SEARCH_INDEX_MAX_CHARS,
  SearchIndex,
  type IndexablePage,
} from '../../src/search-index/index-store.js';
import { parseQuery } from '../../src/search-index/query-terms.js';
import { allDatabases, type TestDatabase } from '../helpers/databases.js';

const OWNER = 'owner-a';
const OTHER = 'owner-b';

function page(over: Partial<IndexablePage> & Pick<IndexablePage, 'url'>): IndexablePage {
  return {
    ownerId: OWNER,
    jobId: 'job-1',
    title: '',
    text: '',
    indexedAt: '2026-11-20T10:00:00.000Z',
    ...over,
  };
}

for (const make of allDatabases()) {
  const testDb: TestDatabase = make();
  describe(`search index (${testDb.name})`, () => {
    let db: Db;
    let index: SearchIndex;
    const search = (
      query: string,
      extra: { limit?: number; offset?: number; since?: string; language?: string } = {},
    ) =>
      index.search(extra.language === 'other-owner' ? OTHER : OWNER, {
        terms: parseQuery(query),
        limit: extra.limit ?? 10,
        offset: extra.offset ?? 0,
        ...(extra.since ? { since: extra.since } : {}),
        ...(extra.language && extra.language !== 'other-owner' ? { language: extra.language } : {}),
      });

    before(async () => {
      db = await openDatabase(testDb.target);
      await migrateToLatest(db.kysely);
      index = new SearchIndex(db.kysely, db.dialect);
      const pages: IndexablePage[] = [
        page({
          url: 'https://shop.example/kettle',
          title: 'Copper kettle for induction stoves',
          text: 'A copper kettle that boils water fast. Works on gas, electric and induction stoves. Dishwasher safe.',
          language: 'en-GB',
        }),
        page({
          url: 'https://blog.example/tea',
          title: 'How to brew green tea',
          text: 'Heat the water in a kettle to 80 degrees, never boiling. Steep the leaves for two minutes.',
          language: 'en',
          jobId: 'job-2',
        }),
        page({
          url: 'https://www.news.example/markets',
          title: 'Markets today',
          text: 'Copper prices rose on Tuesday while the café on Main Street served its 10,000th espresso. Built with node.js 3.14 at example.com.',
          language: 'en',
          indexedAt: '2026-11-25T10:00:00.000Z',
          jobId: 'job-3',
        }),
        page({
          url: 'https://de.example/wasserkocher',
          title: 'Wasserkocher aus Kupfer',
          text: 'Ein Wasserkocher aus Kupfer für Induktion. Spülmaschinenfest und schnell.',
          language: 'de',
          jobId: 'job-3',
        }),
        page({ ownerId: OTHER, url: 'https://secret.example/', title: 'Copper secret', text: 'copper kettle secret' }),
      ];
      await db.kysely.transaction().execute(async (trx) => {
        for (const p of pages) await indexPage(trx, p);
      });
    });
    after(async () => {
      await db.close();
      await testDb.drop();
    });

    it('finds pages by words in the title or text, best first, with a snippet around them', async () => {
      const hits = await search('copper kettle');
      assert.deepEqual(
        hits.map((h) => h.url),
        ['https://shop.example/kettle'],
      );
      const first = hits[0];
      assert.ok(first);
      assert.equal(first.title, 'Copper kettle for induction stoves');
      assert.match(first.snippet, /kettle/i);
      assert.equal(first.jobId, 'job-1');

      const kettle = await search('kettle');
      assert.deepEqual(
        kettle.map((h) => h.url),
        ['https://shop.example/kettle', 'https://blog.example/tea'],
        'the page with the word in its title ranks first',
      );
    });

    it("never finds another key's pages", async () => {
      assert.deepEqual(
        (await search('secret')).map((h) => h.url),
        [],
      );
      assert.deepEqual(
        (await search('secret', { language: 'other-owner' })).map((h) => h.url),
        ['https://secret.example/'],
      );
    });

    it('folds case (and on SQLite diacritics), and reads phrases, exclusions and punctuation', async () => {
      assert.deepEqual(
        (await search('COPPER PRICES')).map((h) => h.url),
        ['https://www.news.example/markets'],
      );
      if (testDb.name === 'sqlite')
        assert.deepEqual(
          (await search('cafe')).map((h) => h.url),
          ['https://www.news.example/markets'],
        );
      assert.deepEqual(
        (await search('"water fast"')).map((h) => h.url),
        ['https://shop.example/kettle'],
      );
      assert.deepEqual(
        (await search('"fast water"')).map((h) => h.url),
        [],
        'a phrase needs its words in order',
      );
      assert.deepEqual(
        (await search('kettle -induction')).map((h) => h.url),
        ['https://blog.example/tea'],
      );
      // Dotted words are their parts on both databases (PostgreSQL's own parser would keep them whole).
      for (const dotted of ['node.js', 'example.com', '3.14', 'example'])
        assert.deepEqual(
          (await search(dotted)).map((h) => h.url),
          ['https://www.news.example/markets'],
          dotted,
        );
      // FTS5 and tsquery operators in user text are words, never syntax.
      for (const hostile of [
        'kettle OR secret',
        'kettle*',
        'NEAR(kettle water)',
        "kettle' | 'x",
        'kettle:* & !x',
        '"',
      ]) {
        const hits = await search(hostile);
        assert.ok(Array.isArray(hits), hostile);
        assert.ok(!hits.some((h) => h.url.includes('secret')), hostile);
      }
    });

    it('filters by site:, by time and by language', async () => {
      assert.deepEqual(
        (await search('copper site:news.example')).map((h) => h.url),
        ['https://www.news.example/markets'],
      );
      assert.deepEqual(
        (await search('copper site:example')).map((h) => h.url).sort(),
        ['https://shop.example/kettle', 'https://www.news.example/markets'].sort(),
      );
      assert.deepEqual(
        (await search('copper site:shop.example.org')).map((h) => h.url),
        [],
      );
      assert.deepEqual(
        (await search('copper', { since: '2026-11-24T00:00:00.000Z' })).map((h) => h.url),
        ['https://www.news.example/markets'],
      );
      assert.deepEqual(
        (await search('kupfer', { language: 'de' })).map((h) => h.url),
        ['https://de.example/wasserkocher'],
      );
      assert.deepEqual(
        (await search('kettle', { language: 'en' })).map((h) => h.url).sort(),
        ['https://blog.example/tea', 'https://shop.example/kettle'],
        'en takes en-GB too',
      );
      assert.deepEqual(
        (await search('kettle', { language: 'de' })).map((h) => h.url),
        [],
      );
    });

    it('pages with limit and offset', async () => {
      const all = (await search('water')).map((h) => h.url);
      assert.equal(all.length, 2);
      assert.deepEqual(
        (await search('water', { limit: 1 })).map((h) => h.url),
        [all[0]],
      );
      assert.deepEqual(
        (await search('water', { limit: 1, offset: 1 })).map((h) => h.url),
        [all[1]],
      );
      assert.deepEqual(await search('water', { offset: 5 }), []);
    });

    it('answers nothing for a query without words', async () => {
      assert.deepEqual(await search('-kettle'), []);
      assert.deepEqual(await search('  ...  '), []);
    });

    it('holds a URL once per key: a later save replaces the earlier one', async () => {
      await db.kysely.transaction().execute((trx) =>
        indexPage(
          trx,
          page({
            url: 'https://blog.example/tea',
            title: 'Black tea',
            text: 'Assam and Darjeeling.',
            jobId: 'job-9',
          }),
        ),
      );
      assert.deepEqual(await search('green'), []);
      const hits = await search('darjeeling');
      assert.equal(hits.length, 1);
      assert.equal(hits[0]?.jobId, 'job-9');
    });

    it('keeps the first SEARCH_INDEX_MAX_CHARS characters of a page', async () => {
      const filler = 'lorem '.repeat(Math.ceil(SEARCH_INDEX_MAX_CHARS / 6));
      await db.kysely.transaction().execute((trx) =>
        indexPage(
          trx,
          page({
            url: 'https://long.example/',
            title: 'Long',
            text: `zebrafront ${filler} zebratail`,
            jobId: 'job-long',
          }),
        ),
      );
      assert.equal((await search('zebrafront')).length, 1);
      assert.equal((await search('zebratail')).length, 0);
    });

    if (testDb.name === 'sqlite')
      it('SQLite: indexes saved pages in batches, a page replaced or deleted before its flush leaving no trace', async () => {
        const pending = async () =>
          Number(
            (await sql<{ n: number }>`select count(*) as n from search_fts_pending`.execute(db.kysely)).rows[0]?.n,
          );
        // Saved, replaced and deleted, all before a flush: the index never held the first two.
        await db.kysely.transaction().execute(async (trx) => {
          await indexPage(trx, page({ url: 'https://p.example/1', title: 'Quokka one', jobId: 'job-p' }));
          await indexPage(trx, page({ url: 'https://p.example/1', title: 'Quokka two', jobId: 'job-p' }));
          await indexPage(trx, page({ url: 'https://p.example/2', title: 'Quokka gone', jobId: 'job-gone' }));
          await deleteIndexedPagesOfJobs(trx, ['job-gone']);
        });
        assert.equal(await pending(), 1, 'only the page that is still saved waits');
        assert.equal(await flushPendingFts(db.kysely), 1);
        assert.equal(await pending(), 0);
        // More than one flush batch (200) waits: all are indexed, by search's own flush.
        await db.kysely.transaction().execute(async (trx) => {
          for (let i = 0; i < 450; i++)
            await indexPage(trx, page({ url: `https://many.example/${i}`, title: `Wombat ${i}`, jobId: 'job-many' }));
        });
        assert.equal((await search('wombat', { limit: 500 })).length, 450);
        assert.equal(await pending(), 0);
        const quokkas = await search('quokka');
        assert.deepEqual(
          quokkas.map((h) => h.title),
          ['Quokka two'],
        );
        // Deleted after the flush: it leaves the index itself.
        await db.kysely.transaction().execute((trx) => deleteIndexedPagesOfJobs(trx, ['job-p', 'job-many']));
        assert.deepEqual(await search('quokka'), []);
        // FTS5's own check that the index matches the rows it was given (a 'delete' of a row never indexed fails it).
        await sql`insert into search_fts(search_fts, rank) values ('integrity-check', 1)`.execute(db.kysely);
      });

    it('removes the pages of deleted jobs, and only theirs', async () => {
      const removed = await db.kysely.transaction().execute((trx) => deleteIndexedPagesOfJobs(trx, ['job-3']));
      assert.equal(removed, 2);
      assert.deepEqual(await search('kupfer'), []);
      assert.deepEqual(await search('prices'), []);
      assert.equal((await search('kettle')).length, 1);
    });
  });
}
