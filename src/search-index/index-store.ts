// The embedded search index: pages saved by scrapes, crawls and batch scrapes, searchable by their key with the
// database's own full-text engine (SQLite FTS5, PostgreSQL tsvector + GIN). docs/search.md states the rules.
import { createHash } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Dialect } from '../store/database.js';
import type { Database } from '../store/schema.js';
import { fts5Expression, type QueryTerms, type Term } from './query-terms.js';

type Executor = Kysely<Database> | Transaction<Database>;

/** Characters of a page's text that are indexed; the rest of a long page is not searchable. */
export const SEARCH_INDEX_MAX_CHARS = 32_000;
/** Characters of a title that are indexed. */
const MAX_TITLE_CHARS = 1_000;
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

/** Collapses runs of whitespace and cuts at the limit without splitting a surrogate pair. */
function bounded(text: string, max: number): string {
  const flat = text.length > max * 2 ? text.slice(0, max * 2) : text;
  const collapsed = flat.replace(/\s+/g, ' ').trim();
  if (collapsed.length <= max) return collapsed;
  const cut = collapsed.charCodeAt(max - 1);
  return collapsed.slice(0, cut >= 0xd800 && cut <= 0xdbff ? max - 1 : max);
}

/**
 * Indexes one saved page within the caller's transaction (a crawl's page is indexed with its result, or not at all). A
 * URL is held once per key: this save replaces the key's earlier copy of it.
 */
export async function indexPage(trx: Executor, page: IndexablePage): Promise<void> {
  const hash = urlHash(page.url);
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

/** Removes the pages saved by these jobs (their expiry or deletion), within the caller's transaction. */
export async function deleteIndexedPagesOfJobs(trx: Executor, jobIds: readonly string[]): Promise<number> {
  if (jobIds.length === 0) return 0;
  const result = await trx
    .deleteFrom('search_documents')
    .where('job_id', 'in', [...jobIds])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

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
    const match = fts5Expression(query.terms);
    // Ranked ids first; snippets are made for the page of hits only (making one reads and re-tokenizes the text).
    const top = await sql<{ id: number }>`
      select d.id as id
      from search_fts f join search_documents d on d.id = f.rowid
      where search_fts match ${match} and d.owner_id = ${ownerId} ${this.filters(query)}
      order by f.rank
      limit ${query.limit} offset ${query.offset}`.execute(this.db);
    if (top.rows.length === 0) return [];
    const ids = top.rows.map((r) => r.id);
    const rows = await sql<{
      id: number;
      url: string;
      title: string;
      job_id: string;
      indexed_at: string;
      language: string | null;
      snippet: string;
    }>`
      select d.id as id, d.url as url, d.title as title, d.job_id as job_id, d.indexed_at as indexed_at,
        d.language as language, snippet(search_fts, 1, '', '', '…', ${SNIPPET_TOKENS}) as snippet
      from search_fts f join search_documents d on d.id = f.rowid
      where search_fts match ${match} and f.rowid in (${sql.join(ids)})`.execute(this.db);
    return inOrder(ids, rows.rows);
  }

  private async searchPostgres(ownerId: string, query: IndexQuery): Promise<IndexHit[]> {
    const tsquery = postgresQuery(query.terms);
    const top = await sql<{ id: string }>`
      select d.id as id
      from search_documents d
      where d.tsv @@ (${tsquery}) and d.owner_id = ${ownerId} ${this.filters(query)}
      order by ts_rank(d.tsv, (${tsquery})) desc, d.id desc
      limit ${query.limit} offset ${query.offset}`.execute(this.db);
    if (top.rows.length === 0) return [];
    const ids = top.rows.map((r) => Number(r.id));
    const rows = await sql<{
      id: string;
      url: string;
      title: string;
      job_id: string;
      indexed_at: string;
      language: string | null;
      snippet: string;
    }>`
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

function inOrder(
  ids: readonly number[],
  rows: ReadonlyArray<{
    id: number;
    url: string;
    title: string;
    job_id: string;
    indexed_at: string;
    language: string | null;
    snippet: string;
  }>,
): IndexHit[] {
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
