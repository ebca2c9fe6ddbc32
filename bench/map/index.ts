// POST /v1/map over a sitemap index of 50 sitemaps x 1,000 URLs (every third gzipped), served by a child process,
// with limit 50,000, through the service in this process (real HTTP on a loopback port).
//
//   npx tsx bench/map/index.ts            ROUNDS=3 SITEMAPS=50 PER=1000 by default
//
// Prints each round's seconds and the peak RSS of this process (sampled every 5 ms) during the call, against the
// RSS just before it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { pino } from 'pino';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { systemClock } from '../../src/util/time.js';
import { callApi } from '../lib/api.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 3);
const SITEMAPS = Number(process.env['SITEMAPS'] ?? 50);
const PER = Number(process.env['PER'] ?? 1000);
const KEY = 'bench-key-0123456789';
const MB = 1024 * 1024;

const child = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(import.meta.dirname, 'site-server.ts'), String(SITEMAPS), String(PER)],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const first = await new Promise<string>((resolve) =>
  readline.createInterface({ input: child.stdout! }).once('line', resolve),
);
const { port, bytes } = JSON.parse(first) as { port: number; bytes: number };
const site = `http://127.0.0.1:${port}`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'map-bench-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  API_KEYS: KEY,
  LOG_LEVEL: 'silent',
  ALLOW_LOCAL_TARGETS: 'true',
  EXTRACT_THREADS: '0',
});
const app = await createApp({
  config,
  logger: pino({ level: 'silent' }),
  clock: systemClock,
  roles: { worker: false },
});
const address = await app.server.listen({ port: 0, host: '127.0.0.1' });

interface MapAnswer {
  data: Array<{ url: string }>;
  sources: { sitemaps: Record<string, unknown> };
}

try {
  console.log(`site: ${SITEMAPS} sitemaps x ${PER} URLs (every third gzipped), ${(bytes / MB).toFixed(1)} MB served`);
  // A first small call loads what a first call loads (parsers, prepared statements).
  await callApi<MapAnswer>(address, KEY, 'POST', '/v1/map', { url: `${site}/`, limit: 10 });
  for (let round = 1; round <= ROUNDS; round++) {
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const answer = await callApi<MapAnswer>(address, KEY, 'POST', '/v1/map', { url: `${site}/`, limit: 50_000 });
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    console.log(
      `round ${round}: ${answer.data.length} links in ${seconds.toFixed(2)} s (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s), ` +
        `RSS before ${(before / MB).toFixed(0)} MB, peak ${(peak / MB).toFixed(0)} MB (+${((peak - before) / MB).toFixed(0)} MB); ` +
        `sitemaps ${JSON.stringify(answer.sources.sitemaps)}`,
    );
  }
} finally {
  await app.close();
  child.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
