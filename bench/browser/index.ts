// Browser-engine benchmark: crawl a 200-page JavaScript-rendered local site with each browser engine through the
// service, and print pages/s and the peak memory of the whole service (Node process + every Chromium process).
//
//   npx tsx bench/browser/index.ts [--pages 200] [--engines playwright,puppeteer] [--browser-pages 4]
import { readdirSync, readFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Child, freePort, sample, start, stop } from '../crawl/proc.js';
import { callApi } from '../lib/api.js';
import { serviceNodeArgs } from '../lib/service-args.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const API_KEY = 'bench-browser-key-0123456789';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '200' },
    engines: { type: 'string', default: 'playwright,puppeteer' },
    'browser-pages': { type: 'string', default: '' },
  },
});
const pages = Number(args.pages);
const engines = args.engines.split(',').filter((e) => e === 'playwright' || e === 'puppeteer');
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-browser-'));
const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (message: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);

/** Every process below `pid` (Chromium's zygote, renderers, GPU/network utility processes), `pid` included. */
function tree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // Exited while listing.
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    out.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return out;
}

/** RSS and PSS (shared pages divided among the processes sharing them) summed over the tree, bytes. */
function treeMemory(pid: number): { rss: number; pss: number; processes: number } {
  let rss = 0;
  let pss = 0;
  const pids = tree(pid);
  for (const p of pids) {
    try {
      const rollup = readFileSync(`/proc/${p}/smaps_rollup`, 'utf8');
      rss += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) * 1024;
      pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) * 1024;
    } catch {
      // Exited while reading.
    }
  }
  return { rss, pss, processes: pids.length };
}

const api = <T>(base: string, method: string, route: string, body?: unknown): Promise<T> =>
  callApi<T>(base, API_KEY, method, route, body);

interface Figures {
  engine: string;
  pages: number;
  failed: number;
  seconds: number;
  peakTreeRss: number;
  peakTreePss: number;
  peakNodeRss: number;
  maxProcesses: number;
  cpuSeconds: number;
}

async function runEngine(engine: string, siteBase: string): Promise<Figures> {
  const port = await freePort();
  const child: Child = start(
    process.execPath,
    [...serviceNodeArgs(root), path.join(root, 'dist/src/main.js'), 'serve'],
    {
      cwd: work,
      logFile: path.join(work, `service-${engine}.log`),
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(work, `data-${engine}`),
        DATABASE_URL: '',
        API_KEYS: API_KEY,
        ALLOW_LOCAL_TARGETS: 'true',
        LOG_LEVEL: 'warn',
        RESPECT_ROBOTS_TXT: 'false',
        ...(args['browser-pages'] ? { BROWSER_MAX_PAGES: args['browser-pages'] } : {}),
      },
    },
  );
  try {
    return await measure(engine, siteBase, child, `http://127.0.0.1:${port}`);
  } finally {
    // Also when the run fails: no service or Chromium left behind.
    await stop(child);
  }
}

async function measure(engine: string, siteBase: string, child: Child, base: string): Promise<Figures> {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (i > 300) throw new Error(`service did not start; see ${work}`);
    await sleep(100);
  }
  let peakTreeRss = 0;
  let peakTreePss = 0;
  let maxProcesses = 0;
  const sampler = setInterval(() => {
    const m = treeMemory(child.pid);
    peakTreeRss = Math.max(peakTreeRss, m.rss);
    peakTreePss = Math.max(peakTreePss, m.pss);
    maxProcesses = Math.max(maxProcesses, m.processes);
  }, 250);
  const cpu0 = sample(child.pid).cpuMs;
  const t0 = performance.now();
  const created = await api<{ data: { job_id: string } }>(base, 'POST', '/v1/crawl', {
    url: `${siteBase}/p/0`,
    engine,
    limit: pages,
    max_depth: 100,
    formats: ['markdown'],
    // The article appears after the load event (the app awaits a timer first), as on real
    // single-page apps: wait for it as a user of such a site would.
    wait_for_selector: 'article h1',
  });
  const id = created.data.job_id;
  let status: { status: string; completed: number; failed: number };
  for (;;) {
    status = (await api<{ data: typeof status }>(base, 'GET', `/v1/crawl/${id}/status`)).data;
    if (status.status !== 'pending') break;
    await sleep(200);
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const cpuSeconds = (sample(child.pid).cpuMs - cpu0) / 1000;
  const peakNodeRss = sample(child.pid).peakRss;
  // Every result must be the rendered article, not the shell.
  let checked = 0;
  for (let skip = 0; ;) {
    const page = await api<{ data: Array<{ markdown?: string; metadata: { engine: string } }>; next?: string }>(
      base,
      'GET',
      `/v1/crawl/${id}?skip=${skip}`,
    );
    for (const item of page.data) {
      if (!/# Article \d+/.test(item.markdown ?? '') || item.metadata.engine !== engine)
        throw new Error(`unrendered result: ${JSON.stringify(item).slice(0, 300)}`);
      checked++;
    }
    if (!page.next) break;
    skip += page.data.length;
  }
  if (checked !== status.completed) throw new Error(`results ${checked} != completed ${status.completed}`);
  return {
    engine,
    pages: status.completed,
    failed: status.failed,
    seconds,
    peakTreeRss,
    peakTreePss,
    peakNodeRss,
    maxProcesses,
    cpuSeconds,
  };
}

async function main(): Promise<void> {
  log(`work dir ${work}; building dist/`);
  const { spawnSync } = await import('node:child_process');
  if (spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' }).status !== 0)
    log('build reported errors; using what it emitted');
  const site = start(process.execPath, ['--import', 'tsx', path.join(here, 'site-server.ts'), String(pages + 20)], {
    cwd: root,
    logFile: path.join(work, 'site.log'),
  });
  const first = (await site.firstJson) as { port?: number } | undefined;
  if (!first?.port) throw new Error('site did not start');
  const siteBase = `http://127.0.0.1:${first.port}`;
  const results: Figures[] = [];
  try {
    for (const engine of engines) {
      log(`crawling ${pages} pages with ${engine}`);
      results.push(await runEngine(engine, siteBase));
    }
  } finally {
    await stop(site);
  }
  console.log(
    `\nNode ${process.version}, ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    '| engine | pages | failed | s | pages/s | peak RSS, whole tree (MB) | peak PSS, whole tree (MB) | peak RSS, Node process (MB) | processes | CPU s, Node process |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.engine} | ${r.pages} | ${r.failed} | ${r.seconds.toFixed(1)} | ${(r.pages / r.seconds).toFixed(1)} | ${mb(r.peakTreeRss)} | ${mb(r.peakTreePss)} | ${mb(r.peakNodeRss)} | ${r.maxProcesses} | ${r.cpuSeconds.toFixed(1)} |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
