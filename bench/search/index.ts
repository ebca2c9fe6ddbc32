// Search index benchmark: search latency at 100,000 indexed pages on SQLite (FTS5) and PostgreSQL (tsvector + GIN),
// insert throughput and index size per page.
//
//   npx tsx bench/search/index.ts [--docs 100000] [--db sqlite|postgres|both] [--queries 200] [--batch 500]
//   add --keep to keep the database (its path or schema is printed), --reuse <dir|schema> to query a kept one again
//   (with the same --docs and --seed, and one --db)
//
// The pages are made from the real article texts of /work/shared/bench (corpus.ts) and inserted through the
// service's own indexPage(), `--batch` pages per transaction; one key holds ~97% of them (the worst case for one
// key's searches), a dozen other keys the rest. The queries are a fixed mix (common and rare words, two and three
// words, phrases, -exclusions, site:, a time range, a language, another key's search), made from the corpus's
// document frequencies with a seeded PRNG, run one at a time through SearchIndex.search() after a warm-up; each
// search's statements are timed too: those that find the ranked ids, and the last, which makes the hits' snippets.
// A few worst cases (the commonest word, for another key, deep pages, one hit) are timed apart from the mix.
// PostgreSQL is at BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test), in a throwaway schema.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  sql,
  type UnknownRow,
} from 'kysely';
import { flushPendingFts, indexPage, SearchIndex } from '../../src/search-index/index-store.js';
import { parseQuery } from '../../src/search-index/query-terms.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrations.js';
import { prng } from '../crawl/site.js';
import { Corpus, type CorpusDoc, MAIN_OWNER, OTHER_OWNERS, type Rand, sourceSentence } from './corpus.js';

const POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL ?? process.env.DATABASE_URL_TEST ?? 'postgres://postgres@127.0.0.1:5432/test';

const { values: args } = parseArgs({
  options: {
    docs: { type: 'string', default: '100000' },
    db: { type: 'string', default: 'both' },
    queries: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '30' },
    batch: { type: 'string', default: '500' },
    seed: { type: 'string', default: '1' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'string' },
  },
});
const docCount = Number(args.docs);
const queryCount = Number(args.queries);
const warmupCount = Number(args.warmup);
const batchSize = Number(args.batch);
const seed = Number(args.seed);
if (![docCount, queryCount, batchSize].every((n) => Number.isInteger(n) && n > 0) || !Number.isInteger(warmupCount))
  throw new Error('--docs, --queries, --warmup and --batch take positive integers');
if (!['sqlite', 'postgres', 'both'].includes(args.db)) throw new Error('--db is sqlite, postgres or both');
const dialects = (args.db === 'both' ? ['sqlite', 'postgres'] : [args.db]) as Array<'sqlite' | 'postgres'>;
if (args.reuse !== undefined && dialects.length !== 1) throw new Error('--reuse needs --db sqlite or --db postgres');

const log = (message: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;
const DAY_MS = 24 * 3600_000;

// ---------------------------------------------------------------------------------------------
// Statement timing: the ms of every statement a search runs, in order, through a Kysely plugin.

class StatementTimer implements KyselyPlugin {
  private readonly started = new WeakMap<object, number>();
  spans: number[] = [];

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.started.set(args.queryId, performance.now());
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const t0 = this.started.get(args.queryId);
    if (t0 !== undefined) this.spans.push(performance.now() - t0);
    return args.result;
  }
}

// ---------------------------------------------------------------------------------------------
// Queries.

type Kind =
  | 'common word'
  | 'rare word'
  | 'two words'
  | 'three words'
  | 'phrase'
  | '-exclusion'
  | 'site:'
  | 'since 7 days'
  | 'language en'
  | 'other key, common word';
const KINDS: Kind[] = [
  'common word',
  'rare word',
  'two words',
  'three words',
  'phrase',
  '-exclusion',
  'site:',
  'since 7 days',
  'language en',
  'other key, common word',
];

interface BenchQuery {
  kind: Kind;
  q: string;
  owner: string;
  since?: string;
  language?: string;
}

/** Document frequencies of the main key's pages (title and text tokens, lower case), and how many pages it has. */
interface Frequencies {
  words: Map<string, number>;
  docs: number;
  /** Pages of the first other key by host. */
  otherHosts: Map<string, number>;
}

interface Vocabulary {
  common: string[];
  mid: string[];
  rare: string[];
  mainDocs: number;
  df: Map<string, number>;
}

function vocabulary({ words: df, docs: mainDocs }: Frequencies): Vocabulary {
  const common: string[] = [];
  const mid: string[] = [];
  const rare: string[] = [];
  // Plain ASCII words of two letters or more: what both engines' tokenizers split alike.
  for (const [word, n] of [...df].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
    if (!/^[a-z][a-z0-9]+$/.test(word)) continue;
    if (n >= mainDocs * 0.1) common.push(word);
    else if (n >= mainDocs * 0.001) mid.push(word);
    else if (n <= 20) rare.push(word);
  }
  return { common, mid, rare, mainDocs, df };
}

const pick = <T>(r: Rand, list: readonly T[]): T => {
  if (list.length === 0) throw new Error('nothing to pick from (too few --docs?)');
  return list[Math.floor(r() * list.length)] as T;
};

function makeQueries(corpus: Corpus, v: Vocabulary, count: number, r: Rand): BenchQuery[] {
  // A word of any frequency, as a query's words are: mostly mid-frequency, some common, some rare.
  const mixed = (): string => {
    const u = r();
    return pick(r, u < 0.35 ? v.common : u < 0.85 ? v.mid : v.rare);
  };
  const distinct = (n: number): string[] => {
    const out = new Set<string>();
    while (out.size < n) out.add(mixed());
    return [...out];
  };
  const phrase = (): string => {
    for (;;) {
      const words = (sourceSentence(corpus, r).toLowerCase().match(TOKEN) ?? []).filter((w) =>
        /^[a-z][a-z0-9]*$/.test(w),
      );
      const n = 2 + Math.floor(r() * 2);
      if (words.length < n) continue;
      const at = Math.floor(r() * (words.length - n + 1));
      return `"${words.slice(at, at + n).join(' ')}"`;
    }
  };
  const since = new Date(corpus.endMs - 7 * DAY_MS).toISOString();
  const make = (kind: Kind): BenchQuery => {
    const main = { kind, owner: MAIN_OWNER };
    switch (kind) {
      case 'common word':
        return { ...main, q: pick(r, v.common) };
      case 'rare word':
        return { ...main, q: pick(r, v.rare) };
      case 'two words':
        return { ...main, q: distinct(2).join(' ') };
      case 'three words':
        return { ...main, q: distinct(3).join(' ') };
      case 'phrase':
        return { ...main, q: phrase() };
      case '-exclusion': {
        const [a, b] = distinct(2) as [string, string];
        return { ...main, q: `${a} -${b}` };
      }
      case 'site:': {
        // A host as pages are spread over them: big sites are asked about more often.
        const host = corpus.doc(Math.floor(r() * corpus.docs)).host;
        return { ...main, q: `${mixed()} site:${host}` };
      }
      case 'since 7 days':
        return { ...main, q: mixed(), since };
      case 'language en':
        return { ...main, q: mixed(), language: 'en' };
      case 'other key, common word':
        return { kind, owner: pick(r, OTHER_OWNERS), q: pick(r, v.common) };
    }
  };
  const out: BenchQuery[] = [];
  for (let k = 0; k < count; k++) out.push(make(KINDS[k % KINDS.length] as Kind));
  // Shuffled (Fisher–Yates), so that no kind runs in a block.
  for (let k = out.length - 1; k > 0; k--) {
    const j = Math.floor(r() * (k + 1));
    [out[k], out[j]] = [out[j] as BenchQuery, out[k] as BenchQuery];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Building the index.

interface BuildFigures {
  docs: number;
  mainDocs: number;
  textBytes: number;
  insertSeconds: number;
  generateSeconds: number;
  docsPerSecond: number;
  /** PostgreSQL: VACUUM ANALYZE after the inserts (what autovacuum would do). */
  vacuumSeconds?: number;
}

/** Makes every page (and the main key's document frequencies); inserts them unless `db` is undefined. */
async function build(corpus: Corpus, db: Db | undefined, df: Frequencies | undefined): Promise<BuildFigures> {
  let insertMs = 0;
  let generateMs = 0;
  let textBytes = 0;
  let mainDocs = 0;
  const t0 = performance.now();
  for (let start = 0; start < corpus.docs; start += batchSize) {
    const g0 = performance.now();
    const batch: CorpusDoc[] = [];
    for (let i = start; i < Math.min(corpus.docs, start + batchSize); i++) {
      const doc = corpus.doc(i);
      batch.push(doc);
      textBytes += Buffer.byteLength(doc.title) + Buffer.byteLength(doc.text);
      if (df && doc.ownerId === OTHER_OWNERS[0]) df.otherHosts.set(doc.host, (df.otherHosts.get(doc.host) ?? 0) + 1);
      if (doc.ownerId !== MAIN_OWNER) continue;
      mainDocs++;
      if (df) {
        df.docs++;
        const words = new Set(`${doc.title}\n${doc.text}`.toLowerCase().match(TOKEN));
        for (const w of words) df.words.set(w, (df.words.get(w) ?? 0) + 1);
      }
    }
    generateMs += performance.now() - g0;
    if (db) {
      const i0 = performance.now();
      await db.kysely.transaction().execute(async (trx) => {
        for (const doc of batch)
          await indexPage(trx, {
            ownerId: doc.ownerId,
            jobId: doc.jobId,
            url: doc.url,
            title: doc.title,
            text: doc.text,
            language: doc.language,
            indexedAt: doc.indexedAt,
          });
      });
      // SQLite indexes the saved pages' text in batches, as the service's flush loop does.
      if (db.dialect === 'sqlite') await flushPendingFts(db.kysely);
      insertMs += performance.now() - i0;
    }
    const done = Math.min(corpus.docs, start + batchSize);
    if (db && (done % 10_000 === 0 || done === corpus.docs))
      log(
        `${done} pages: ${((performance.now() - t0) / 1000).toFixed(0)} s, inserts ${(done / (insertMs / 1000)).toFixed(0)} pages/s`,
      );
  }
  return {
    docs: corpus.docs,
    mainDocs,
    textBytes,
    insertSeconds: insertMs / 1000,
    generateSeconds: generateMs / 1000,
    docsPerSecond: insertMs > 0 ? corpus.docs / (insertMs / 1000) : 0,
  };
}

// ---------------------------------------------------------------------------------------------
// Sizes.

interface SizeFigures {
  /** Whole database (SQLite file after a checkpoint; PostgreSQL: pg_total_relation_size of the table). */
  totalBytes: number;
  parts: Record<string, number>;
}

async function sqliteSizes(db: Db, file: string, emptyBytes: number): Promise<SizeFigures> {
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db.kysely);
  const fileBytes = statSync(file).size;
  const rows = await sql<{ name: string; bytes: number }>`
    select name, sum(pgsize) as bytes from dbstat group by name`.execute(db.kysely);
  const parts: Record<string, number> = {};
  for (const row of rows.rows) {
    const group = row.name.startsWith('search_fts')
      ? 'FTS5 index (search_fts_*)'
      : row.name === 'search_documents'
        ? 'search_documents rows (text kept once)'
        : row.name.startsWith('search_documents_') || row.name.startsWith('sqlite_autoindex_search')
          ? 'search_documents b-tree indexes'
          : 'rest of the schema';
    parts[group] = (parts[group] ?? 0) + Number(row.bytes);
  }
  parts['file before indexing (schema only)'] = emptyBytes;
  return { totalBytes: fileBytes, parts };
}

async function postgresSizes(db: Db): Promise<SizeFigures> {
  const row = (
    await sql<{ total: number; heap: number; toast: number; indexes: number; gin: number }>`
      select pg_total_relation_size(c.oid)::bigint as total,
        pg_relation_size(c.oid)::bigint as heap,
        coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0)::bigint as toast,
        pg_indexes_size(c.oid)::bigint as indexes,
        pg_relation_size('search_documents_tsv'::regclass)::bigint as gin
      from pg_class c where c.oid = 'search_documents'::regclass`.execute(db.kysely)
  ).rows[0];
  if (!row) throw new Error('no search_documents table');
  return {
    totalBytes: Number(row.total),
    parts: {
      'heap (rows, incl. tsv when inline)': Number(row.heap),
      'TOAST (long body and tsv values)': Number(row.toast),
      'GIN index search_documents_tsv': Number(row.gin),
      'b-tree indexes (job, owner+url)': Number(row.indexes) - Number(row.gin),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Running the queries.

interface Sample {
  kind: Kind;
  q: string;
  ms: number;
  rankMs: number;
  snippetMs: number;
  hits: number;
}

async function runQueries(index: SearchIndex, timer: StatementTimer, queries: BenchQuery[]): Promise<Sample[]> {
  const out: Sample[] = [];
  for (const query of queries) {
    timer.spans = [];
    const t0 = performance.now();
    const hits = await index.search(query.owner, {
      terms: parseQuery(query.q),
      limit: 10,
      offset: 0,
      ...(query.since !== undefined ? { since: query.since } : {}),
      ...(query.language !== undefined ? { language: query.language } : {}),
    });
    const ms = performance.now() - t0;
    // With hits, the last statement makes their snippets; every one before it finds the ranked ids.
    const spans = timer.spans;
    const snippetMs = hits.length > 0 ? (spans.at(-1) ?? 0) : 0;
    out.push({
      kind: query.kind,
      q: query.q,
      ms,
      rankMs: spans.reduce((n, x) => n + x, 0) - snippetMs,
      snippetMs,
      hits: hits.length,
    });
  }
  return out;
}

interface Latency {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Medians of the two statements. */
  rankP50: number;
  snippetP50: number;
  meanHits: number;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

function latency(samples: Sample[]): Latency {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    );
  const r = (x: number) => Number(x.toFixed(2));
  return {
    n: samples.length,
    p50: r(percentile(ms, 50)),
    p95: r(percentile(ms, 95)),
    p99: r(percentile(ms, 99)),
    max: r(ms.at(-1) ?? 0),
    rankP50: r(median(samples.map((s) => s.rankMs))),
    snippetP50: r(median(samples.map((s) => s.snippetMs))),
    meanHits: r(samples.reduce((n, s) => n + s.hits, 0) / Math.max(1, samples.length)),
  };
}

// ---------------------------------------------------------------------------------------------
// Worst cases, apart from the mix: the commonest word of the corpus, for the main key and another one, deep in its
// results, and with a site: of another key that has one page there (one hit: a page of hits of one row).

interface WorstCase {
  what: string;
  q: string;
  owner: string;
  offset: number;
}

interface WorstFigure {
  what: string;
  q: string;
  /** Median of 3 runs after one, ms. */
  ms: number;
  hits: number;
}

function worstCases(v: Vocabulary, df: Frequencies): WorstCase[] {
  const top = v.common[0] ?? 'the';
  const second = v.common[1] ?? 'of';
  const other = OTHER_OWNERS[0] as string;
  const lone = [...df.otherHosts].filter(([, n]) => n === 1).map(([host]) => host)[0];
  return [
    { what: 'commonest word', q: top, owner: MAIN_OWNER, offset: 0 },
    { what: 'commonest word, page 10', q: top, owner: MAIN_OWNER, offset: 90 },
    { what: 'two commonest words', q: `${top} ${second}`, owner: MAIN_OWNER, offset: 0 },
    { what: 'commonest word, another key', q: top, owner: other, offset: 0 },
    ...(lone
      ? [{ what: 'commonest word, site: of one page (one hit)', q: `${top} site:${lone}`, owner: other, offset: 0 }]
      : []),
  ];
}

async function runWorstCases(index: SearchIndex, cases: WorstCase[]): Promise<WorstFigure[]> {
  const out: WorstFigure[] = [];
  for (const c of cases) {
    const once = async () => {
      const t0 = performance.now();
      const hits = await index.search(c.owner, { terms: parseQuery(c.q), limit: 10, offset: c.offset });
      return { ms: performance.now() - t0, hits: hits.length };
    };
    await once();
    const runs = [await once(), await once(), await once()].sort((a, b) => a.ms - b.ms);
    const mid = runs[1] as { ms: number; hits: number };
    out.push({ what: c.what, q: c.q, ms: Number(mid.ms.toFixed(2)), hits: mid.hits });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

interface DialectResult {
  dialect: 'sqlite' | 'postgres';
  build?: BuildFigures;
  size: SizeFigures;
  overall: Latency;
  byKind: Record<string, Latency>;
  slowest: Array<{ kind: Kind; q: string; ms: number; rankMs: number; snippetMs: number; df: string }>;
  worst: WorstFigure[];
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function printResult(r: DialectResult, docs: number): void {
  console.log(`\n## ${r.dialect} — ${docs} pages`);
  if (r.build) {
    const b = r.build;
    console.log(
      `inserts: ${b.docs} pages in ${fmt(b.insertSeconds)} s of database time = ${fmt(b.docsPerSecond, 0)} pages/s (indexPage, ${batchSize} per transaction; page generation ${fmt(b.generateSeconds)} s apart)` +
        (b.vacuumSeconds !== undefined ? `; VACUUM ANALYZE ${fmt(b.vacuumSeconds)} s` : ''),
    );
    console.log(
      `text: ${kb(b.textBytes / b.docs)} per page (title + text, UTF-8), ${b.mainDocs} pages of the main key`,
    );
  }
  console.log(`size: ${(r.size.totalBytes / 1024 / 1024).toFixed(0)} MB = ${kb(r.size.totalBytes / docs)} per page`);
  for (const [name, bytes] of Object.entries(r.size.parts))
    console.log(`  ${name}: ${(bytes / 1024 / 1024).toFixed(0)} MB = ${kb(bytes / docs)} per page`);
  console.log('\n| query kind | n | p50 ms | p95 ms | p99 ms | max ms | ranked ids p50 | snippets p50 | hits |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const line = (name: string, l: Latency) =>
    console.log(
      `| ${name} | ${l.n} | ${fmt(l.p50)} | ${fmt(l.p95)} | ${fmt(l.p99)} | ${fmt(l.max)} | ${fmt(l.rankP50)} | ${fmt(l.snippetP50)} | ${fmt(l.meanHits)} |`,
    );
  line('**all**', r.overall);
  for (const kind of KINDS) {
    const l = r.byKind[kind];
    if (l) line(kind, l);
  }
  console.log('\nslowest queries:');
  for (const s of r.slowest)
    console.log(
      `  ${fmt(s.ms).padStart(8)} ms (ids ${fmt(s.rankMs)}, snippets ${fmt(s.snippetMs)})  ${s.kind}: ${s.q}  [df ${s.df}]`,
    );
  console.log('\nworst cases (not in the mix; median of 3 after one run):');
  for (const w of r.worst) console.log(`  ${fmt(w.ms).padStart(8)} ms  ${w.what}: ${w.q}  (${w.hits} hits)`);
}

async function open(dialect: 'sqlite' | 'postgres'): Promise<{ db: Db; file?: string; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = args.reuse ?? mkdtempSync(path.join(os.tmpdir(), 'bench-search-'));
    const db = await openDatabase({ url: undefined, dataDir: dir });
    return {
      db,
      file: path.join(dir, 'crawlservice.sqlite'),
      drop: async () => {
        await db.close();
        if (args.keep || args.reuse !== undefined) log(`kept ${dir}`);
        else rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = args.reuse ?? `bench_search_${randomBytes(5).toString('hex')}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-search-pg-'));
  const db = await openDatabase({ url: POSTGRES_URL, dataDir, schema });
  return {
    db,
    drop: async () => {
      if (args.keep || args.reuse !== undefined) log(`kept schema ${schema}`);
      else await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db.kysely);
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function benchDialect(
  dialect: 'sqlite' | 'postgres',
  corpus: Corpus,
  df: Frequencies,
  vocab: () => Vocabulary,
): Promise<DialectResult> {
  const { db, file, drop } = await open(dialect);
  try {
    let buildFigures: BuildFigures | undefined;
    let emptyBytes = 0;
    if (args.reuse === undefined) {
      await migrateToLatest(db.kysely);
      if (file) {
        await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db.kysely);
        emptyBytes = statSync(file).size;
      }
      log(`${dialect}: indexing ${corpus.docs} pages`);
      buildFigures = await build(corpus, db, df.docs === 0 ? df : undefined);
      if (dialect === 'postgres') {
        const v0 = performance.now();
        await sql`vacuum analyze search_documents`.execute(db.kysely);
        buildFigures.vacuumSeconds = (performance.now() - v0) / 1000;
      }
    } else if (df.docs === 0) {
      log('counting document frequencies (the pages are made again, not inserted)');
      await build(corpus, undefined, df);
    }
    const size = file ? await sqliteSizes(db, file, emptyBytes) : await postgresSizes(db);
    const v = vocab();
    const timer = new StatementTimer();
    const index = new SearchIndex(db.kysely.withPlugin(timer), db.dialect);
    log(`${dialect}: ${warmupCount} warm-up queries, then ${queryCount}`);
    await runQueries(index, timer, makeQueries(corpus, v, warmupCount, prng(seed + 1000)));
    const samples = await runQueries(index, timer, makeQueries(corpus, v, queryCount, prng(seed + 2000)));
    log(`${dialect}: worst cases`);
    const worst = await runWorstCases(index, worstCases(v, df));
    const byKind: Record<string, Latency> = {};
    for (const kind of KINDS) {
      const of = samples.filter((s) => s.kind === kind);
      if (of.length > 0) byKind[kind] = latency(of);
    }
    const dfOf = (q: string) =>
      (
        q
          .toLowerCase()
          .replace(/site:\S+/, '')
          .match(TOKEN) ?? []
      )
        .map((w) => `${w}=${v.df.get(w) ?? 0}`)
        .join(' ');
    const slowest = [...samples]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 8)
      .map((s) => ({
        kind: s.kind,
        q: s.q,
        ms: Number(s.ms.toFixed(2)),
        rankMs: Number(s.rankMs.toFixed(2)),
        snippetMs: Number(s.snippetMs.toFixed(2)),
        df: dfOf(s.q),
      }));
    return {
      dialect,
      ...(buildFigures ? { build: buildFigures } : {}),
      size,
      overall: latency(samples),
      byKind,
      slowest,
      worst,
    };
  } finally {
    await drop();
  }
}

async function main(): Promise<void> {
  const corpus = new Corpus({ docs: docCount, seed });
  const df: Frequencies = { words: new Map(), docs: 0, otherHosts: new Map() };
  let cached: Vocabulary | undefined;
  const vocab = () => {
    if (!cached) {
      cached = vocabulary(df);
      log(
        `vocabulary: ${df.words.size} distinct tokens in the main key's pages; ${cached.common.length} common (in >= 10% of pages), ${cached.mid.length} mid (0.1–10%), ${cached.rare.length} rare (<= 20 pages)`,
      );
    }
    return cached;
  };
  console.log(
    `node ${process.version}, ${os.availableParallelism()} cores, ${Math.round(os.totalmem() / 2 ** 30)} GB, ${new Date().toISOString()}, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `corpus: ${docCount} pages from ${corpus.articles.length} real articles' sentences, ${corpus.hosts.length} hosts, seed ${seed}; ${queryCount} queries after ${warmupCount} warm-up`,
  );
  const results: DialectResult[] = [];
  for (const dialect of dialects) {
    const result = await benchDialect(dialect, corpus, df, vocab);
    results.push(result);
    printResult(result, docCount);
  }
  const sqliteResult = results.find((r) => r.dialect === 'sqlite');
  if (sqliteResult)
    console.log(
      `\nSQLite p99 ${fmt(sqliteResult.overall.p99)} ms against the 50 ms goal: ${sqliteResult.overall.p99 < 50 ? 'met' : 'MISSED'}`,
    );
  console.log(
    JSON.stringify({
      bench: 'search-index',
      docs: docCount,
      queries: queryCount,
      seed,
      batch: batchSize,
      results: results.map((r) => ({
        dialect: r.dialect,
        insertDocsPerSecond: r.build ? Number(r.build.docsPerSecond.toFixed(0)) : undefined,
        textBytesPerDoc: r.build ? Math.round(r.build.textBytes / r.build.docs) : undefined,
        bytesPerDoc: Math.round(r.size.totalBytes / docCount),
        sizeParts: Object.fromEntries(Object.entries(r.size.parts).map(([k, b]) => [k, Math.round(b / docCount)])),
        overall: r.overall,
        byKind: r.byKind,
        worst: r.worst,
      })),
    }),
  );
}

await main();
