// The floor under any crawl of the benchmark site on Node: the CPU per page of the work besides
// extraction that the crawl issue requires of every page (fetch it over loopback, write its
// page-cache row, commit its outcome, hand it to an extraction thread and take the result back),
// with no crawl logic at all (no frontier, scope, robots, API). Compare it with the extraction's
// own CPU per page that bench/crawl prints: the 1.5x target leaves half of that for all of this.
//
//   npx tsx bench/crawl/floor.ts [--pages 3000] [--concurrency 16]
//
// Each step adds one piece of work to the one before; each is timed as this process's CPU (all of
// its threads) per page, after a warm-up pass, fastest of 2 rounds. The site server is a child
// process, as in bench/crawl, so its CPU is not counted. The thread is a piscina pool with the
// service's settings; its worker answers with what extraction would (~10 KB, ~100 links) without
// extracting.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { Piscina } from 'piscina';
import { Agent, request } from 'undici';
import { start, stop } from './proc.js';
import { pathOf } from './site.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const { values: args } = parseArgs({
  options: { pages: { type: 'string', default: '3000' }, concurrency: { type: 'string', default: '16' } },
});
const pages = Number(args.pages);
const concurrency = Number(args.concurrency);
const siteSize = Math.max(5000, pages);
interface FloorResult {
  markdown?: string;
  links?: string[];
}

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-floor-'));
let databases = 0;

interface Step {
  name: string;
  sqlite: boolean;
  handOff: boolean;
}

const STEPS: Step[] = [
  { name: 'fetch (undici, body decoded to a string)', sqlite: false, handOff: false },
  { name: '+ page-cache row and the page transaction (SQLite, WAL, synchronous NORMAL)', sqlite: true, handOff: false },
  { name: '+ hand-off to a worker thread and back (piscina, ~10 KB and 100 links back)', sqlite: true, handOff: true },
];

function openStore(file: string): {
  perPage: (url: string, html: string, markdown: string, links: string[]) => void;
  close: () => void;
} {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE page_cache (cache_key TEXT PRIMARY KEY, url TEXT NOT NULL, headers TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL);
    CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, state TEXT NOT NULL);
    CREATE TABLE results (id INTEGER PRIMARY KEY, page_id INTEGER NOT NULL, data TEXT NOT NULL);
    CREATE TABLE counters (id INTEGER PRIMARY KEY, completed INTEGER NOT NULL);
    INSERT INTO counters VALUES (1, 0);
  `);
  const cache = db.prepare(
    'INSERT INTO page_cache VALUES (?, ?, ?, ?, ?) ON CONFLICT (cache_key) DO UPDATE SET body = excluded.body, created_at = excluded.created_at',
  );
  const done = db.prepare(
    "INSERT INTO pages (url, state) VALUES (?, 'done') ON CONFLICT (url) DO UPDATE SET state = 'done' RETURNING id",
  );
  const result = db.prepare('INSERT INTO results (page_id, data) VALUES (?, ?)');
  const count = db.prepare('UPDATE counters SET completed = completed + 1 WHERE id = 1');
  const outcome = db.transaction((url: string, markdown: string, links: string[]) => {
    const { id } = done.get(url) as { id: number };
    result.run(id, JSON.stringify({ url, markdown, links }));
    // No links are admitted: once a crawl's limit is reached (early in bench/crawl's crawls) the
    // service admits none either, so the floor leaves that out.
    count.run();
  });
  return {
    perPage(url, html, markdown, links) {
      cache.run(url, url, '{"content-type":"text/html; charset=utf-8"}', html, new Date().toISOString());
      outcome(url, markdown, links);
    },
    close: () => db.close(),
  };
}

async function runStep(
  step: Step,
  base: string,
  pool: Piscina<{ html: string }, FloorResult>,
  count: number,
): Promise<{ cpuMs: number; wallMs: number }> {
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 4_000 });
  const store = step.sqlite ? openStore(path.join(work, `floor-${databases++}.db`)) : undefined;
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const lane = async (): Promise<void> => {
    while (next < count) {
      const url = `${base}${pathOf(next++ % siteSize)}`;
      const res = await request(url, { dispatcher: agent });
      const html = await res.body.text();
      let out: FloorResult = { markdown: '', links: [] };
      if (step.handOff) out = await pool.run({ html });
      store?.perPage(url, html, out.markdown ?? '', out.links ?? []);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - t0;
  store?.close();
  await agent.close();
  return { cpuMs: (cpu.user + cpu.system) / 1000 / count, wallMs: wallMs / count };
}

async function main(): Promise<void> {
  const site = start(process.execPath, ['--import', 'tsx', path.join(here, 'site-server.ts'), String(siteSize)], {
    cwd: root,
    logFile: path.join(work, 'site.log'),
  });
  const first = (await site.firstJson) as { port?: number } | undefined;
  if (!first?.port) throw new Error(`site server did not start; see ${work}/site.log`);
  const base = `http://127.0.0.1:${first.port}`;
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  // The service's pool settings (src/scrape/extractor.ts): one thread on 2 cores, the same heap caps.
  const pool = new Piscina<{ html: string }, FloorResult>({
    filename: new URL(`./floor-echo-worker.${extension}`, import.meta.url).href,
    minThreads: 1,
    maxThreads: 1,
    resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 },
  });
  try {
    console.log(
      `\nnode ${process.version}, ${os.availableParallelism()} cores, ${new Date().toISOString()}, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      `${pages} pages of the synthetic site per round, ${concurrency} at once, after a warm-up of ${Math.min(1000, pages)} pages; fastest of 2 rounds\n`,
    );
    console.log('| work per page | CPU ms/page | wall ms/page |\n| --- | --- | --- |');
    const figures: number[] = [];
    for (const step of STEPS) {
      await runStep(step, base, pool, Math.min(1000, pages));
      const rounds = [await runStep(step, base, pool, pages), await runStep(step, base, pool, pages)];
      const best = rounds.reduce((a, b) => (b.cpuMs < a.cpuMs ? b : a));
      figures.push(best.cpuMs);
      console.log(`| ${step.name} | ${best.cpuMs.toFixed(2)} | ${best.wallMs.toFixed(2)} |`);
    }
    const floor = figures[figures.length - 1] ?? 0;
    console.log(`\nthe work every crawled page needs besides extraction: ${floor.toFixed(2)} ms/page of CPU`);
    console.log(
      "(the 1.5x target leaves 0.5x the extraction's CPU per page, as bench/crawl prints it, for this and all crawl logic)",
    );
  } finally {
    await pool.destroy();
    await stop(site);
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
