// OCR benchmark. Part 1: character error rate and time per image of the service's OCR (src/ocr: sharp's preparation,
// then a warm tesseract.js worker) on `--images` 800×600 images of known text, fonts, sizes and backgrounds varied.
// Part 2: the service (dist/, as `npm start` runs it, default settings) crawls a local site of `--pages` pages, each
// showing a logo they share and an image of its own, with `ocr_options: true`; figures: wall time, the peak RSS of
// the service process (VmHWM), and how many pages' own text was read into their markdown.
//
//   node --import tsx bench/ocr/index.ts [--images 60] [--pages 200]   (npm run bench:ocr)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { OcrEngine } from '../../src/ocr/engine.js';
import { bundledLangPath } from '../../src/ocr/settings.js';
import { prepareImage } from '../../src/ocr/image.js';
import { type Child, freePort, sample, start, stop } from '../crawl/proc.js';
import { callApi } from '../lib/api.js';
import { ensureBuilt } from '../lib/build.js';
import { serviceNodeArgs } from '../lib/service-args.js';
import { benchImages, characterErrors } from './images.js';

const { values: args } = parseArgs({
  options: { images: { type: 'string', default: '60' }, pages: { type: 'string', default: '200' } },
});
const IMAGES = Number(args.images);
const PAGES = Number(args.pages);
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const KEY = 'bench-ocr-key';
const log = (m: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
};
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function accuracy(): Promise<Record<string, unknown>> {
  const images = await benchImages(IMAGES);
  const limits = { maxBytes: 5 * 1024 * 1024, maxInputPixels: 50_000_000, maxPixels: 4_000_000, timeoutMs: 30_000 };
  const engine = new OcrEngine({ threads: 1, langs: ['eng'], langPath: bundledLangPath(), timeoutMs: 30_000 });
  try {
    let t0 = performance.now();
    await engine.recognize(await prepareImage(images[0]?.png as Buffer, limits));
    const firstMs = performance.now() - t0;
    const rows: Array<{
      font: string;
      size: number;
      background: string;
      errors: number;
      chars: number;
      prepareMs: number;
      ocrMs: number;
    }> = [];
    for (const image of images) {
      t0 = performance.now();
      const png = await prepareImage(image.png, limits);
      const prepared = performance.now();
      const text = await engine.recognize(png);
      const done = performance.now();
      rows.push({ ...image, ...characterErrors(text, image.text), prepareMs: prepared - t0, ocrMs: done - prepared });
    }
    const cer = (list: typeof rows) =>
      (100 * list.reduce((s, r) => s + r.errors, 0)) / list.reduce((s, r) => s + r.chars, 0);
    const by = (key: 'font' | 'size' | 'background') =>
      Object.fromEntries(
        [...new Set(rows.map((r) => r[key]))].map((k) => [k, Number(cer(rows.filter((r) => r[key] === k)).toFixed(2))]),
      );
    const total = rows.map((r) => r.prepareMs + r.ocrMs);
    return {
      images: rows.length,
      cerPct: Number(cer(rows).toFixed(2)),
      cerPctBySize: by('size'),
      cerPctByFont: by('font'),
      cerPctByBackground: by('background'),
      msPerImage: {
        median: Math.round(pct(total, 0.5)),
        p95: Math.round(pct(total, 0.95)),
        max: Math.round(Math.max(...total)),
      },
      // Time grows with the text an image holds: the same figures for images of at most 150 characters.
      msPerImageUpTo150Chars: (() => {
        const small = rows.filter((r) => r.chars <= 150).map((r) => r.prepareMs + r.ocrMs);
        return { images: small.length, median: Math.round(pct(small, 0.5)), p95: Math.round(pct(small, 0.95)) };
      })(),
      msPer100Chars: Number(
        ((100 * total.reduce((a, b) => a + b, 0)) / rows.reduce((sum, r) => sum + r.chars, 0)).toFixed(1),
      ),
      prepareMsMedian: Math.round(
        pct(
          rows.map((r) => r.prepareMs),
          0.5,
        ),
      ),
      firstImageMs: Math.round(firstMs),
    };
  } finally {
    await engine.close();
  }
}

async function crawl(): Promise<Record<string, unknown>> {
  ensureBuilt(root, log);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ocr-'));
  const site: Child = start(process.execPath, ['--import', 'tsx', path.join(here, 'site-server.ts'), String(PAGES)], {
    cwd: root,
    logFile: path.join(work, 'site.log'),
  });
  const { port: sitePort } = (await site.firstJson) as { port: number };
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
      API_KEYS: KEY,
      ALLOW_LOCAL_TARGETS: 'true',
      LOG_LEVEL: 'warn',
    },
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/health`)).ok) break;
      } catch {
        // Not listening yet.
      }
      if (i > 300) throw new Error(`no /health after 30 s; see ${work}/service.log`);
      await sleep(100);
    }
    const idle = sample(service.pid);
    const t0 = performance.now();
    const created = await callApi<{ data: { job_id: string } }>(base, KEY, 'POST', '/v1/crawl', {
      url: `http://127.0.0.1:${sitePort}/`,
      limit: PAGES + 1,
      scrape_options: { formats: ['markdown'], only_main_content: false, ocr_options: true },
    });
    const id = created.data.job_id;
    let peakRss = 0;
    for (;;) {
      peakRss = Math.max(peakRss, sample(service.pid).peakRss);
      const status = await callApi<{ data: { status: string; completed: number } }>(
        base,
        KEY,
        'GET',
        `/v1/crawl/${id}/status`,
      );
      if (status.data.status !== 'pending') break;
      await sleep(200);
    }
    const wallMs = performance.now() - t0;
    const end = sample(service.pid);
    let read = 0;
    let pages = 0;
    let recognized = 0;
    let cached = 0;
    let skipped = 0;
    for (let next: string | undefined = `/v1/crawl/${id}?skip=0`; next;) {
      const res: {
        data: Array<{
          url: string;
          markdown?: string;
          metadata: { ocr?: { recognized: number; cached: number; skipped: unknown[] } };
        }>;
        next?: string;
      } = await callApi(base, KEY, 'GET', next);
      for (const item of res.data) {
        const m = /\/record\/(\d+)$/.exec(item.url);
        recognized += item.metadata.ocr?.recognized ?? 0;
        cached += item.metadata.ocr?.cached ?? 0;
        skipped += item.metadata.ocr?.skipped.length ?? 0;
        if (!m) continue;
        pages++;
        if (item.markdown?.includes(`> Record number ${10000 + Number(m[1])}`)) read++;
      }
      next = res.next;
    }
    return {
      pages,
      pagesWithTheirTextRead: read,
      imagesRecognized: recognized,
      imagesFromCache: cached,
      imagesSkipped: skipped,
      wallS: Number((wallMs / 1000).toFixed(1)),
      pagesPerS: Number((pages / (wallMs / 1000)).toFixed(2)),
      rssIdleMb: mb(idle.rss),
      peakRssMb: mb(Math.max(peakRss, end.peakRss)),
      cpuS: Number(((end.cpuMs - idle.cpuMs) / 1000).toFixed(1)),
    };
  } finally {
    await stop(service);
    await stop(site);
    fs.rmSync(work, { recursive: true, force: true });
  }
}

log(`OCR accuracy and speed on ${IMAGES} images`);
const part1 = await accuracy();
console.log(JSON.stringify({ part: 'images', ...part1 }, null, 1));
log(`crawl of ${PAGES} pages with ocr_options`);
const part2 = await crawl();
console.log(JSON.stringify({ part: 'crawl', ...part2 }, null, 1));
console.log(
  JSON.stringify({ bench: 'ocr', node: process.version, cpus: os.availableParallelism(), images: part1, crawl: part2 }),
);
