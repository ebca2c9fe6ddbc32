// The embedded search index: pages saved by scrapes, crawls and batch scrapes, searchable by their key with the
// database's own full-text engine (SQLite FTS5, PostgreSQL tsvector + GIN). docs/search.md states the rules.
import { createHash } from 'node:crypto';
import { type Kysely, SqliteAdapter, sql, type Transaction } from 'kysely';
import type { Dialect } from '../store/database.js';
import type { Database } from '../store/schema.js';
import { fts5Expression, type QueryTerms, type Term } from './query-terms.js';
import { cutUtf16 } from '../util/text.js';

type Executor = Kysely<Database> | Transaction<Database>;

/** Characters of a page's text that are indexed; the rest of a long page is not searchable. */
export const SEARCH_INDEX_MAX_CHARS = 32_000;
/** Characters of a title that are indexed. */
const MAX_TITLE_CHARS = 1_000;
/** Matches a SQLite search ranks at most when there are more: its newest (searchSqlite). */
const RANK_WINDOW = 10_000;
/** Tokens of context a snippet holds, about. */
const SNIPPET_TOKENS = 32;

/** What the pipeline gives of a page for the index. */
export interface SearchablePage {
  /** Where the page's content was found: its final URL, after redirects. */
  url: string;
  title: string;
  /** The text of the page's content (as its markdown would hold it), unbounded here: cut on the way in. */
  text: string;
  language?: string | undefined;
}

/** A page to index, as a save gives it. */
export interface IndexablePage extends SearchablePage {
  ownerId: string;
  jobId: string;
  indexedAt: string;
}

export interface IndexQuery {
  terms: QueryTerms;
  limit: number;
  offset: number;
  /** Only pages indexed at or after this instant. */
  since?: string;
  /** A language tag: pages whose language is it or one of its variants (`en` takes `en-GB`). */
  language?: string;
}

export interface IndexHit {
  url: string;
  title: string;
  snippet: string;
  jobId: string;
  indexedAt: string;
  language: string | null;
}

/** A stable key of a URL for the (owner, URL) lookup. */
function urlHash(url: string): string {
  return createHash('sha256').update(url).digest('base64url').slice(0, 22);
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/** Collapses runs of whitespace (and drops NULs, which PostgreSQL text refuses) and cuts at the limit, whole pairs. */
function bounded(text: string, max: number): string {
  const flat = text.length > max * 2 ? text.slice(0, max * 2) : text;
  return cutUtf16(flat.replaceAll('\u0000', '').replace(/\s+/g, ' ').trim(), max);
}

/**
 * Indexes one saved page within the caller's transaction (a crawl's page is indexed with its result, or not at all). A
 * URL is held once per key: this save replaces the key's earlier copy of it.
 */
export async function indexPage(trx: Executor, page: IndexablePage): Promise<void> {
  const hash = urlHash(page.url);
  // PostgreSQL: two transactions saving one URL for one key (two crawls, a scrape and a crawl) would both find no
  // earlier copy and both insert; a lock on (key, URL) for the rest of the transaction serializes them. SQLite has one
  // writer at a time.
  if (!(trx.getExecutor().adapter instanceof SqliteAdapter))
    await sql`select pg_advisory_xact_lock(hashtext(${`${page.ownerId}|${hash}`}))`.execute(trx);
  await trx.deleteFrom('search_documents').where('owner_id', '=', page.ownerId).where('url_hash', '=', hash).execute();
  await trx
    .insertInto('search_documents')
    .values({
      owner_id: page.ownerId,
      job_id: page.jobId,
      url: page.url,
      url_hash: hash,
      host: hostOf(page.url),
      title: bounded(page.title, MAX_TITLE_CHARS),
      body: bounded(page.text, SEARCH_INDEX_MAX_CHARS),
      language: page.language ? page.language.toLowerCase().slice(0, 35) : null,
      indexed_at: page.indexedAt,
    })
    .execute();
}

/**
 * The URLs of this key's indexed pages matching LIKE patterns, oldest first, at most `max`: what map's `use_index`
 * adds to crawl and batch results (single scrapes and a search's scraped results are kept only here).
 */
export async function indexedUrlsOfOwner(
  db: Executor,
  ownerId: string,
  patterns: readonly string[],
  max: number,
): Promise<string[]> {
  if (patterns.length === 0 || max <= 0) return [];
  const rows = await db
    .selectFrom('search_documents')
    .select('url')
    .where('owner_id', '=', ownerId)
    .where((eb) => eb.or(patterns.map((p) => eb('url', 'like', p))))
    .orderBy('id')
    .limit(max)
    .execute();
  return rows.map((r) => r.url);
}

/** Removes the pages saved by these jobs (their expiry or deletion), within the caller's transaction. */
export async function deleteIndexedPagesOfJobs(trx: Executor, jobIds: readonly string[]): Promise<number> {
  if (jobIds.length === 0) return 0;
  const result = await trx
    .deleteFrom('search_documents')
    .where('job_id', 'in', [...jobIds])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Pages indexed by one flush transaction: a batch holds SQLite's write lock for 0.1–0.5 ms a page. */
const FTS_FLUSH_BATCH = 500;

/**
 * SQLite: indexes the saved pages waiting in search_fts_pending (migration 0013), FTS_FLUSH_BATCH per transaction,
 * until none wait; answers how many it indexed. Each transaction's first statement writes, so it holds the write lock
 * from its start (no read snapshot to upgrade), and the same pending rows are indexed and taken off the list.
 */
export async function flushPendingFts(db: Kysely<Database>, maxBatches = Number.POSITIVE_INFINITY): Promise<number> {
  let indexed = 0;
  for (let batches = 0; batches < maxBatches; batches++) {
    const waiting = await sql<{ id: number }>`select id from search_fts_pending limit 1`.execute(db);
    if (waiting.rows.length === 0) return indexed;
    const batch = await db.transaction().execute(async (trx) => {
      await sql`
        insert into search_fts(rowid, title, body)
        select d.id, d.title, d.body from search_documents d
        where d.id in (select id from search_fts_pending order by id limit ${FTS_FLUSH_BATCH})`.execute(trx);
      const taken = await sql`delete from search_fts_pending
        where id in (select id from search_fts_pending order by id limit ${FTS_FLUSH_BATCH})`.execute(trx);
      return Number(taken.numAffectedRows ?? 0n);
    });
    indexed += batch;
    if (batch < FTS_FLUSH_BATCH) return indexed;
  }
  return indexed;
}

/** Batches a search flushes first: the pages of its own moment, not a backlog (the flush loop takes that). */
const SEARCH_FLUSH_BATCHES = 2;

export class SearchIndex {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** The owner's pages matching the terms, best first, with a snippet of each around the terms. */
  async search(ownerId: string, query: IndexQuery): Promise<IndexHit[]> {
    if (query.terms.required.length === 0) return [];
    return this.dialect === 'sqlite' ? this.searchSqlite(ownerId, query) : this.searchPostgres(ownerId, query);
  }

  private async searchSqlite(ownerId: string, query: IndexQuery): Promise<IndexHit[]> {
    // Pages saved since the last flush are found too. A search stays a read when it cannot write: another process
    // holding the write lock past busy_timeout (or a backlog past two batches) costs it the newest pages, not a 500.
    await flushPendingFts(this.db, SEARCH_FLUSH_BATCHES).catch(() => 0);
    const match = fts5Expression(query.terms);
    // The key's rows are read through search_documents_filter (id, owner_id, host, indexed_at, language): a row of
    // search_documents holds its page's text, a page of the file (and overflow pages for the columns after body).
    const ranked = (order: 'rank' | 'filtered', from?: number) =>
      sql<{ id: number }>`
      select d.id as id
      from search_fts f join search_documents d indexed by search_documents_filter on d.id = f.rowid
      where search_fts match ${match} ${from !== undefined ? sql`and f.rowid >= ${BigInt(from)}` : sql``}
        and d.owner_id = ${ownerId} ${this.filters(query)}
      order by ${order === 'rank' ? sql`f.rank` : sql`bm25(search_fts, 5.0, 1.0)`}
      limit ${query.limit} offset ${query.offset}`.execute(this.db);
    let top;
    if (query.terms.sites.length > 0) {
      // A site holds few of the matches: they are filtered first, so that bm25 is computed for them only (FTS5's own
      // rank order computes it for every match before the first row reaches the filter).
      top = await ranked('filtered');
    } else {
      // FTS5 computes bm25 for every match of the whole index and sorts them all before the first row comes out (about
      // 1.3 µs a match: 120 ms for a word in each of 100,000 pages). A query with more than RANK_WINDOW matches ranks
      // only those from its RANK_WINDOW-th newest on (found in the doclist alone); when they hold less than a page of
      // the key's hits, all its matches are ranked.
      const edge = (
        await sql<{ id: number }>`
          select rowid as id from search_fts where search_fts match ${match}
          order by rowid desc limit 1 offset ${RANK_WINDOW - 1}`.execute(this.db)
      ).rows[0]?.id;
      if (edge !== undefined) top = await ranked('rank', edge);
      if (top === undefined || top.rows.length < query.limit) top = await ranked('rank');
    }
    if (top.rows.length === 0) return [];
    // Bound as integers (BigInt): better-sqlite3 binds a JS number as a REAL, and FTS5 ignores a REAL rowid constraint
    // after telling SQLite it applied it; with one id, `rowid in (?)` became `rowid = ?` and the snippets of every
    // match in the index were made (7–11 s for a word in each of 100,000 pages).
    const ids = top.rows.map((r) => r.id);
    const rows = await sql<HitRow<number>>`
      select d.id as id, d.url as url, d.title as title, d.job_id as job_id, d.indexed_at as indexed_at,
        d.language as language, snippet(search_fts, 1, '', '', '…', ${SNIPPET_TOKENS}) as snippet
      from search_fts f join search_documents d on d.id = f.rowid
      where search_fts match ${match} and f.rowid in (${sql.join(ids.map((id) => BigInt(id)))})`.execute(this.db);
    return inOrder(ids, rows.rows);
  }

  private async searchPostgres(ownerId: string, query: IndexQuery): Promise<IndexHit[]> {
    const tsquery = postgresQuery(query.terms);
    // ts_rank reads (and decompresses) the stored tsvector of every row it scores: a common word's 100,000 matches
    // took 150-800 ms. The key's newest RANK_WINDOW matches are ranked, as SQLite ranks its window.
    const top = await sql<{ id: string }>`
      with candidates as (
        select d.id as id, d.tsv as tsv
        from search_documents d
        where d.tsv @@ (${tsquery}) and d.owner_id = ${ownerId} ${this.filters(query)}
        order by d.id desc
        limit ${RANK_WINDOW}
      )
      select id from candidates
      order by ts_rank(tsv, (${tsquery})) desc, id desc
      limit ${query.limit} offset ${query.offset}`.execute(this.db);
    if (top.rows.length === 0) return [];
    const ids = top.rows.map((r) => Number(r.id));
    const rows = await sql<HitRow<string>>`
      select d.id as id, d.url as url, d.title as title, d.job_id as job_id, d.indexed_at as indexed_at,
        d.language as language,
        ts_headline('simple', d.body, (${tsquery}),
          'StartSel="",StopSel="",MaxWords=35,MinWords=15,MaxFragments=2,FragmentDelimiter=" … "') as snippet
      from search_documents d
      where d.id in (${sql.join(ids)})`.execute(this.db);
    return inOrder(
      ids,
      rows.rows.map((r) => ({ ...r, id: Number(r.id) })),
    );
  }

  /** The site, time and language filters, as `and …` clauses over `d`. */
  private filters(query: IndexQuery) {
    const clauses = [];
    if (query.terms.sites.length > 0) {
      const sites = query.terms.sites.map(
        (host) =>
          sql`(d.host = ${host} or d.host = ${`www.${host}`} or d.host like ${`%.${likeEscaped(host)}`} escape '\\')`,
      );
      clauses.push(sql`and (${sql.join(sites, sql` or `)})`);
    }
    if (query.since !== undefined) clauses.push(sql`and d.indexed_at >= ${query.since}`);
    if (query.language !== undefined) {
      const language = query.language.toLowerCase();
      clauses.push(sql`and (d.language = ${language} or d.language like ${`${likeEscaped(language)}-%`} escape '\\')`);
    }
    return clauses.length === 0 ? sql`` : sql.join(clauses, sql` `);
  }
}

/** A hit as the snippet queries read it (PostgreSQL gives a bigint id as a string). */
interface HitRow<Id> {
  id: Id;
  url: string;
  title: string;
  job_id: string;
  indexed_at: string;
  language: string | null;
  snippet: string;
}

/** `%`, `_` and the escape character taken literally in a LIKE pattern. */
function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The tsquery of the terms, each term through phraseto_tsquery so that PostgreSQL's own parser splits it as it split
 * the text: required terms joined with &&, excluded ones with && !!.
 */
function postgresQuery(terms: QueryTerms) {
  const phrase = (term: Term) => sql`phraseto_tsquery('simple', ${term.join(' ')})`;
  const parts = [...terms.required.map(phrase), ...terms.excluded.map((term) => sql`!!${phrase(term)}`)];
  return sql.join(parts, sql` && `);
}

function inOrder(ids: readonly number[], rows: ReadonlyArray<HitRow<number>>): IndexHit[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row
      ? [
          {
            url: row.url,
            title: row.title,
            snippet: row.snippet,
            jobId: row.job_id,
            indexedAt: row.indexed_at,
            language: row.language,
          },
        ]
      : [];
  });
}
