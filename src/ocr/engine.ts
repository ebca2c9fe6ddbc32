// The OCR engine: a small pool of Tesseract workers (tesseract.js, its WebAssembly core in worker threads) with a time
// limit per image. Workers start on first use and load their language data from disk, never from the network.
import { createWorker, OEM, type Worker as TesseractWorker } from 'tesseract.js';

export interface OcrEngineOptions {
  /** Workers at most (OCR_THREADS); each holds its own copy of the model (~100 MB). */
  threads: number;
  /** Tesseract language codes (OCR_LANGS), e.g. ['eng'] or ['eng', 'deu']. */
  langs: string[];
  /** Directory of `<lang>.traineddata.gz` files (OCR_LANG_PATH). */
  langPath: string;
  /** Time limit of one image's recognition (OCR_IMAGE_TIMEOUT_MS): the worker is terminated past it. */
  timeoutMs: number;
}

/** How long a worker may take to load its model. */
const WORKER_START_MS = 60_000;

export class OcrTimeoutError extends Error {
  constructor(ms: number) {
    super(`Recognizing the image took longer than ${ms} ms (OCR_IMAGE_TIMEOUT_MS)`);
    this.name = 'OcrTimeoutError';
  }
}

export class OcrEngine {
  private readonly idle: TesseractWorker[] = [];
  private readonly waiting: Array<(worker: TesseractWorker | undefined) => void> = [];
  private started = 0;
  private closed = false;

  constructor(private readonly o: OcrEngineOptions) {}

  /**
   * The text of an image (PNG, JPEG, WebP, BMP bytes), with the lines as Tesseract read them. `signal` ends the wait
   * for a free worker (a page out of time); a recognition under way runs to its end or its time limit.
   */
  async recognize(image: Buffer, signal?: AbortSignal): Promise<string> {
    const worker = await this.acquire(signal);
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    try {
      const recognized = await Promise.race([
        worker.recognize(image),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            timedOut = true;
            reject(new OcrTimeoutError(this.o.timeoutMs));
          }, this.o.timeoutMs);
        }),
      ]);
      return recognized.data.text;
    } finally {
      clearTimeout(timer);
      if (timedOut) {
        // Recognition cannot be interrupted: the worker goes, and a new one starts when needed.
        this.started--;
        void worker.terminate().catch(() => undefined);
        this.handOn(undefined);
      } else this.handOn(worker);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const workers = this.idle.splice(0);
    for (const wake of this.waiting.splice(0)) wake(undefined);
    await Promise.all(workers.map((w) => w.terminate().catch(() => undefined)));
  }

  private async acquire(signal?: AbortSignal): Promise<TesseractWorker> {
    if (this.closed) throw new Error('The OCR engine is closed');
    signal?.throwIfAborted();
    const ready = this.idle.pop();
    if (ready) return ready;
    if (this.started < this.o.threads) {
      this.started++;
      try {
        return await this.start();
      } catch (error) {
        this.started--;
        throw error;
      }
    }
    const handed = await new Promise<TesseractWorker | undefined>((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.waiting.indexOf(take);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('The wait for an OCR worker was aborted'));
      };
      const take = (worker: TesseractWorker | undefined): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve(worker);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(take);
    });
    // Undefined: a worker was terminated, so there is room to start one.
    return handed ?? this.acquire(signal);
  }

  private handOn(worker: TesseractWorker | undefined): void {
    const next = this.waiting.shift();
    if (next) next(worker);
    else if (worker) {
      if (this.closed) void worker.terminate().catch(() => undefined);
      else this.idle.push(worker);
    }
  }

  private async start(): Promise<TesseractWorker> {
    // tesseract.js never settles createWorker when a language fails to load (its error goes to errorHandler only):
    // the files are checked with the settings (missingLanguageFiles), and this bounds what is left.
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        this.create(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`An OCR worker did not start within ${WORKER_START_MS} ms`)),
            WORKER_START_MS,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  private create(): Promise<TesseractWorker> {
    return createWorker(this.o.langs, OEM.LSTM_ONLY, {
      langPath: this.o.langPath,
      gzip: true,
      // No cache directory and no download: the data is read from langPath each time a worker starts.
      cacheMethod: 'none',
      // Without a handler, a worker's error is thrown where nothing can catch it and ends the process.
      errorHandler: () => undefined,
    });
  }
}
