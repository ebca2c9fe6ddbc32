// Where extraction runs: in-process, or on a pool of worker threads so both cores parse while the main thread does I/O.
import os from 'node:os';
import { Piscina } from 'piscina';
import { type ExtractInput, type ExtractResult, extractPage } from './extract/index.js';

export interface Extractor {
  extract(input: ExtractInput): Promise<ExtractResult>;
  close(): Promise<void>;
}

export const inProcessExtractor: Extractor = {
  extract: async (input) => extractPage(input),
  close: async () => undefined,
};

/** `threads` 0 means in-process; otherwise a pool of that many worker threads. */
export function createExtractor(threads: number, heapMb = 128): Extractor {
  if (threads <= 0) return inProcessExtractor;
  // Under tsx (dev, tests) this module is the .ts source, and so must the worker be.
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  const filename = new URL(`./extract-worker.${extension}`, import.meta.url).href;
  const pool = new Piscina<ExtractInput, ExtractResult>({
    filename,
    minThreads: threads,
    maxThreads: threads,
    // A queue bound keeps memory flat when pages arrive faster than they can be extracted.
    maxQueue: threads * 64,
    idleTimeout: 60_000,
    // DOM building allocates hundreds of MB per minute of short-lived objects; without a cap
    // each worker's heap grows towards V8's default limit before collecting (measured: peak
    // RSS 1.5 GB in a 50,000-page crawl). A cap makes V8 collect early; one page needs far less.
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 16 },
  });
  return {
    async extract(input) {
      // A very large page needs a heap far beyond the threads' cap: it is done here at once
      // instead of exhausting a thread first. Such pages are rare (the body cap is 10 MB).
      if (input.html.length > LARGE_PAGE_CHARS) return extractPage(input);
      try {
        return await pool.run(input);
      } catch {
        // extractPage never throws, so this is the thread itself (out of memory, crashed):
        // the page is done here; the pool replaces the thread.
        return extractPage(input);
      }
    },
    close: () => pool.destroy(),
  };
}

/** Pages larger than this (in characters) are extracted on the main thread. */
export const LARGE_PAGE_CHARS = 1_500_000;

/**
 * One thread per core but the main thread's (which fetches and writes the store), at least one,
 * at most four. Extraction costs ~2 ms a page, so one thread keeps up with a 2-core machine's
 * crawl, and each thread more is another V8 heap (docs/performance.md, memory run).
 */
export function defaultExtractThreads(cores = os.availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}
