// Crawl benchmark: our service's crawl against Crawlee's CheerioCrawler on one synthetic site, plus a 50k-page memory
// run.
//
//   npx tsx bench/crawl/index.ts [--pages 5000] [--concurrency 16]   both crawlers + in-process extraction
//   npx tsx bench/crawl/index.ts --memory 50000                        our service only, large crawl
//   npx tsx bench/crawl/index.ts --profile --pages 1000                our service under node --cpu-prof
//   add --no-cache-write to crawl with store_in_cache: false (crawls write the page cache by default)
//   add --no-warm to skip the second, warm crawl of compare mode (the service's steady state)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { extractPage, type ContentFormat } from '../../src/scrape/extract/index.js';
import { type Child, freePort, sample, start, stop, threadCpu } from './proc.js';
import { summarizeProfiles } from './profile.js';
import { callApi } from '../lib/api.js';
import { ensureBuilt } from '../lib/build.js';
import { serviceNodeArgs } from '../lib/service-args.js';
import { syntheticPages } from '../scrape/synthetic.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const crawleeDir = path.join(here, 'crawlee');
const API_KEY = 'bench-key';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string' },
    concurrency: { type: 'string', default: '16' },
    memory: { type: 'string' },
    profile: { type: 'boolean', default: false },
    'skip-crawlee': { type: 'boolean', default: false },
    'keep-data': { type: 'boolean', default: false },
    // Crawls write every page to the page cache unless told not to (store_in_cache defaults to true).
    'no-cache-write': { type: 'boolean', default: false },
    // Compare mode crawls the site a second time in the same service process (steady state).
    'no-warm': { type: 'boolean', default: false },
  },
});
const memoryMode = args.memory !== undefined;
const pages = Number(args.memory ?? args.pages ?? (args.profile ? 1000 : 5000));
const concurrency = Number(args.concurrency);
if (!Number.isInteger(pages) || pages < 1 || !Number.isInteger(concurrency) || concurrency < 1) {
  throw new Error('--pages/--memory and --concurrency take positive integers');
}
// The site is larger than the limit, so both crawlers stop on their page limit, not on running out of links.
const siteSize = Math.max(5000, Math.ceil(pages * 1.2));
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-crawl-'));

const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function log(message: string): void {
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

function ensureCrawlee(): void {
  if (existsSync(path.join(crawleeDir, 'node_modules/crawlee'))) return;
  log('installing Crawlee into bench/crawl/crawlee (its own node_modules)');
  const r = spawnSync('npm', ['install', '--prefix', crawleeDir, '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('npm install of bench/crawl/crawlee failed');
}

interface SiteStats {
  requests: number;
  maxOpen: number;
  bytes: number;
  notFound: number;
  cpu: { user: number; system: number };
}

async function siteStats(base: string, reset: boolean): Promise<SiteStats> {
  const res = await fetch(`${base}/__bench/stats${reset ? '?reset=1' : ''}`);
  return (await res.json()) as SiteStats;
}

async function startSite(): Promise<{ child: Child; base: string }> {
  const child = start(process.execPath, ['--import', 'tsx', path.join(here, 'site-server.ts'), String(siteSize)], {
    cwd: root,
    logFile: path.join(work, 'site.log'),
  });
  const first = (await child.firstJson) as { port?: number } | undefined;
  if (!first?.port) throw new Error(`site server did not start; see ${work}/site.log`);
  return { child, base: `http://127.0.0.1:${first.port}` };
}

// ---------------------------------------------------------------------------------------------
// Extraction measured in-process: the floor our whole-crawl CPU per page is compared against.

interface ExtractionFigures {
  pages: number;
  meanBytes: number;
  /** Wall-clock ms per page on one thread. */
  markdownMs: number;
  markdownLinksMs: number;
  /** Process CPU ms per page in the same rounds: V8's GC helper threads included, as in the crawl's figure. */
  markdownCpuMs: number;
  markdownLinksCpuMs: number;
}

function measureExtraction(): ExtractionFigures {
  const docs = syntheticPages(200, siteSize);
  const once = (formats: ContentFormat[]): { wall: number; cpu: number } => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (const d of docs) {
      const r = extractPage({ ...d, formats, onlyMainContent: true });
      if (!r.markdown) throw new Error(`empty markdown on ${d.url}`);
    }
    const cpu = process.cpuUsage(cpu0);
    return { wall: (performance.now() - t0) / docs.length, cpu: (cpu.user + cpu.system) / 1000 / docs.length };
  };
  for (const d of docs.slice(0, 50)) extractPage({ ...d, formats: ['markdown', 'links'], onlyMainContent: true });
  // Three alternating rounds, the fastest kept: other jobs on a shared 2-core machine only ever add time.
  const rounds: Array<[{ wall: number; cpu: number }, { wall: number; cpu: number }]> = [];
  for (let k = 0; k < 3; k++) rounds.push([once(['markdown']), once(['markdown', 'links'])]);
  const fastest = (which: 0 | 1, of: 'wall' | 'cpu'): number => Math.min(...rounds.map((r) => r[which][of]));
  return {
    pages: docs.length,
    meanBytes: docs.reduce((n, d) => n + d.html.length, 0) / docs.length,
    markdownMs: fastest(0, 'wall'),
    // What a crawl asks of extraction while it can still admit links (they are extracted for discovery).
    markdownLinksMs: fastest(1, 'wall'),
    markdownCpuMs: fastest(0, 'cpu'),
    markdownLinksCpuMs: fastest(1, 'cpu'),
  };
}

// ---------------------------------------------------------------------------------------------
// Our service.

interface RunFigures {
  name: string;
  pages: number;
  seconds: number;
  peakRss: number;
  crawlCpuMs: number;
  totalCpuMs: number;
  site: SiteStats;
  siteCpuMs: number;
  notes: string[];
}

interface CrawlStatus {
  status: string;
  total: number;
  completed: number;
  failed: number;
  credits_used: number;
}

const api = <T>(base: string, method: string, route: string, body?: unknown): Promise<T> =>
  callApi<T>(base, API_KEY, method, route, body);

function sqliteFiles(dir: string): Array<{ name: string; bytes: number }> {
  const out: Array<{ name: string; bytes: number }> = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      out.push({
        name: path.relative(dir, path.join(entry.parentPath, entry.name)),
        bytes: statSync(path.join(entry.parentPath, entry.name)).size,
      });
  }
  return out;
}

type OurFigures = RunFigures & {
  dataFiles: Array<{ name: string; bytes: number }>;
  timeline: string[];
  threads: ThreadSpend[];
};

/**
 * Starts the service, crawls once from cold (what the comparison with Crawlee, also started cold,
 * uses) and, with `warm`, crawls the same pages again in the same process: the second crawl's CPU
 * is the service's steady state (code optimized by V8's JIT, as in a service that has been up a
 * while), the like-for-like figure beside the extraction's, which is also measured after warm-up.
 */
async function runOurs(siteBase: string, warm: boolean): Promise<{ cold: OurFigures; warm?: OurFigures }> {
  ensureBuilt(root, log);
  const port = await freePort();
  const dataDir = path.join(work, 'data');
  const profDir = path.join(work, 'prof');
  // BENCH_SERVICE_NODE_ARGS: extra Node/V8 flags for the service, to try a flag without editing package.json.
  const extra = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const nodeArgs = [
    ...serviceNodeArgs(root),
    ...extra,
    ...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []),
  ];
  const child = start(process.execPath, [...nodeArgs, path.join(root, 'dist/src/main.js'), 'serve'], {
    cwd: work,
    logFile: path.join(work, 'service.log'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      API_KEYS: API_KEY,
      ALLOW_LOCAL_TARGETS: 'true',
      LOG_LEVEL: 'warn',
      CRAWL_CONCURRENCY: String(concurrency),
      CRAWL_JOB_CONCURRENCY: String(concurrency),
      CRAWL_HOST_CONCURRENCY: String(concurrency),
    },
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (child.proc.exitCode !== null) throw new Error(`service exited ${child.proc.exitCode}; see ${work}/service.log`);
    if (Date.now() > deadline) throw new Error(`service did not answer /health in 30 s; see ${work}/service.log`);
    await sleep(100);
  }

  const cold = await crawlAndVerify(base, child.pid, siteBase, dataDir, 'ours (service)', false);
  // The service keeps robots.txt answers for a while, so the second crawl may not ask for it again.
  const warmRun = warm
    ? await crawlAndVerify(base, child.pid, siteBase, dataDir, 'ours, second crawl (warm)', true)
    : undefined;

  await stop(child, 30_000);
  const logText = readFileSync(path.join(work, 'service.log'), 'utf8');
  const problems = logText.split('\n').filter((l) => /"level":(40|50|60)/.test(l));
  if (problems.length > 0)
    cold.notes.push(`${problems.length} warn/error lines in the service log, first: ${problems[0]?.slice(0, 400)}`);
  const dataFiles = existsSync(dataDir) ? sqliteFiles(dataDir) : [];
  return { cold: { ...cold, dataFiles }, ...(warmRun ? { warm: { ...warmRun, dataFiles } } : {}) };
}

/** One crawl of `pages` pages through the API, measured from outside, then every result read back and checked. */
async function crawlAndVerify(
  base: string,
  pid: number,
  siteBase: string,
  dataDir: string,
  name: string,
  robotsMayBeCached: boolean,
): Promise<Omit<OurFigures, 'dataFiles'>> {
  const before = sample(pid);
  const threadsBefore = threadCpu(pid);
  await siteStats(siteBase, true);
  const site0 = await siteStats(siteBase, false);
  const t0 = performance.now();
  const created = await api<{ data: { job_id: string } }>(base, 'POST', '/v1/crawl', {
    url: `${siteBase}/`,
    limit: pages,
    max_depth: 100,
    formats: ['markdown'],
    only_main_content: true,
    ...(args['no-cache-write'] ? { store_in_cache: false } : {}),
  });
  const id = created.data.job_id;
  let status: CrawlStatus;
  const timeline: string[] = [];
  const step = pages >= 20_000 ? 0.1 : 0.25;
  let nextMark = step;
  // Poll often enough for a precise end time, rarely enough not to cost the service CPU (~5 requests/s).
  const timeoutMs = 120_000 + pages * 500;
  for (;;) {
    status = (await api<{ data: CrawlStatus }>(base, 'GET', `/v1/crawl/${id}/status`)).data;
    if (status.status !== 'pending') break;
    if (status.completed >= nextMark * pages) {
      const s = sample(pid);
      const dbBytes = existsSync(dataDir) ? sqliteFiles(dataDir).reduce((n, f) => n + f.bytes, 0) : 0;
      const line = `${status.completed} pages at ${((performance.now() - t0) / 1000).toFixed(0)} s: RSS ${mb(s.rss)} MB (peak ${mb(s.peakRss)}), CPU ${(s.cpuMs / 1000).toFixed(0)} s, DATA_DIR ${mb(dbBytes)} MB`;
      // Logged as it happens too, so a long run that is stopped still leaves its figures.
      log(line);
      timeline.push(line);
      while (status.completed >= nextMark * pages) nextMark += step;
    }
    if (performance.now() - t0 > timeoutMs)
      throw new Error(`crawl still pending after ${timeoutMs} ms: ${JSON.stringify(status)}`);
    await sleep(200);
  }
  const seconds = (performance.now() - t0) / 1000;
  const after = sample(pid);
  const threads = threadCpuDelta(pid, threadsBefore, threadCpu(pid));
  const site1 = await siteStats(siteBase, false);
  log(`${name} ${status.status}: ${JSON.stringify(status)} in ${seconds.toFixed(1)} s`);

  // Verify: every results page, count equal to `completed`, markdown present.
  const notes: string[] = [];
  let items = 0;
  let empty = 0;
  const urls = new Set<string>();
  let next: string | undefined = `/v1/crawl/${id}?skip=0`;
  while (next) {
    const page: { data: Array<{ url: string; markdown?: string }>; next?: string } = await api(base, 'GET', next);
    for (const item of page.data) {
      items++;
      urls.add(item.url);
      if (!item.markdown || item.markdown.trim() === '') empty++;
    }
    next = page.next;
    if (page.data.length === 0) break;
  }
  if (items !== status.completed)
    notes.push(`results listed ${items} items but status says completed ${status.completed}`);
  if (urls.size !== items) notes.push(`${items - urls.size} duplicate URLs among the results`);
  if (empty > 0) notes.push(`${empty} results with empty markdown`);
  if (status.failed > 0) notes.push(`${status.failed} pages failed`);
  if (status.status !== 'completed') notes.push(`crawl ended ${status.status}`);
  if (status.completed !== pages)
    notes.push(`completed ${status.completed} pages, limit was ${pages} (total ${status.total})`);
  const requests = site1.requests - site0.requests;
  if (requests !== status.total + 1 && !(robotsMayBeCached && requests === status.total)) {
    notes.push(`the site saw ${requests} requests for ${status.total} pages admitted (+1 robots.txt)`);
  }
  log(`verified ${items} results, ${empty} empty, ${urls.size} distinct URLs`);
  return {
    name,
    pages: items,
    seconds,
    peakRss: after.peakRss,
    crawlCpuMs: after.cpuMs - before.cpuMs,
    totalCpuMs: after.cpuMs,
    site: { ...site1, requests: site1.requests - site0.requests },
    siteCpuMs: (site1.cpu.user + site1.cpu.system - site0.cpu.user - site0.cpu.system) / 1000,
    notes,
    timeline,
    threads,
  };
}

interface ThreadSpend {
  label: string;
  cpuMs: number;
}

/**
 * CPU each thread spent between two samples, largest first. Node 20 leaves every thread named
 * `node`, so the main thread is told apart by its id (the process id); the busiest of the others
 * is the extraction thread when there is one, the rest are V8's GC helpers and libuv's pool.
 */
function threadCpuDelta(
  pid: number,
  before: ReturnType<typeof threadCpu>,
  after: ReturnType<typeof threadCpu>,
): ThreadSpend[] {
  const spent = [...after]
    .map(([tid, cpuMs]) => ({ tid, cpuMs: cpuMs - (before.get(tid) ?? 0) }))
    .filter((t) => t.cpuMs > 0);
  spent.sort((a, b) => b.cpuMs - a.cpuMs);
  return spent.map((t) => ({ label: t.tid === pid ? 'main thread' : `thread ${t.tid}`, cpuMs: t.cpuMs }));
}

function printThreads(ours: { name: string; threads: ThreadSpend[]; pages: number; crawlCpuMs: number }): void {
  const per = (ms: number): string => (ms / Math.max(1, ours.pages)).toFixed(2).padStart(6);
  console.log(
    `\n${ours.name}: CPU ms/page by thread (whole process ${per(ours.crawlCpuMs).trim()}; threads that exited during the crawl count only there):`,
  );
  for (const t of ours.threads) console.log(`  ${per(t.cpuMs)}  ${t.label}`);
}

// ---------------------------------------------------------------------------------------------
// Crawlee.

interface CrawleeOut {
  pages: number;
  failed: number;
  emptyMarkdown: number;
  markdownChars: number;
  elapsedMs: number;
  crawlCpuMs: number;
  totalCpuMs: number;
  peakRssKb: number;
  maxSeenConcurrency: number;
  heapUsedAtEndKb: number;
}

async function runCrawlee(siteBase: string): Promise<RunFigures> {
  ensureCrawlee();
  await siteStats(siteBase, true);
  const site0 = await siteStats(siteBase, false);
  const storage = path.join(work, 'crawlee-storage');
  const child = start(
    process.execPath,
    [path.join(crawleeDir, 'run.mjs'), `${siteBase}/`, String(pages), String(concurrency)],
    {
      cwd: work,
      logFile: path.join(work, 'crawlee.log'),
      // Belt and braces: nothing should be written, but if it is, it goes to the temp dir.
      env: { ...process.env, CRAWLEE_STORAGE_DIR: storage, CRAWLEE_PERSIST_STORAGE: 'false' },
    },
  );
  const out = (await child.firstJson) as CrawleeOut | undefined;
  await child.exited;
  if (!out) throw new Error(`Crawlee printed no result; see ${work}/crawlee.log`);
  const site1 = await siteStats(siteBase, false);
  const notes: string[] = [`highest autoscaled-pool concurrency seen: ${out.maxSeenConcurrency}`];
  if (out.failed > 0) notes.push(`${out.failed} requests failed`);
  if (out.emptyMarkdown > 0) notes.push(`${out.emptyMarkdown} pages with empty markdown`);
  // maxRequestsPerCrawl is checked when a request starts, so up to `concurrency` extra pages slip through.
  if (out.pages !== pages) notes.push(`handled ${out.pages} pages, limit was ${pages}`);
  notes.push(
    `JS heap in use at the end ${mb(out.heapUsedAtEndKb * 1024)} MB (the rest of the peak RSS: garbage not yet collected, off-heap buffers, code)`,
  );
  notes.push(`mean markdown ${(out.markdownChars / Math.max(1, out.pages)).toFixed(0)} chars/page`);
  const logText = readFileSync(path.join(work, 'crawlee.log'), 'utf8').trim();
  const lines = logText.split('\n').filter((l) => l && !l.startsWith('{'));
  if (lines.length > 0) notes.push(`${lines.length} log lines, first: ${lines[0]?.slice(0, 300)}`);
  if (existsSync(storage)) notes.push('Crawlee wrote to its storage dir despite persistStorage: false');
  return {
    name: 'Crawlee CheerioCrawler',
    pages: out.pages,
    seconds: out.elapsedMs / 1000,
    peakRss: out.peakRssKb * 1024,
    crawlCpuMs: out.crawlCpuMs,
    totalCpuMs: out.totalCpuMs,
    site: { ...site1, requests: site1.requests - site0.requests },
    siteCpuMs: (site1.cpu.user + site1.cpu.system - site0.cpu.user - site0.cpu.system) / 1000,
    notes,
  };
}

// ---------------------------------------------------------------------------------------------

function row(cells: Array<string | number>): string {
  return `| ${cells.join(' | ')} |`;
}

function printRuns(runs: RunFigures[]): void {
  console.log(
    row([
      'crawler',
      'pages',
      's',
      'pages/s',
      'peak RSS MB',
      'CPU ms/page (crawl)',
      'process CPU s (incl. start)',
      'site requests',
      'max open connections at site',
      'site CPU ms/page',
    ]),
  );
  console.log(row(['---', '---', '---', '---', '---', '---', '---', '---', '---', '---']));
  for (const r of runs) {
    console.log(
      row([
        r.name,
        r.pages,
        r.seconds.toFixed(1),
        (r.pages / r.seconds).toFixed(1),
        mb(r.peakRss),
        (r.crawlCpuMs / Math.max(1, r.pages)).toFixed(1),
        (r.totalCpuMs / 1000).toFixed(1),
        r.site.requests,
        r.site.maxOpen,
        (r.siteCpuMs / Math.max(1, r.site.requests)).toFixed(2),
      ]),
    );
  }
  for (const r of runs) for (const n of r.notes) console.log(`- ${r.name}: ${n}`);
}

async function main(): Promise<void> {
  log(
    `work dir ${work}; site of ${siteSize} pages; ${memoryMode ? 'memory' : 'compare'} mode, ${pages} pages, concurrency ${concurrency}`,
  );
  const site = await startSite();
  try {
    console.log(
      `\nnode ${process.version}, ${os.availableParallelism()} cores, ${new Date().toISOString()}, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      `synthetic site: ${siteSize} pages served from a child process on ${site.base} (its CPU shares the 2 cores, not either crawler's RSS)`,
    );
    if (memoryMode || args.profile) {
      const { cold: ours } = await runOurs(site.base, false);
      printRuns([ours]);
      printThreads(ours);
      console.log(`\nRSS while crawling:\n${ours.timeline.map((t) => `  ${t}`).join('\n')}`);
      console.log(`\nfiles in DATA_DIR at the end:`);
      for (const f of ours.dataFiles) console.log(`  ${f.name}: ${mb(f.bytes)} MB (${f.bytes} bytes)`);
      if (memoryMode)
        console.log(
          `\npeak RSS ${mb(ours.peakRss)} MB against the 300 MB target: ${ours.peakRss < 300 * 1024 * 1024 ? 'under' : 'OVER'}`,
        );
      if (args.profile) {
        const summary = summarizeProfiles(path.join(work, 'prof'));
        console.log(
          `\nCPU profile: ${summary.threads} thread profiles, ${(summary.totalMs / 1000).toFixed(1)} s busy, ${(summary.idleMs / 1000).toFixed(1)} s idle`,
        );
        console.log('\nself time by package / source file:');
        for (const a of summary.byArea)
          console.log(`  ${((100 * a.ms) / summary.totalMs).toFixed(1).padStart(5)}%  ${a.name}`);
        console.log('\nself time by function:');
        for (const f of summary.byFunction)
          console.log(`  ${((100 * f.ms) / summary.totalMs).toFixed(1).padStart(5)}%  ${f.name}`);
      }
      return;
    }
    log('extraction in-process on 200 generated pages');
    const extraction = measureExtraction();
    log('our crawl');
    const { cold: ours, warm } = await runOurs(site.base, !args['no-warm']);
    const runs: RunFigures[] = [ours];
    if (!args['skip-crawlee']) {
      log('Crawlee crawl');
      runs.push(await runCrawlee(site.base));
    }
    const theirs = runs[1];
    console.log('');
    printRuns(warm ? [...runs, warm] : runs);
    printThreads(ours);
    if (warm) printThreads(warm);
    if (theirs) {
      console.log(
        `\nours / Crawlee: pages/s ${(ours.pages / ours.seconds / (theirs.pages / theirs.seconds)).toFixed(2)}x, peak RSS ${(ours.peakRss / theirs.peakRss).toFixed(2)}x, CPU per page ${(ours.crawlCpuMs / ours.pages / (theirs.crawlCpuMs / theirs.pages)).toFixed(2)}x`,
      );
    }
    console.log(
      `\nextraction in-process (extractPage, onlyMainContent, ${extraction.pages} pages of the site, mean ${(extraction.meanBytes / 1024).toFixed(0)} KB, after warm-up, fastest of 3 rounds):`,
    );
    console.log(
      `  formats ['markdown']: ${extraction.markdownMs.toFixed(2)} ms/page wall, ${extraction.markdownCpuMs.toFixed(2)} ms/page process CPU`,
    );
    console.log(
      `  ['markdown', 'links'] (what a crawl asks while it can still admit links): ${extraction.markdownLinksMs.toFixed(2)} ms/page wall, ${extraction.markdownLinksCpuMs.toFixed(2)} ms/page process CPU`,
    );
    for (const run of warm ? [ours, warm] : [ours]) {
      const perPage = run.crawlCpuMs / run.pages;
      console.log(
        `  ${run.name}: whole-crawl CPU ${perPage.toFixed(2)} ms/page = ${(perPage / extraction.markdownMs).toFixed(2)}x the extraction's wall ms/page, ${(perPage / extraction.markdownCpuMs).toFixed(2)}x its process CPU per page (['markdown'], what the crawl asked; target: within 1.5x)`,
      );
    }
    console.log(
      `\nload average at the end: ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} (other jobs on the machine skew every figure)`,
    );
  } finally {
    await stop(site.child);
    if (!args['keep-data']) rmSync(work, { recursive: true, force: true });
    else log(`kept ${work}`);
  }
}

await main();
