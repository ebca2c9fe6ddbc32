// Not a test: renders N pages through one pool and prints the browser's memory (PSS of its process tree) as it goes.
// node --import tsx bench/browser/memory-probe.ts [renders=500] [engine=playwright] [pagesPerBrowser=100000]
// [allowPrivate=true] [reuse=true]
// reuse=true renders with one reuse key, as a crawl does (each of the 4 lanes keeps its context).
import { readdir, readFile } from 'node:fs/promises';
import { createBrowserPool, type BrowserEngineName } from '../../src/browser/index.js';
import { startBrowserSite } from '../../test/fixtures/browser-site.js';
import { CHROMIUM } from '../../test/browser/helpers.js';

const renders = Number(process.argv[2] ?? 500);
const engine = (process.argv[3] ?? 'playwright') as BrowserEngineName;
const pagesPerBrowser = Number(process.argv[4] ?? 100_000);
const allowPrivateAddresses = (process.argv[5] ?? 'true') === 'true';
const reuse = (process.argv[6] ?? 'true') === 'true';

/** PSS in MB of `root` and all its descendants. */
async function treePssMb(root: number): Promise<{ mb: number; processes: number }> {
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(name), ppid);
    } catch {
      // Gone meanwhile.
    }
  }
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parents) {
      if (!tree.has(pid) && tree.has(ppid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  let kb = 0;
  for (const pid of tree) {
    try {
      const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8');
      kb += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // Gone meanwhile.
    }
  }
  return { mb: Math.round(kb / 1024), processes: tree.size };
}

const site = await startBrowserSite();
const pool = createBrowserPool({
  executablePath: CHROMIUM,
  maxBrowsers: 1,
  maxPages: 4,
  pagesPerBrowser,
  launchTimeoutMs: 30_000,
});
const started = Date.now();
const paths = ['/js', '/delayed?ms=50', '/tall', '/redirect?n=2', '/late-fetch', '/pushstate'];
let done = 0;
async function worker(): Promise<void> {
  while (done < renders) {
    const n = done++;
    await pool.render({
      engine,
      url: `${site.url}${paths[n % paths.length]}${paths[n % paths.length]!.includes('?') ? '&' : '?'}n=${n}`,
      timeoutMs: 15_000,
      userAgent: 'memory-probe',
      allowPrivateAddresses,
      ...(reuse ? { reuseKey: 'probe' } : {}),
    });
    if ((n + 1) % 100 === 0 || n === 0) {
      const pid = pool.stats().browsers.find((b) => b.engine === engine)?.pid;
      const tree = pid ? await treePssMb(pid) : { mb: 0, processes: 0 };
      const heap = Math.round(process.memoryUsage().heapUsed / 1024 / 1024);
      const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `${n + 1} renders, ${secs} s: browser ${tree.mb} MB PSS in ${tree.processes} processes; node heap ${heap} MB, rss ${rss} MB; launches ${pool.stats().launches}`,
      );
    }
  }
}
await Promise.all([worker(), worker(), worker(), worker()]);
await pool.close();
await site.close();
