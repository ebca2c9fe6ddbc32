// The json format through the whole service (docs/structured.md), as a client sees it: the service runs as a real
// process (`node dist/src/main.js serve`, the flags of `npm start`, default EXTRACT_THREADS), driven over HTTP; the
// local model stand-in (test/fixtures/llm-server.ts) and the fixture site run in this process.
//
//   npx tsx bench/structured/service.ts [--calls 300] [--rounds 2] [--keep-data]
//
// 1. Service overhead per model call: POST /v1/scrape of one small page from the page cache (engine cheerio,
//    max_age large) with formats ['json'] against the stand-in answering at once, alternating with the same scrape
//    with formats ['markdown']; minus a bare fetch POST of the request body the service sent to the stand-in.
// 2. Crawl concurrency with a slow model: 100 product pages, scrape_options.formats ['json'] + schema, the stand-in
//    answering every call after 200 ms; wall time from create to completed, the most calls in flight the stand-in
//    saw, against the serial bound (100 x 200 ms). Once with the service's defaults (LLM_CONCURRENCY 4), once with
//    LLM_CONCURRENCY 16 and the crawl's limits at 32.
// 3. The rules (no model): the same crawl with formats ['json'] + schema, against formats ['markdown'] only, in
//    alternating rounds after a warm-up crawl; wall time, pages/s and the service's CPU per page.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Child, freePort, sample, start, stop } from '../crawl/proc.js';
import { callApi } from '../lib/api.js';
import { ensureBuilt } from '../lib/build.js';
import { serviceNodeArgs } from '../lib/service-args.js';
import { type CrawlSite, type FixturePage, startCrawlSite } from '../../test/fixtures/crawl-site.js';
import { type LlmServer, reply, startLlmServer } from '../../test/fixtures/llm-server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const API_KEY = 'bench-key';

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '2' },
    'keep-data': { type: 'boolean', default: false },
  },
});
const CALLS = Number(args.calls);
const ROUNDS = Number(args.rounds);
if (!Number.isInteger(CALLS) || CALLS < 10 || !Number.isInteger(ROUNDS) || ROUNDS < 1) {
  throw new Error('--calls takes an integer >= 10, --rounds a positive integer');
}
const WARMUP = 50;
const PAGES = 100;
const MODEL_DELAY_MS = 200;
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-structured-service-'));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function log(message: string): void {
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

// ---------------------------------------------------------------------------------------------
// The site: 100 product pages, each with a JSON-LD Product and a few paragraphs; / is product 0 and links to the rest.

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    sku: { type: ['string', 'null'] },
    price: { type: ['number', 'null'] },
    currency: { type: ['string', 'null'] },
    color: { type: ['string', 'null'] },
  },
  required: ['name'],
};
const ANSWER = { name: 'Acme Anvil 3000', sku: 'AN-3000', price: 149.99, currency: 'EUR', color: null };

function productBody(i: number): string {
  const ld = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: `Acme Anvil ${i}`,
    sku: `AN-${1000 + i}`,
    offers: {
      '@type': 'Offer',
      price: (100 + i + 0.99).toFixed(2),
      priceCurrency: 'EUR',
      availability: 'https://schema.org/InStock',
    },
  };
  return `<script type="application/ld+json">${JSON.stringify(ld)}</script>
<p>The Acme Anvil ${i} is the heaviest anvil we have ever made. It is forged from a single block of steel and rings
like a bell when struck. Blacksmiths across the country use it every day for their finest work.</p>
<p>It weighs ${40 + (i % 20)} kilograms and ships on a pallet. Delivery takes about a week within the country.</p>
<p>Every anvil is tested by hand before it leaves the forge, and comes with a lifetime guarantee.</p>
<table><tr><th>Weight</th><td>${40 + (i % 20)} kg</td></tr><tr><th>Material</th><td>Drop-forged steel</td></tr></table>`;
}

function productSite(): Record<string, FixturePage> {
  const out: Record<string, FixturePage> = {};
  for (let i = 0; i < PAGES; i++) {
    out[i === 0 ? '/' : `/p/${i}`] = {
      title: `Acme Anvil ${i}`,
      body: productBody(i),
      links: i === 0 ? Array.from({ length: PAGES - 1 }, (_, j) => `/p/${j + 1}`) : [],
    };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The service as a real process.

interface Service {
  child: Child;
  base: string;
  dataDir: string;
  logFile: string;
}

async function startService(name: string, env: Record<string, string>): Promise<Service> {
  const port = await freePort();
  // Whatever the calling shell has set is dropped: the defaults are what is measured unless `env` says otherwise.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(LLM_|CRAWL_|EXTRACT_|CACHE_|STRUCTURED_)/.test(key)),
  );
  const dataDir = path.join(work, `data-${name}`);
  const logFile = path.join(work, `service-${name}.log`);
  const child = start(process.execPath, [...serviceNodeArgs(root), path.join(root, 'dist/src/main.js'), 'serve'], {
    cwd: work,
    logFile,
    env: {
      ...inherited,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      API_KEYS: API_KEY,
      ALLOW_LOCAL_TARGETS: 'true',
      LOG_LEVEL: 'warn',
      ...env,
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
    if (child.proc.exitCode !== null) throw new Error(`service exited ${child.proc.exitCode}; see ${logFile}`);
    if (Date.now() > deadline) throw new Error(`service did not answer /health in 30 s; see ${logFile}`);
    await sleep(100);
  }
  return { child, base, dataDir, logFile };
}

/** Stops the service; returns the warn/error lines of its log. */
async function stopService(service: Service): Promise<string[]> {
  await stop(service.child, 30_000);
  return readFileSync(service.logFile, 'utf8')
    .split('\n')
    .filter((l) => /"level":(40|50|60)/.test(l));
}

const api = <T>(service: Service, method: string, route: string, body?: unknown): Promise<T> =>
  callApi<T>(service.base, API_KEY, method, route, body);

// ---------------------------------------------------------------------------------------------
// Figures.

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

function stats(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) };
}

const ms = (value: number, digits = 2) => `${value.toFixed(digits)} ms`;

function row(cells: Array<string | number>): string {
  return `| ${cells.join(' | ')} |`;
}

// ---------------------------------------------------------------------------------------------
// 1. Service overhead per model call.

interface ScrapeAnswer {
  data: { json?: unknown; markdown?: string; metadata: Record<string, unknown> };
}

async function overheadPerCall(service: Service, llm: LlmServer, site: CrawlSite): Promise<string[]> {
  llm.setBehaviour(() => reply.json(ANSWER));
  const url = `${site.url}/p/7`;
  const common = { url, engine: 'cheerio', max_age: 7 * 24 * 3600 * 1000, only_main_content: true };
  const jsonBody = { ...common, formats: ['json'], json_options: { schema: SCHEMA, schema_name: 'product' } };
  const markdownBody = { ...common, formats: ['markdown'] };
  const scrape = async (body: unknown): Promise<{ ms: number; answer: ScrapeAnswer }> => {
    const t0 = performance.now();
    const answer = await api<ScrapeAnswer>(service, 'POST', '/v1/scrape', body);
    return { ms: performance.now() - t0, answer };
  };

  const pageBytes = (await (await fetch(url)).text()).length;
  // The first scrape fetches the page and writes the cache; every later one reads it.
  await scrape(markdownBody);
  const hitsBefore = site.hits.get('/p/7') ?? 0;
  const withJson: number[] = [];
  const withMarkdown: number[] = [];
  let notHits = 0;
  let badJson = 0;
  llm.reset();
  // Alternating, so load from other jobs on the machine falls on both alike.
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const j = await scrape(jsonBody);
    const m = await scrape(markdownBody);
    if (j.answer.data.metadata.cache_state !== 'hit' || m.answer.data.metadata.cache_state !== 'hit') notHits++;
    if (j.answer.data.metadata.extraction !== 'llm' || JSON.stringify(j.answer.data.json) !== JSON.stringify(ANSWER))
      badJson++;
    if (i >= WARMUP) {
      withJson.push(j.ms);
      withMarkdown.push(m.ms);
    }
  }
  const modelCalls = llm.requests.length;
  const siteFetches = (site.hits.get('/p/7') ?? 0) - hitsBefore;

  // The bare model call: the same body, POSTed from here to the same stand-in.
  const sent = llm.requests.at(-1)!;
  const body = JSON.stringify(sent.body);
  const bare: number[] = [];
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const t0 = performance.now();
    const res = await fetch(`${llm.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body,
    });
    JSON.parse(await res.text());
    if (i >= WARMUP) bare.push(performance.now() - t0);
  }

  const j = stats(withJson);
  const m = stats(withMarkdown);
  const b = stats(bare);
  const overMedian = j.median - m.median - b.median;
  const overP95 = j.p95 - m.p95 - b.p95;
  const out = [
    `${CALLS} scrapes of each kind after ${WARMUP} warm-up, alternating, one at a time; ` +
      `page ${url} (${(pageBytes / 1024).toFixed(1)} KB of HTML) from the page cache; ` +
      `model request body ${body.length} bytes`,
    '',
    row(['what', 'median', 'p95']),
    row(['---', '---', '---']),
    row(["POST /v1/scrape formats ['json'] (model answering at once)", ms(j.median), ms(j.p95)]),
    row(["POST /v1/scrape formats ['markdown']", ms(m.median), ms(m.p95)]),
    row(['bare POST of the same body to the stand-in', ms(b.median), ms(b.p95)]),
    row([
      '**service overhead per model call** (json − markdown − bare call)',
      `**${ms(overMedian)}**`,
      `**${ms(overP95)}**`,
    ]),
    '',
    `goal ≤ 5 ms per model call: ${overMedian <= 5 ? 'met' : 'MISSED'} at the median; the p95 row is a difference ` +
      `of three tails, not the tail of the difference, and only says the tails are of like size`,
  ];
  const checks = [
    `model calls seen by the stand-in: ${modelCalls} for ${WARMUP + CALLS} json scrapes`,
    `site fetches during the timed scrapes: ${siteFetches} (0 = every scrape from the cache); scrapes not answered from the cache: ${notHits}`,
  ];
  if (badJson > 0) checks.push(`${badJson} json scrapes without the model's answer or not labelled llm`);
  return [...out, '', ...checks.map((c) => `- ${c}`)];
}

// ---------------------------------------------------------------------------------------------
// 2 and 3. Crawls.

interface CrawlStatus {
  status: string;
  total: number;
  completed: number;
  failed: number;
}

interface CrawlItem {
  url: string;
  markdown?: string;
  json?: Record<string, unknown> | null;
  metadata?: Record<string, unknown>;
}

interface CrawlFigures {
  /** Date.now() just before the create request, and when the first status poll saw the crawl done. */
  createdAt: number;
  doneAt: number;
  seconds: number;
  status: CrawlStatus;
  cpuMs: number;
  items: CrawlItem[];
  notes: string[];
}

async function crawl(service: Service, site: CrawlSite, scrapeOptions: Record<string, unknown>): Promise<CrawlFigures> {
  const cpu0 = sample(service.child.pid).cpuMs;
  const createdAt = Date.now();
  const t0 = performance.now();
  const created = await api<{ data: { job_id: string } }>(service, 'POST', '/v1/crawl', {
    url: `${site.url}/`,
    limit: PAGES,
    max_depth: 2,
    engine: 'cheerio',
    scrape_options: { only_main_content: true, ...scrapeOptions },
  });
  const id = created.data.job_id;
  let status: CrawlStatus;
  // Polled every 25 ms: the crawls last a second or a few, and the end time should be precise.
  for (;;) {
    status = (await api<{ data: CrawlStatus }>(service, 'GET', `/v1/crawl/${id}/status`)).data;
    if (status.status !== 'pending') break;
    if (performance.now() - t0 > 120_000) throw new Error(`crawl still pending after 120 s: ${JSON.stringify(status)}`);
    await sleep(25);
  }
  const seconds = (performance.now() - t0) / 1000;
  const doneAt = Date.now();
  const cpuMs = sample(service.child.pid).cpuMs - cpu0;

  const items: CrawlItem[] = [];
  let next: string | undefined = `/v1/crawl/${id}?skip=0`;
  while (next) {
    const page: { data: CrawlItem[]; next?: string } = await api(service, 'GET', next);
    items.push(...page.data);
    next = page.next;
    if (page.data.length === 0) break;
  }
  const notes: string[] = [];
  if (status.status !== 'completed') notes.push(`crawl ended ${status.status}`);
  if (status.completed !== PAGES || items.length !== PAGES)
    notes.push(`completed ${status.completed} pages, ${items.length} results, expected ${PAGES}`);
  if (status.failed > 0) notes.push(`${status.failed} pages failed`);
  return { createdAt, doneAt, seconds, status, cpuMs, items, notes };
}

function checkJson(figures: CrawlFigures, extraction: 'llm' | 'rules'): void {
  let wrong = 0;
  let first = '';
  for (const item of figures.items) {
    const json = item.json;
    const ok =
      item.metadata?.extraction === extraction &&
      json !== null &&
      json !== undefined &&
      (extraction === 'llm'
        ? JSON.stringify(json) === JSON.stringify(ANSWER)
        : /^Acme Anvil \d+$/.test(String(json.name)) && typeof json.price === 'number' && json.currency === 'EUR');
    if (!ok) {
      wrong++;
      first ||= `${item.url}: ${JSON.stringify({ json, extraction: item.metadata?.extraction, error: item.metadata?.json_error })}`;
    }
  }
  if (wrong > 0) figures.notes.push(`${wrong} results without the expected json, first: ${first.slice(0, 300)}`);
}

function checkMarkdown(figures: CrawlFigures): void {
  const empty = figures.items.filter((i) => !i.markdown?.includes('heaviest anvil')).length;
  if (empty > 0) figures.notes.push(`${empty} results without the page's markdown`);
}

/** The bound with `concurrency` model calls at once: / first (its links are admitted after it), then the rest. */
const idealSeconds = (concurrency: number) => (MODEL_DELAY_MS * (1 + Math.ceil((PAGES - 1) / concurrency))) / 1000;

async function slowModelCrawl(
  service: Service,
  llm: LlmServer,
  site: CrawlSite,
  label: string,
  concurrency: number,
): Promise<{ line: string; notes: string[] }> {
  llm.setBehaviour(() => reply.slow(MODEL_DELAY_MS, reply.json(ANSWER)));
  llm.reset();
  log(`crawl of ${PAGES} pages, model answering after ${MODEL_DELAY_MS} ms: ${label}`);
  const figures = await crawl(service, site, { formats: ['json'], json_options: { schema: SCHEMA } });
  checkJson(figures, 'llm');
  if (llm.requests.length !== PAGES) figures.notes.push(`the stand-in saw ${llm.requests.length} model calls`);
  const serial = (PAGES * MODEL_DELAY_MS) / 1000;
  log(`${label}: ${figures.seconds.toFixed(2)} s, max in flight ${llm.maxInFlight}`);
  // Where the time beyond the bound went: before the first model call, while calls ran, after the last answer.
  const arrivals = llm.requests.map((r) => r.at).sort((x, y) => x - y);
  const first = (arrivals[0] ?? NaN) - figures.createdAt;
  const lastAnswer = (arrivals.at(-1) ?? NaN) + MODEL_DELAY_MS - figures.createdAt;
  const busy = lastAnswer - first;
  const secondCall = (arrivals[1] ?? NaN) - figures.createdAt;
  figures.notes.push(
    `first model call (/) ${first.toFixed(0)} ms after the create, the second ${secondCall.toFixed(0)} ms; ` +
      `last answer at ${lastAnswer.toFixed(0)} ms; completed seen at ${(figures.doneAt - figures.createdAt).toFixed(0)} ms; ` +
      `mean calls in flight from the second call to the last answer ` +
      `${(((PAGES - 1) * MODEL_DELAY_MS) / (lastAnswer - secondCall)).toFixed(1)} (model busy ${busy.toFixed(0)} ms in all)`,
  );
  return {
    line: row([
      label,
      figures.seconds.toFixed(2),
      llm.maxInFlight,
      idealSeconds(concurrency).toFixed(1),
      serial.toFixed(0),
      `${(serial / figures.seconds).toFixed(1)}x`,
      (figures.cpuMs / PAGES).toFixed(1),
    ]),
    notes: figures.notes.map((n) => `${label}: ${n}`),
  };
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  ensureBuilt(root, log);
  const site = await startCrawlSite(productSite());
  const llm = await startLlmServer({ behaviour: () => reply.json(ANSWER) });
  const output: string[] = [];
  const print = (line = '') => {
    console.log(line);
    output.push(line);
  };
  try {
    print(
      `node ${process.version}, ${os.availableParallelism()} cores, ${new Date().toISOString()}, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    print(
      'service: a real process (node dist/src/main.js serve with the flags of npm start), SQLite in a fresh DATA_DIR, ' +
        'default EXTRACT_THREADS, driven over HTTP on 127.0.0.1; the model stand-in and the site run in the benchmark process',
    );

    // Service A: a model, the service's defaults (LLM_CONCURRENCY 4, CRAWL_* 16/8/8).
    log('service with a model, defaults');
    const a = await startService('llm-defaults', { LLM_BASE_URL: llm.url, LLM_MODEL: 'bench-model' });
    let overhead: string[];
    let slowDefault: { line: string; notes: string[] };
    try {
      log('1. overhead per model call');
      overhead = await overheadPerCall(a, llm, site);
      slowDefault = await slowModelCrawl(
        a,
        llm,
        site,
        'defaults: LLM_CONCURRENCY 4, CRAWL_CONCURRENCY 16, CRAWL_JOB_CONCURRENCY 8, CRAWL_HOST_CONCURRENCY 8',
        4,
      );
    } finally {
      const problems = await stopService(a);
      if (problems.length > 0) print(`- service A: ${problems.length} warn/error log lines, first: ${problems[0]}`);
    }

    // Service B: a model, 16 calls at once, the crawl's limits above that.
    log('service with a model, LLM_CONCURRENCY 16');
    const b = await startService('llm-16', {
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'bench-model',
      LLM_CONCURRENCY: '16',
      CRAWL_CONCURRENCY: '32',
      CRAWL_JOB_CONCURRENCY: '32',
      CRAWL_HOST_CONCURRENCY: '32',
    });
    let slow16: { line: string; notes: string[] };
    try {
      slow16 = await slowModelCrawl(
        b,
        llm,
        site,
        'LLM_CONCURRENCY 16, CRAWL_CONCURRENCY / CRAWL_JOB_CONCURRENCY / CRAWL_HOST_CONCURRENCY 32',
        16,
      );
    } finally {
      const problems = await stopService(b);
      if (problems.length > 0) print(`- service B: ${problems.length} warn/error log lines, first: ${problems[0]}`);
    }

    // Service C: no model (the rules), defaults.
    log('service without a model (rules), defaults');
    const c = await startService('rules', {});
    const rulesRows: string[] = [];
    const rulesNotes: string[] = [];
    const best = { markdown: Infinity, json: Infinity };
    const cpu = { markdown: [] as number[], json: [] as number[] };
    try {
      // Warm-up crawl (JIT, worker thread, robots.txt), not counted.
      await crawl(c, site, { formats: ['markdown'] });
      for (let round = 1; round <= ROUNDS; round++) {
        for (const kind of ['markdown', 'json'] as const) {
          log(`3. rules crawl, round ${round}, ${kind}`);
          const options =
            kind === 'json' ? { formats: ['json'], json_options: { schema: SCHEMA } } : { formats: ['markdown'] };
          const figures = await crawl(c, site, options);
          if (kind === 'json') checkJson(figures, 'rules');
          else checkMarkdown(figures);
          best[kind] = Math.min(best[kind], figures.seconds);
          cpu[kind].push(figures.cpuMs / PAGES);
          rulesRows.push(
            row([
              round,
              kind === 'json' ? "['json'] + schema (rules)" : "['markdown']",
              figures.seconds.toFixed(2),
              (PAGES / figures.seconds).toFixed(0),
              (figures.cpuMs / PAGES).toFixed(1),
            ]),
          );
          rulesNotes.push(...figures.notes.map((n) => `round ${round} ${kind}: ${n}`));
        }
      }
    } finally {
      const problems = await stopService(c);
      if (problems.length > 0) print(`- service C: ${problems.length} warn/error log lines, first: ${problems[0]}`);
    }

    print('');
    print('## 1. Service overhead per model call (service A: model stand-in answering at once, defaults)');
    print('');
    for (const line of overhead) print(line);

    print('');
    print(
      `## 2. Crawl of ${PAGES} product pages, formats ['json'] + schema, model answering each call after ${MODEL_DELAY_MS} ms`,
    );
    print('');
    print(
      row([
        'service settings',
        'create → completed, s',
        'max model calls in flight',
        'bound at that concurrency, s',
        'serial bound, s',
        'speed-up over serial',
        'service CPU ms/page',
      ]),
    );
    print(row(['---', '---', '---', '---', '---', '---', '---']));
    print(slowDefault.line);
    print(slow16.line);
    print('');
    print(
      `bound at concurrency c: ${MODEL_DELAY_MS} ms for / (its links are admitted once it is done) + ceil(${PAGES - 1} / c) × ${MODEL_DELAY_MS} ms`,
    );
    for (const n of [...slowDefault.notes, ...slow16.notes]) print(`- ${n}`);

    print('');
    print(`## 3. Crawl of ${PAGES} product pages without a model (service C: rules, defaults)`);
    print('');
    print(`after one warm-up crawl, ${ROUNDS} alternating rounds`);
    print('');
    print(row(['round', 'formats', 'create → completed, s', 'pages/s', 'service CPU ms/page']));
    print(row(['---', '---', '---', '---', '---']));
    for (const line of rulesRows) print(line);
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
    print('');
    print(
      `best wall time: markdown ${best.markdown.toFixed(2)} s (${(PAGES / best.markdown).toFixed(0)} pages/s), ` +
        `json by rules ${best.json.toFixed(2)} s (${(PAGES / best.json).toFixed(0)} pages/s); ` +
        `mean service CPU ms/page: markdown ${mean(cpu.markdown).toFixed(1)}, json by rules ${mean(cpu.json).toFixed(1)} ` +
        `(+${(mean(cpu.json) - mean(cpu.markdown)).toFixed(1)} ms/page)`,
    );
    for (const n of rulesNotes) print(`- ${n}`);
    print('');
    print(
      `load average at the end: ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} (other jobs on the machine skew every figure)`,
    );
  } finally {
    await llm.close();
    await site.close();
    if (!args['keep-data']) rmSync(work, { recursive: true, force: true });
    else log(`kept ${work}`);
  }
}

await main();
