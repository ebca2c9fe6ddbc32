// Where extraction runs: worker threads with a heap cap and a time budget, so no page can block or kill the main
// thread.
import os from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { type ExtractInput, type ExtractResult, extractPage } from './extract/index.js';
import type { ExtractTask } from './extract-worker.js';
import { FetchError } from '../fetch/index.js';

export type ExtractErrorCode = 'EXTRACTION_TOO_LARGE' | 'EXTRACTION_TIMEOUT' | 'EXTRACTION_BUSY' | 'EXTRACTION_FAILED';

/** A page that could not be extracted within the limits; the page fails, nothing else does. */
export class ExtractError extends Error {
  constructor(
    readonly code: ExtractErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ExtractError';
  }
}

export interface Extractor {
  /** `signal` (the client hung up) stops the extraction, queued or running; it then throws FetchError ABORTED. */
  extract(input: ExtractInput, signal?: AbortSignal): Promise<ExtractResult>;
  /** Pages waiting for a thread, per lane (a full lane refuses with EXTRACTION_BUSY). */
  waiting(): { ordinary: number; large: number };
  close(): Promise<void>;
}

/**
 * Extraction on the calling thread, without any limit: one page can block the event loop for
 * minutes or exhaust the heap. For tests that build a pipeline by hand, and EXTRACT_THREADS=0.
 */
export const inProcessExtractor: Extractor = {
  extract: async (input) => extractPage(input),
  waiting: () => ({ ordinary: 0, large: 0 }),
  close: async () => undefined,
};

export interface ExtractorLimits {
  /** Threads of the ordinary lane; 0 means in-process (unguarded, tests only). */
  threads: number;
  /** Old-generation heap cap of each ordinary thread (MB). */
  heapMb: number;
  /** Pages longer than this (characters) go to the large lane. */
  largePageChars: number;
  /** Old-generation heap cap of the large lane's one thread (MB). */
  largeHeapMb: number;
  /** Time budget of one page's extraction, from the moment a thread takes it (ms). */
  timeoutMs: number;
}

export const DEFAULT_EXTRACTOR_LIMITS: Omit<ExtractorLimits, 'threads'> = {
  heapMb: 128,
  largePageChars: 1_500_000,
  largeHeapMb: 256,
  timeoutMs: 30_000,
};

/** Pages waiting for a large-lane thread at most; more are refused (EXTRACTION_BUSY). */
const LARGE_LANE_WAITING = 16;
/** Pages waiting per ordinary thread at most. */
const WAITING_PER_THREAD = 64;
/** How long a thread may take to begin a page it was given (loading its modules) before the page fails. */
const THREAD_START_MS = 30_000;

const WORKER_FILE = (() => {
  // Under tsx (dev, tests) this module is the .ts source, and so must the worker be.
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return new URL(`./extract-worker.${extension}`, import.meta.url).href;
})();

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/**
 * Piscina emits 'error' on the pool for a thread that fails outside any task (one that runs out of memory while it is
 * torn down after an aborted page); with no listener that event ends the process. The pool replaces the thread, and
 * the page it ran has already been answered: nothing is left to do but note it.
 */
export function ignoreStrayThreadErrors(
  pool: { on(event: 'error', listener: (error: unknown) => void): unknown },
  noted: (error: unknown) => void = () => undefined,
): void {
  pool.on('error', noted);
}

interface LaneOptions {
  name: string;
  threads: number;
  /** Threads kept alive when idle; the others exit after idleTimeoutMs. */
  minThreads: number;
  idleTimeoutMs: number;
  heapMb: number;
  /** The setting that sets heapMb, for the message. */
  heapSetting: string;
  maxWaiting: number;
  /** The page's whole time budget, for the message. */
  timeoutMs: number;
}

/**
 * One pool of threads with its own heap cap. Admission is ours, not piscina's queue: a page's time
 * budget starts when a thread takes it (time spent waiting behind a slow page is not its fault),
 * and the waiting list is bounded, so a flood of pages is refused instead of piling up.
 */
class Lane {
  private readonly pool: Piscina<ExtractTask, ExtractResult>;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly o: LaneOptions) {
    this.pool = new Piscina<ExtractTask, ExtractResult>({
      filename: WORKER_FILE,
      minThreads: o.minThreads,
      maxThreads: o.threads,
      idleTimeout: o.idleTimeoutMs,
      // DOM building allocates hundreds of MB per minute of short-lived objects; without a cap
      // each worker's heap grows towards V8's default limit before collecting (measured: peak
      // RSS 1.5 GB in a 50,000-page crawl). The cap is also what stops a page whose tree needs
      // more: the thread dies with ERR_WORKER_OUT_OF_MEMORY, the process lives on.
      resourceLimits: { maxOldGenerationSizeMb: o.heapMb, maxYoungGenerationSizeMb: 16 },
    });
    ignoreStrayThreadErrors(this.pool);
  }

  /** `budgetMs`: what is left of the page's time budget, counted from the moment its thread begins it. */
  async run(input: ExtractInput, budgetMs: number, signal?: AbortSignal): Promise<ExtractResult> {
    await this.admit(input.url, signal);
    // A thread that replaces a terminated one loads its modules before it can begin (hundreds of
    // ms on a loaded machine, measured in CI): that is not the page's time. The thread says when
    // it begins, and only then does the budget run.
    const budget = new AbortController();
    const began = new MessageChannel();
    const startCap = setTimeout(() => budget.abort(), THREAD_START_MS);
    let budgetTimer: NodeJS.Timeout | undefined;
    began.port1.once('message', () => {
      clearTimeout(startCap);
      budgetTimer = setTimeout(() => budget.abort(), Math.max(1, budgetMs));
    });
    try {
      // An abort terminates the thread running the page (piscina replaces it): CPU-bound work
      // cannot be interrupted any other way.
      return await this.pool.run(
        { input, began: began.port2 },
        {
          transferList: [began.port2],
          signal: signal ? AbortSignal.any([signal, budget.signal]) : budget.signal,
        },
      );
    } catch (error) {
      if (signal?.aborted) throw new FetchError('ABORTED', `Extraction of ${input.url} was cancelled`, input.url);
      if (budget.signal.aborted) {
        throw new ExtractError(
          'EXTRACTION_TIMEOUT',
          `Extracting the page took longer than its time budget (${this.o.timeoutMs} ms, EXTRACT_TIMEOUT_MS)`,
        );
      }
      if (errorCode(error) === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new ExtractError(
          'EXTRACTION_TOO_LARGE',
          `Extracting the page needed more memory than the ${this.o.name} extraction thread may use (${this.o.heapMb} MB, ${this.o.heapSetting}); its document has too many elements`,
        );
      }
      throw new ExtractError(
        'EXTRACTION_FAILED',
        `The extraction thread failed on the page: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      clearTimeout(startCap);
      clearTimeout(budgetTimer);
      began.port1.close();
      this.release();
    }
  }

  private admit(url: string, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new FetchError('ABORTED', `Extraction of ${url} was cancelled`, url));
    if (this.running < this.o.threads) {
      this.running++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.o.maxWaiting) {
      return Promise.reject(
        new ExtractError(
          'EXTRACTION_BUSY',
          `Too many pages are waiting for extraction (${this.o.maxWaiting} in the ${this.o.name} lane); try again later`,
        ),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.waiting.indexOf(start);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(new FetchError('ABORTED', `Extraction of ${url} was cancelled`, url));
      };
      const start = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(start);
    });
  }

  get waitingCount(): number {
    return this.waiting.length;
  }

  private release(): void {
    // The slot passes straight to the next waiting page, so `running` stays the same.
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}

/**
 * Ordinary pages go to `threads` threads with a small heap cap; pages over `largePageChars`, and
 * pages whose tree outgrew the small cap, go to one large-lane thread with a larger cap (it exits
 * when idle, returning its heap). Every page has `timeoutMs` in all, whatever lane it runs in.
 */
export function createExtractor(limits: ExtractorLimits): Extractor {
  if (limits.threads <= 0) return inProcessExtractor;
  const { threads, timeoutMs } = limits;
  const ordinary = new Lane({
    name: 'ordinary',
    threads,
    minThreads: threads,
    idleTimeoutMs: 60_000,
    heapMb: limits.heapMb,
    heapSetting: 'EXTRACT_WORKER_HEAP_MB',
    maxWaiting: threads * WAITING_PER_THREAD,
    timeoutMs,
  });
  const large = new Lane({
    name: 'large-page',
    threads: 1,
    minThreads: 0,
    idleTimeoutMs: 30_000,
    heapMb: limits.largeHeapMb,
    heapSetting: 'EXTRACT_LARGE_HEAP_MB',
    maxWaiting: LARGE_LANE_WAITING,
    timeoutMs,
  });
  return {
    async extract(input, signal) {
      if (input.html.length > limits.largePageChars) return large.run(input, limits.timeoutMs, signal);
      const started = performance.now();
      try {
        return await ordinary.run(input, limits.timeoutMs, signal);
      } catch (error) {
        if (
          !(error instanceof ExtractError) ||
          error.code !== 'EXTRACTION_TOO_LARGE' ||
          limits.largeHeapMb <= limits.heapMb
        )
          throw error;
        // A page small in bytes but large in elements: once more with the larger heap, in what
        // is left of its budget.
        return large.run(input, limits.timeoutMs - Math.round(performance.now() - started), signal);
      }
    },
    waiting: () => ({ ordinary: ordinary.waitingCount, large: large.waitingCount }),
    async close() {
      await Promise.all([ordinary.close(), large.close()]);
    },
  };
}

/**
 * One thread per core but the main thread's (which fetches and writes the store), at least one,
 * at most four. Extraction costs ~2 ms a page, so one thread keeps up with a 2-core machine's
 * crawl, and each thread more is another V8 heap (docs/performance.md, memory run).
 */
export function defaultExtractThreads(cores = os.availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}
