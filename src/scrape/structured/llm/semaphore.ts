// Bounds the model requests in flight. Written here rather than taken from a package: the only one in
// node_modules (p-limit 3, a dependency of a dev tool) cannot drop a waiter whose caller gave up.
import { abortError } from './errors.js';

interface Waiter {
  grant(): void;
}

export class Semaphore {
  private running = 0;
  // Insertion-ordered: the first waiter is served first; an aborted one is deleted from anywhere in it.
  private readonly waiters = new Set<Waiter>();

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency must be a positive integer`);
  }

  /** Resolves with the slot's release function once a slot is free; rejects with an AbortError if `signal` ends. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (this.running < this.limit) {
      this.running += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiters.delete(waiter);
        reject(abortError(signal!));
      };
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.releaser());
        },
      };
      this.waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  load(): { waiting: number; running: number } {
    return { waiting: this.waiters.size, running: this.running };
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.values().next();
      if (next.done) {
        this.running -= 1;
      } else {
        // The slot passes straight to the next waiter, so `running` stays.
        this.waiters.delete(next.value);
        next.value.grant();
      }
    };
  }
}
