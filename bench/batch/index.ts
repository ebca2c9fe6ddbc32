// Batch scrape benchmark: pages/s of a batch of N URLs against a crawl of the same N pages, on the local synthetic
// site of the crawl benchmark, in one service process (the same engine, concurrency settings and store).
//
//   npx tsx bench/batch/index.ts [--pages 1000] [--concurrency 16] [--rounds 2]
//
// Each round runs the crawl (from `/`, limit N), then a batch of exactly the URLs that crawl saved, alternating, so
// both see the same pages; the first round is cold (JIT), the later ones are the steady state. Neither reads or
// writes the page cache (store_in_cache false, max_age 0), so the batch gets no head start from the crawl.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
    concurrency: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '2' },
  },
});
const pages = Number(args.pages);
const concurrency = Number(args.concurrency);
const rounds = Number(args.rounds);
if (![pages, concurrency, rounds].every((n) => Number.isInteger(n) && n > 0))
  throw new Error('--pages, --concurrency and --rounds take positive integers');
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-batch-'));
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
  name: string;
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  /** Service CPU (all threads) per saved page, ms. */
  cpuMsPerPage: number;
}

async function waitUntilListening(base: string, child: Child): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (child.proc.exitCode !== null) throw new Error(`service exited; see ${work}/service.log`);
    if (Date.now() > deadline) throw new Error(`service did not answer /health; see ${work}/service.log`);
    await sleep(100);
  }
}

/** Creates a job, waits for its end; returns the run's figures and the URLs saved (every results page). */
async function measure(
  base: string,
  pid: number,
  name: string,
  create: string,
  body: Record<string, unknown>,
  statusOf: (id: string) => string,
  resultsOf: (id: string) => string,
): Promise<{ run: Run; urls: string[] }> {
  const cpu0 = sample(pid).cpuMs;
  const t0 = performance.now();
  const created = await api<{ data: { job_id: string } }>(base, 'POST', create, body);
  const id = created.data.job_id;
  let status: Status;
  for (;;) {
    status = (await api<{ data: Status }>(base, 'GET', statusOf(id))).data;
    if (status.status !== 'pending') break;
    await sleep(20);
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpuMs = sample(pid).cpuMs - cpu0;
  if (status.status !== 'completed' || status.failed > 0)
    throw new Error(`${name} ended ${status.status} with ${status.failed} failed pages`);
  const urls: string[] = [];
  let next: string | undefined = resultsOf(id);
  while (next) {
    const page: { data: Array<{ url: string; markdown?: string }>; next?: string } = await api(base, 'GET', next);
    for (const item of page.data) {
      if (!item.markdown) throw new Error(`${name}: no markdown for ${item.url}`);
      urls.push(item.url);
    }
    next = page.next;
  }
  if (urls.length !== status.completed) throw new Error(`${name}: ${urls.length} results, ${status.completed} saved`);
  const run = {
    name,
    pages: urls.length,
    seconds: Number(seconds.toFixed(2)),
    pagesPerSecond: Number((urls.length / seconds).toFixed(1)),
    cpuMsPerPage: Number((cpuMs / urls.length).toFixed(2)),
  };
  log(
    `${name}: ${run.pages} pages in ${run.seconds} s = ${run.pagesPerSecond} pages/s, ${run.cpuMsPerPage} ms CPU/page`,
  );
  return { run, urls };
}

async function main(): Promise<void> {
  ensureBuilt(root, log);
  const site = start(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench/crawl/site-server.ts'), String(Math.max(5000, pages * 2))],
    { cwd: root, logFile: path.join(work, 'site.log') },
  );
  const first = (await site.firstJson) as { port?: number } | undefined;
  if (!first?.port) throw new Error(`site server did not start; see ${work}/site.log`);
  const siteBase = `http://127.0.0.1:${first.port}`;
  const port = await freePort();
  const service = start(process.execPath, [...serviceNodeArgs(root), path.join(root, 'dist/src/main.js'), 'serve'], {
    cwd: work,
    logFile: path.join(work, 'service.log'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(work, 'data'),
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
  const runs: Run[] = [];
  try {
    await waitUntilListening(base, service);
    const pageOptions = { engine: 'cheerio', formats: ['markdown'], store_in_cache: false, max_age: 0 };
    for (let round = 1; round <= rounds; round++) {
      const crawl = await measure(
        base,
        service.pid,
        `crawl, round ${round}`,
        '/v1/crawl',
        { url: `${siteBase}/`, limit: pages, max_depth: 100, ...pageOptions },
        (id) => `/v1/crawl/${id}/status`,
        (id) => `/v1/crawl/${id}?skip=0`,
      );
      runs.push(crawl.run);
      const batch = await measure(
        base,
        service.pid,
        `batch, round ${round}`,
        '/v1/batch/scrape',
        { urls: crawl.urls, ...pageOptions },
        (id) => `/v1/batch/scrape/${id}/status`,
        (id) => `/v1/batch/scrape/${id}?skip=0`,
      );
      if (batch.urls.length !== crawl.urls.length) throw new Error('the batch did not save every URL');
      runs.push(batch.run);
    }
  } finally {
    await stop(service, 30_000);
    await stop(site, 5000);
  }
  const problems = readFileSync(path.join(work, 'service.log'), 'utf8')
    .split('\n')
    .filter((l) => /"level":(40|50|60)/.test(l));
  console.log(
    JSON.stringify(
      {
        pages,
        concurrency,
        cpus: os.cpus().length,
        runs,
        serviceWarnings: problems.length,
        ...(problems.length ? { firstWarning: problems[0]?.slice(0, 300) } : {}),
      },
      null,
      2,
    ),
  );
  rmSync(work, { recursive: true, force: true });
}

await main();
