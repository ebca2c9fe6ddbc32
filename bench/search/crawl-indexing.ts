// Crawl throughput with the search index on and off: the same crawl of a local site by the built service with
// SEARCH_INDEX=true and SEARCH_INDEX=false, on its default store (SQLite in DATA_DIR). `--site articles` (the default)
// serves the 91 real article pages of the shared extraction set (article-site-server.ts here): what crawls of real
// sites cost. `--site synthetic` is the crawl benchmark's light generated site (bench/crawl), 8 KB of text a page from
// a 20-word vocabulary: the worst case for the index's share of a page's cost.
//
//   npx tsx bench/search/crawl-indexing.ts [--pages 1000] [--rounds 3] [--warmup 300] [--concurrency 16]
//     [--site articles|synthetic]
//
// Each round starts one service per setting (alternating which goes first), each with an empty DATA_DIR: a warm-up
// crawl (`--warmup` pages, so that V8 has compiled the hot code), then the measured crawl of `--pages` pages from `/`
// (formats markdown, only_main_content, the crawl defaults otherwise: results and page cache written). Figures: wall
// pages/s and the service's CPU (all its threads) per page, per run and as medians per setting; then the index is
// checked: with it on, POST /v1/search finds the crawled pages; with it off, the index engine is not offered.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Child, freePort, sample, start, stop } from '../crawl/proc.js';
import { callApi } from '../lib/api.js';
import { ensureBuilt } from '../lib/build.js';
import { serviceNodeArgs } from '../lib/service-args.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const API_KEY = 'bench-key';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '16' },
    site: { type: 'string', default: 'articles' },
  },
});
const pages = Number(args.pages);
const rounds = Number(args.rounds);
const warmup = Number(args.warmup);
const concurrency = Number(args.concurrency);
const siteKind = args.site;
if (siteKind !== 'synthetic' && siteKind !== 'articles') throw new Error('--site takes synthetic or articles');
if (![pages, rounds, concurrency].every((n) => Number.isInteger(n) && n > 0) || !Number.isInteger(warmup))
  throw new Error('--pages, --rounds, --warmup and --concurrency take positive integers');
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-crawl-index-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (message: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const api = <T>(base: string, method: string, route: string, body?: unknown): Promise<T> =>
  callApi<T>(base, API_KEY, method, route, body);

interface Status {
  status: string;
  total: number;
  completed: number;
  failed: number;
}

interface Run {
  index: boolean;
  round: number;
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  /** Service CPU (all threads) per saved page, ms. */
  cpuMsPerPage: number;
  /** DATA_DIR at the end of the run (warm-up and measured crawls), bytes. */
  dataBytes: number;
  /** With the index on: hits of a search of the crawled pages; off: whether the index engine was refused. */
  check: string;
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(path.join(entry.parentPath, entry.name)).size;
  return total;
}

async function waitUntilListening(base: string, child: Child, logFile: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (child.proc.exitCode !== null) throw new Error(`service exited; see ${logFile}`);
    if (Date.now() > deadline) throw new Error(`service did not answer /health; see ${logFile}`);
    await sleep(100);
  }
}

/** One crawl from `/` of `limit` pages; its wall time and the service's CPU, checked complete. */
async function crawl(base: string, pid: number, siteBase: string, limit: number) {
  const cpu0 = sample(pid).cpuMs;
  const t0 = performance.now();
  const created = await api<{ data: { job_id: string } }>(base, 'POST', '/v1/crawl', {
    url: `${siteBase}/`,
    limit,
    max_depth: 100,
    formats: ['markdown'],
    only_main_content: true,
  });
  const id = created.data.job_id;
  let status: Status;
  for (;;) {
    status = (await api<{ data: Status }>(base, 'GET', `/v1/crawl/${id}/status`)).data;
    if (status.status !== 'pending') break;
    await sleep(50);
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpuMs = sample(pid).cpuMs - cpu0;
  if (status.status !== 'completed' || status.failed > 0 || status.completed !== limit)
    throw new Error(`crawl ended ${status.status}: ${status.completed} saved, ${status.failed} failed of ${limit}`);
  return { seconds, cpuMs, saved: status.completed };
}

async function runOnce(siteBase: string, index: boolean, round: number): Promise<Run> {
  const name = `index ${index ? 'on' : 'off'}, round ${round}`;
  const dataDir = path.join(work, `data-${round}-${index ? 'on' : 'off'}`);
  const logFile = path.join(work, `service-${round}-${index ? 'on' : 'off'}.log`);
  const port = await freePort();
  const service = start(process.execPath, [...serviceNodeArgs(root), path.join(root, 'dist/src/main.js'), 'serve'], {
    cwd: work,
    logFile,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      API_KEYS: API_KEY,
      ALLOW_LOCAL_TARGETS: 'true',
      LOG_LEVEL: 'warn',
      SEARCH_INDEX: String(index),
      SEARXNG_URL: '',
      CRAWL_CONCURRENCY: String(concurrency),
      CRAWL_JOB_CONCURRENCY: String(concurrency),
      CRAWL_HOST_CONCURRENCY: String(concurrency),
    },
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitUntilListening(base, service, logFile);
    if (warmup > 0) await crawl(base, service.pid, siteBase, warmup);
    const measured = await crawl(base, service.pid, siteBase, pages);
    let check: string;
    if (index) {
      // A word every page of the synthetic site has (its footer and sections): the index holds the crawl's pages.
      const found = await api<{ data: unknown[] }>(base, 'POST', '/v1/search', { query: 'the', limit: 100 });
      check = `search found ${found.data.length} of ${pages} pages (limit 100)`;
      if (found.data.length === 0) throw new Error(`${name}: the index found none of the crawled pages`);
    } else {
      const res = await fetch(`${base}/v1/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'the' }),
      });
      check = `search answered HTTP ${res.status} (no index engine)`;
      if (res.ok) throw new Error(`${name}: search answered although the index is off`);
    }
    const run: Run = {
      index,
      round,
      pages: measured.saved,
      seconds: Number(measured.seconds.toFixed(2)),
      pagesPerSecond: Number((measured.saved / measured.seconds).toFixed(1)),
      cpuMsPerPage: Number((measured.cpuMs / measured.saved).toFixed(2)),
      dataBytes: 0,
      check,
    };
    log(
      `${name}: ${run.pages} pages in ${run.seconds} s = ${run.pagesPerSecond} pages/s, ${run.cpuMsPerPage} CPU ms/page`,
    );
    return run;
  } finally {
    await stop(service, 30_000);
    const problems = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => /"level":(40|50|60)/.test(l));
    if (problems.length > 0)
      log(`${name}: ${problems.length} warn/error log lines, first: ${problems[0]?.slice(0, 300)}`);
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

async function main(): Promise<void> {
  ensureBuilt(root, log);
  const site = start(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, siteKind === 'articles' ? 'bench/search/article-site-server.ts' : 'bench/crawl/site-server.ts'),
      String(Math.max(5000, pages * 2)),
    ],
    { cwd: root, logFile: path.join(work, 'site.log') },
  );
  const runs: Run[] = [];
  try {
    const first = (await site.firstJson) as { port?: number } | undefined;
    if (!first?.port) throw new Error(`site server did not start; see ${work}/site.log`);
    const siteBase = `http://127.0.0.1:${first.port}`;
    for (let round = 1; round <= rounds; round++) {
      // Alternating which setting goes first, so that a drift of the machine falls on both alike.
      for (const index of round % 2 === 1 ? [true, false] : [false, true]) {
        const run = await runOnce(siteBase, index, round);
        run.dataBytes = dirBytes(path.join(work, `data-${round}-${index ? 'on' : 'off'}`));
        runs.push(run);
      }
    }
  } finally {
    await stop(site, 5000);
  }

  const of = (index: boolean) => runs.filter((r) => r.index === index);
  const summary = (index: boolean) => ({
    pagesPerSecond: Number(median(of(index).map((r) => r.pagesPerSecond)).toFixed(1)),
    cpuMsPerPage: Number(median(of(index).map((r) => r.cpuMsPerPage)).toFixed(2)),
    dataMB: Number((median(of(index).map((r) => r.dataBytes)) / 1024 / 1024).toFixed(1)),
  });
  const on = summary(true);
  const off = summary(false);
  const throughputChange = (100 * (on.pagesPerSecond - off.pagesPerSecond)) / off.pagesPerSecond;
  const cpuChange = (100 * (on.cpuMsPerPage - off.cpuMsPerPage)) / off.cpuMsPerPage;

  console.log(
    `\nnode ${process.version}, ${os.availableParallelism()} cores; crawl of ${pages} pages (after a ${warmup}-page warm-up) at concurrency ${concurrency}, SQLite store, ${rounds} rounds, ${siteKind} site\n`,
  );
  console.log('| run | pages | s | pages/s | CPU ms/page | DATA_DIR MB | check |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of runs)
    console.log(
      `| index ${r.index ? 'on' : 'off'}, round ${r.round} | ${r.pages} | ${r.seconds} | ${r.pagesPerSecond} | ${r.cpuMsPerPage} | ${(r.dataBytes / 1024 / 1024).toFixed(1)} | ${r.check} |`,
    );
  console.log(
    `\nmedians: index on ${on.pagesPerSecond} pages/s, ${on.cpuMsPerPage} CPU ms/page; index off ${off.pagesPerSecond} pages/s, ${off.cpuMsPerPage} CPU ms/page`,
  );
  console.log(
    `with the index: throughput ${throughputChange >= 0 ? '+' : ''}${throughputChange.toFixed(1)}%, CPU per page ${cpuChange >= 0 ? '+' : ''}${cpuChange.toFixed(1)}% (goal: throughput within 10%: ${throughputChange > -10 ? 'met' : 'MISSED'})`,
  );
  console.log(
    JSON.stringify({
      bench: 'crawl-indexing',
      site: siteKind,
      pages,
      warmup,
      rounds,
      concurrency,
      cpus: os.availableParallelism(),
      on,
      off,
      throughputChangePct: Number(throughputChange.toFixed(1)),
      cpuChangePct: Number(cpuChange.toFixed(1)),
      runs,
    }),
  );
  rmSync(work, { recursive: true, force: true });
}

await main();
