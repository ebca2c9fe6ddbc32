// The sweeper removes expired cache entries, jobs and their screenshots, and nothing younger.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { CrawlStore } from '../../src/crawl/store.js';
import { insertJob } from '../../src/jobs/job-store.js';
import { sweepOnce } from '../../src/maintenance/sweeper.js';
import { PageCache } from '../../src/scrape/page-cache.js';
import { ScreenshotStore } from '../../src/screenshots/store.js';
import { indexPage, SearchIndex } from '../../src/search-index/index-store.js';
import { parseQuery } from '../../src/search-index/query-terms.js';
import { type Db, openDatabase } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrations.js';
import { sqliteDatabase } from '../helpers/databases.js';

const database = sqliteDatabase();
let db: Db;
before(async () => {
  db = await openDatabase(database.target);
  await migrateToLatest(db.kysely);
});
after(async () => {
  await db.close();
  await database.drop();
});

it('deletes cache entries older than the TTL and jobs past expires_at', async () => {
  const cache = new PageCache(db.kysely);
  const page = {
    url: 'https://a.test/',
    finalUrl: 'https://a.test/',
    statusCode: 200,
    contentType: 'text/html',
    headers: {},
    body: 'x',
    engine: 'cheerio',
  };
  await cache.write('old', { ...page, cachedAt: '2026-01-01T00:00:00.000Z' });
  await cache.write('new', { ...page, cachedAt: '2026-01-09T00:00:00.000Z' });
  const job = {
    ownerId: 'o',
    kind: 'scrape' as const,
    status: 'completed',
    url: 'https://a.test/',
    options: {},
    createdAt: '2026-01-01T00:00:00.000Z',
  };
  await insertJob(db.kysely, { ...job, id: 'expired', expiresAt: '2026-01-02T00:00:00.000Z' });
  await insertJob(db.kysely, { ...job, id: 'kept', expiresAt: '2026-01-11T00:00:00.000Z' });

  await insertJob(db.kysely, { ...job, kind: 'crawl', id: 'old-crawl', expiresAt: '2026-01-02T00:00:00.000Z' });
  await db.kysely
    .insertInto('crawl_results')
    .values({ job_id: 'old-crawl', url: 'https://a.test/', data: '{}', created_at: job.createdAt })
    .execute();
  await db.kysely
    .insertInto('crawl_pages')
    .values({
      job_id: 'old-crawl',
      url: 'https://a.test/',
      depth: 0,
      state: 'done',
      attempts: 0,
      available_at: job.createdAt,
      lease_until: null,
      lease_owner: null,
      error: null,
    })
    .execute();

  // Screenshots go with their job, scrape or crawl; the kept job keeps its own.
  const shots = new ScreenshotStore(db.kysely);
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  );
  const shotOf = async (jobId: string) => (await shots.save({ ownerId: 'o', jobId, png, now: job.createdAt })).id;
  const [expiredShot, crawlShot, keptShot] = [await shotOf('expired'), await shotOf('old-crawl'), await shotOf('kept')];

  const now = new Date('2026-01-10T00:00:00.000Z');
  const crawls = new CrawlStore(db.kysely, db.dialect);
  const removed = await sweepOnce({ db: db.kysely, cache, crawls, clock: () => now, cacheTtlMs: 7 * 24 * 3600 * 1000 });
  assert.deepEqual(removed, {
    cacheEntries: 1,
    jobs: 1,
    crawls: 1,
    interruptedScrapes: 0,
    interruptedMaps: 0,
    interruptedSearches: 0,
  });
  const ids = (await db.kysely.selectFrom('jobs').select('id').execute()).map((r) => r.id);
  assert.deepEqual(ids, ['kept']);
  assert.equal((await db.kysely.selectFrom('crawl_results').selectAll().execute()).length, 0);
  assert.equal((await db.kysely.selectFrom('crawl_pages').selectAll().execute()).length, 0);
  assert.equal(await shots.read('o', expiredShot), undefined);
  assert.equal(await shots.read('o', crawlShot), undefined);
  assert.deepEqual((await shots.read('o', keptShot))?.content, png);
  assert.ok(await cache.read('new', 10 ** 12, now));
  assert.equal(await cache.read('old', 10 ** 12, now), undefined);
});

it('fails a scrape still pending 10 minutes after it started (cut off by a dead process or a store that stopped taking writes), with its event', async () => {
  const cache = new PageCache(db.kysely);
  const crawls = new CrawlStore(db.kysely, db.dialect);
  const job = {
    ownerId: 'o',
    kind: 'scrape' as const,
    status: 'pending',
    url: 'https://a.test/',
    options: {},
    expiresAt: '2026-03-02T00:00:00.000Z',
  };
  await insertJob(db.kysely, { ...job, id: 'cut-off', createdAt: '2026-03-01T10:00:00.000Z' });
  await insertJob(db.kysely, { ...job, id: 'running', createdAt: '2026-03-01T10:05:00.000Z' });
  const now = new Date('2026-03-01T10:10:30.000Z');
  const changed = await sweepOnce({ db: db.kysely, cache, crawls, clock: () => now, cacheTtlMs: 7 * 24 * 3600 * 1000 });
  assert.equal(changed.interruptedScrapes, 1);
  const rows = await db.kysely
    .selectFrom('jobs')
    .select(['id', 'status', 'error_code'])
    .where('id', 'in', ['cut-off', 'running'])
    .orderBy('id')
    .execute();
  assert.deepEqual(rows, [
    { id: 'cut-off', status: 'failed', error_code: 'INTERRUPTED' },
    { id: 'running', status: 'pending', error_code: null },
  ]);
  const events = await db.kysely
    .selectFrom('events')
    .select(['type', 'subject_id'])
    .where('subject_id', '=', 'cut-off')
    .execute();
  assert.deepEqual(events, [{ type: 'scrape.failed', subject_id: 'cut-off' }]);
});

it('fails a map still pending 10 minutes after it started, with map.failed', async () => {
  const cache = new PageCache(db.kysely);
  const crawls = new CrawlStore(db.kysely, db.dialect);
  const job = {
    ownerId: 'o',
    kind: 'map' as const,
    status: 'pending',
    url: 'https://a.test/',
    options: {},
    expiresAt: '2026-03-02T00:00:00.000Z',
  };
  await insertJob(db.kysely, { ...job, id: 'map-cut-off', createdAt: '2026-03-01T10:00:00.000Z' });
  await insertJob(db.kysely, { ...job, id: 'map-running', createdAt: '2026-03-01T10:05:00.000Z' });
  const now = new Date('2026-03-01T10:10:30.000Z');
  const changed = await sweepOnce({ db: db.kysely, cache, crawls, clock: () => now, cacheTtlMs: 7 * 24 * 3600 * 1000 });
  assert.equal(changed.interruptedMaps, 1);
  const rows = await db.kysely
    .selectFrom('jobs')
    .select(['id', 'status', 'error_code'])
    .where('id', 'in', ['map-cut-off', 'map-running'])
    .orderBy('id')
    .execute();
  assert.deepEqual(rows, [
    { id: 'map-cut-off', status: 'failed', error_code: 'INTERRUPTED' },
    { id: 'map-running', status: 'pending', error_code: null },
  ]);
  const events = await db.kysely
    .selectFrom('events')
    .select(['type'])
    .where('subject_id', '=', 'map-cut-off')
    .execute();
  assert.deepEqual(events, [{ type: 'map.failed' }]);
});

it('fails a search still pending 20 minutes after it started, with search.failed', async () => {
  const cache = new PageCache(db.kysely);
  const crawls = new CrawlStore(db.kysely, db.dialect);
  const job = {
    ownerId: 'o',
    kind: 'search' as const,
    status: 'pending',
    url: 'copper kettle',
    options: { engine: 'index' },
    expiresAt: '2026-04-02T00:00:00.000Z',
  };
  await insertJob(db.kysely, { ...job, id: 'search-cut-off', createdAt: '2026-04-01T10:00:00.000Z' });
  await insertJob(db.kysely, { ...job, id: 'search-running', createdAt: '2026-04-01T10:05:00.000Z' });
  const now = new Date('2026-04-01T10:20:30.000Z');
  const changed = await sweepOnce({ db: db.kysely, cache, crawls, clock: () => now, cacheTtlMs: 7 * 24 * 3600 * 1000 });
  assert.equal(changed.interruptedSearches, 1);
  const rows = await db.kysely
    .selectFrom('jobs')
    .select(['id', 'status', 'error_code'])
    .where('id', 'in', ['search-cut-off', 'search-running'])
    .orderBy('id')
    .execute();
  assert.deepEqual(rows, [
    { id: 'search-cut-off', status: 'failed', error_code: 'INTERRUPTED' },
    { id: 'search-running', status: 'pending', error_code: null },
  ]);
  const events = await db.kysely
    .selectFrom('events')
    .select(['type', 'payload'])
    .where('subject_id', '=', 'search-cut-off')
    .execute();
  assert.deepEqual(
    events.map((e) => e.type),
    ['search.failed'],
  );
  const payload = JSON.parse(events[0]?.payload ?? '{}') as { query?: string; engine?: string };
  assert.equal(payload.query, 'copper kettle');
  assert.equal(payload.engine, 'index');
});

it('removes the indexed pages of expired jobs of every kind, and keeps the others', async () => {
  const cache = new PageCache(db.kysely);
  const crawls = new CrawlStore(db.kysely, db.dialect);
  const base = {
    ownerId: 'o',
    status: 'completed',
    url: 'https://i.test/',
    options: {},
    createdAt: '2026-05-01T00:00:00.000Z',
  };
  await insertJob(db.kysely, { ...base, kind: 'scrape', id: 'idx-scrape', expiresAt: '2026-05-02T00:00:00.000Z' });
  await insertJob(db.kysely, { ...base, kind: 'crawl', id: 'idx-crawl', expiresAt: '2026-05-02T00:00:00.000Z' });
  await insertJob(db.kysely, { ...base, kind: 'search', id: 'idx-search', expiresAt: '2026-05-02T00:00:00.000Z' });
  await insertJob(db.kysely, { ...base, kind: 'scrape', id: 'idx-kept', expiresAt: '2026-06-02T00:00:00.000Z' });
  await db.kysely.transaction().execute(async (trx) => {
    for (const jobId of ['idx-scrape', 'idx-crawl', 'idx-search', 'idx-kept'])
      await indexPage(trx, {
        ownerId: 'o',
        jobId,
        url: `https://i.test/${jobId}`,
        title: `Page of ${jobId}`,
        text: 'sweepable words',
        indexedAt: base.createdAt,
      });
  });
  await sweepOnce({
    db: db.kysely,
    cache,
    crawls,
    clock: () => new Date('2026-05-03T00:00:00.000Z'),
    cacheTtlMs: 7 * 24 * 3600 * 1000,
  });
  const left = await db.kysely.selectFrom('search_documents').select('job_id').execute();
  assert.deepEqual(
    left.map((r) => r.job_id),
    ['idx-kept'],
  );
  const hits = await new SearchIndex(db.kysely, db.dialect).search('o', {
    terms: parseQuery('sweepable'),
    limit: 10,
    offset: 0,
  });
  assert.deepEqual(
    hits.map((h) => h.jobId),
    ['idx-kept'],
    'the full-text index forgot them too',
  );
});
