// Politeness per host: at most N requests at once, and a minimum gap between starts (robots Crawl-delay).
interface HostState {
  active: number;
  nextStartAt: number;
  waiters: Array<() => void>;
}

export class HostLimiter {
  private readonly hosts = new Map<string, HostState>();

  constructor(private readonly perHost: number) {}

  /** Waits for a slot on `host`; `delayMs` (Crawl-delay) also serializes the host's requests. */
  async acquire(host: string, delayMs = 0): Promise<() => void> {
    let state = this.hosts.get(host);
    if (!state) {
      state = { active: 0, nextStartAt: 0, waiters: [] };
      this.hosts.set(host, state);
    }
    const limit = delayMs > 0 ? 1 : this.perHost;
    while (state.active >= limit) {
      await new Promise<void>((resolve) => state?.waiters.push(resolve));
    }
    state.active++;
    const wait = state.nextStartAt - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    state.nextStartAt = Date.now() + delayMs;
    let released = false;
    return () => {
      if (released || !state) return;
      released = true;
      state.active--;
      const next = state.waiters.shift();
      if (next) next();
      else if (state.active === 0 && state.nextStartAt <= Date.now()) this.hosts.delete(host);
    };
  }
}
