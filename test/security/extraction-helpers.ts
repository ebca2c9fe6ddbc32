// Pages that are costly to extract, a local site serving them, and a watch on how long /health takes to answer.
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How long (ms) the main thread of process `pid` has waited, runnable, for a CPU so far: field 2 of
 * Linux's /proc/PID/task/PID/schedstat; 0 where there is no such file. On a loaded machine (test
 * files side by side on 2 cores, other work beside them) a thread that has nothing blocking it
 * still waits for its turn, and that wait is no stall of its event loop. A thread blocked by
 * synchronous work does not wait for a CPU: it has one, so its stall still counts in full.
 */
export function runQueueWaitMs(pid: number | undefined = process.pid): number {
  if (pid === undefined) return 0;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(/\s+/);
    return Number(fields[1]) / 1e6 || 0;
  } catch {
    return 0;
  }
}

const HEAD = '<!DOCTYPE html><html lang="en"><head><title>Many small elements</title></head><body>';

/**
 * About `bytes` of HTML made of tiny sibling elements: each costs a few bytes of HTML and a few
 * hundred bytes of tree, so such a page needs far more memory than its size (real sites serve
 * them: long tables, generated listings).
 */
export function pathologicalPage(bytes: number): string {
  const unit = '<div><span>a</span><i>b</i></div>';
  return `${HEAD}${unit.repeat(Math.ceil((bytes - HEAD.length) / unit.length))}</body></html>`;
}

/** About `bytes` of an ordinary long article: paragraphs of words with a link each, a heading every 20. */
export function articlePage(bytes: number): string {
  const words =
    'the quick brown fox jumps over the lazy dog while a crawler reads every word of this paragraph and keeps going'.split(
      ' ',
    );
  const parts = [
    '<!DOCTYPE html><html lang="en"><head><title>A long article</title></head><body><article><h1>A long article</h1>',
  ];
  let size = parts[0]?.length ?? 0;
  for (let i = 0; size < bytes; i++) {
    const words80 = Array.from({ length: 80 }, (_, k) => words[(i + k) % words.length]).join(' ');
    const p = `<p>${words80} <a href="/p${i}">link ${i}</a>.</p>\n${i % 20 === 19 ? `<h2>Section ${i}</h2>\n` : ''}`;
    parts.push(p);
    size += p.length;
  }
  parts.push('</article></body></html>');
  return parts.join('');
}

export const ORDINARY_PAGE =
  '<!DOCTYPE html><html lang="en"><head><title>An ordinary page</title></head><body><main><article><h1>An ordinary page</h1>' +
  '<p>This page has enough words in it to be taken as the main content of the page by the extractor, which wants a few sentences of real text before it trusts a block.</p>' +
  '<p>A second paragraph keeps the article long enough.</p></article></main></body></html>';

export interface HeavySite {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the given pages plus `/ok`, `/ok2` (ordinary) and `/seed` (links to `/ok`, `/ok2` and the
 * largest given page), all as UTF-8 HTML.
 */
export async function startHeavySite(pages: Record<string, string>): Promise<HeavySite> {
  const largest = Object.entries(pages).sort((a, b) => b[1].length - a[1].length)[0]?.[0] ?? '/ok';
  const bodies = new Map<string, Buffer>(Object.entries(pages).map(([path, html]) => [path, Buffer.from(html)]));
  bodies.set('/ok', Buffer.from(ORDINARY_PAGE));
  bodies.set('/ok2', Buffer.from(ORDINARY_PAGE.replaceAll('An ordinary page', 'Another ordinary page')));
  bodies.set(
    '/seed',
    Buffer.from(
      ORDINARY_PAGE.replace(
        '</article>',
        `<ul><li><a href="/ok">one</a></li><li><a href="/ok2">two</a></li><li><a href="${largest}">big</a></li></ul></article>`,
      ),
    ),
  );
  const server = createServer((req, res) => {
    const body = bodies.get((req.url ?? '/').split('?')[0] ?? '/');
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface HealthWatch {
  /** Stops polling; the longest answer time, answers and failures seen. */
  stop(): Promise<{ maxMs: number; answered: number; failed: number }>;
}

/**
 * Asks `url` again 20 ms after each answer, timing each request, until stopped. A request's time
 * leaves out what the main threads of this process and of `servicePid` spent waiting for a CPU.
 */
export function watchHealth(url: string, servicePid?: number): HealthWatch {
  let stopped = false;
  let maxMs = 0;
  let answered = 0;
  let failed = 0;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      const waited = runQueueWaitMs() + runQueueWaitMs(servicePid);
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
        await res.arrayBuffer();
        if (res.ok) answered++;
        else failed++;
      } catch {
        failed++;
        if (stopped) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const notRunnable = runQueueWaitMs() + runQueueWaitMs(servicePid) - waited;
      maxMs = Math.max(maxMs, Math.round(performance.now() - started - notRunnable));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { maxMs, answered, failed };
    },
  };
}

/**
 * The longest gap between ticks of a 20 ms interval on this thread, until stopped, less the time
 * the thread waited for a CPU within that gap (runQueueWaitMs).
 */
export function watchEventLoop(): { stop(): number } {
  let last = performance.now();
  let lastWait = runQueueWaitMs();
  let maxGap = 0;
  const gapSinceLast = (): number => {
    const now = performance.now();
    const wait = runQueueWaitMs();
    const gap = now - last - (wait - lastWait);
    last = now;
    lastWait = wait;
    return gap;
  };
  const timer = setInterval(() => {
    maxGap = Math.max(maxGap, gapSinceLast());
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      return Math.round(Math.max(maxGap, gapSinceLast()));
    },
  };
}
