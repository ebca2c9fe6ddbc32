// A FIFO counting semaphore whose waiters leave the line when their signal aborts.

interface Waiter {
  resolve(release: () => void): void;
  reject(reason: unknown): void;
  signal: AbortSignal;
  onAbort(): void;
}

export class FifoLimiter {
  private active = 0;
  private readonly line: Waiter[] = [];

  constructor(private readonly max: number) {}

  get running(): number {
    return this.active;
  }

  get waiting(): number {
    return this.line.length;
  }

  /** Resolves with a release function (call it once) when a slot is free; rejects with `signal.reason` on abort. */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.active < this.max && this.line.length === 0) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const i = this.line.indexOf(waiter);
          if (i >= 0) this.line.splice(i, 1);
          reject(signal.reason);
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.line.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.next();
    };
  }

  private next(): void {
    while (this.active < this.max) {
      const waiter = this.line.shift();
      if (!waiter) return;
      waiter.signal.removeEventListener('abort', waiter.onAbort);
      this.active++;
      waiter.resolve(this.releaser());
    }
  }

  /** Fails every waiter (pool closing). */
  rejectAll(reason: unknown): void {
    for (const waiter of this.line.splice(0)) {
      waiter.signal.removeEventListener('abort', waiter.onAbort);
      waiter.reject(reason);
    }
  }
}
