// A sleep that ends early when woken: background loops poll slowly but react to new work at once.
export class Wakeup {
  private readonly waiters = new Set<() => void>();

  /** Resolves after `ms`, or as soon as wake() is called. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  wake(): void {
    for (const done of [...this.waiters]) done();
  }
}
