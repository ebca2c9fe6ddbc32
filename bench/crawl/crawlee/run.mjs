// Crawlee side of bench/crawl: CheerioCrawler over the synthetic site doing the same per-page work as our crawl.
// Usage: node run.mjs <startUrl> <pages> <concurrency>; prints one JSON line with pages, elapsed ms, CPU and peak RSS.
import { readFileSync } from 'node:fs';
import { CheerioCrawler, Configuration, log, LogLevel } from 'crawlee';
import TurndownService from 'turndown';

const [startUrl, pagesArg = '5000', concurrencyArg = '16'] = process.argv.slice(2);
const pages = Number(pagesArg);
const concurrency = Number(concurrencyArg);
if (!startUrl || !(pages > 0) || !(concurrency > 0))
  throw new Error('usage: node run.mjs <startUrl> <pages> <concurrency>');

log.setLevel(LogLevel.WARNING);
// In-memory storage only: nothing is written to ./storage, so no disk work is counted against Crawlee.
const config = new Configuration({ persistStorage: false, purgeOnStart: true });

// Same conversion settings as ours (ATX headings, fenced code), so both produce comparable markdown.
const turndown = new TurndownService({
  headingStyle: 'atx',
  hr: '---',
  bulletListMarker: '-',
  codeBlockStyle: 'fenced',
  fence: '```',
  emDelimiter: '*',
  strongDelimiter: '**',
});
const results = [];
let failed = 0;
let maxSeenConcurrency = 0;

const crawler = new CheerioCrawler(
  {
    maxRequestsPerCrawl: pages,
    // min = desired = max: the autoscaled pool would otherwise start at a low concurrency and scale down
    // when it sees the CPU busy, which it always is on 2 cores; we want the same budget as our service.
    maxConcurrency: concurrency,
    minConcurrency: concurrency,
    autoscaledPoolOptions: { desiredConcurrency: concurrency },
    // No per-minute cap (Infinity is the default; stated so it is visible).
    maxRequestsPerMinute: Infinity,
    // Our crawl retries nothing by default (retry: false); neither should Crawlee.
    maxRequestRetries: 0,
    requestHandlerTimeoutSecs: 60,
    // Our service asks for robots.txt once per host; so does Crawlee with this (the site answers 404).
    respectRobotsTxtFile: true,
    async requestHandler({ $, request, enqueueLinks }) {
      await enqueueLinks({ strategy: 'same-hostname' });
      const title = $('title').first().text().trim();
      // Main content: drop scripts, styles and site chrome, but keep the article's own header (its h1).
      $('script, style, noscript, template, iframe, svg, nav, aside, form').remove();
      $('header, footer')
        .filter((_, el) => $(el).closest('article').length === 0)
        .remove();
      let root = $('article').first();
      if (root.length === 0) root = $('main').first();
      if (root.length === 0) root = $('body');
      const markdown = turndown.turndown(root.html() ?? '');
      results.push({ url: request.loadedUrl ?? request.url, title, markdown });
    },
    failedRequestHandler() {
      failed++;
    },
  },
  config,
);

const sampler = setInterval(() => {
  const c = crawler.autoscaledPool?.currentConcurrency ?? 0;
  if (c > maxSeenConcurrency) maxSeenConcurrency = c;
}, 100);

const cpu0 = process.cpuUsage();
const t0 = performance.now();
await crawler.run([startUrl]);
const elapsedMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
clearInterval(sampler);

const status = readFileSync('/proc/self/status', 'utf8');
const hwmKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
const total = process.cpuUsage();
process.stdout.write(
  `${JSON.stringify({
    pages: results.length,
    failed,
    emptyMarkdown: results.filter((r) => r.markdown.trim() === '').length,
    markdownChars: results.reduce((n, r) => n + r.markdown.length, 0),
    elapsedMs,
    crawlCpuMs: (cpu.user + cpu.system) / 1000,
    totalCpuMs: (total.user + total.system) / 1000,
    peakRssKb: hwmKb,
    maxSeenConcurrency,
    heapUsedAtEndKb: Math.round(process.memoryUsage().heapUsed / 1024),
  })}\n`,
);
