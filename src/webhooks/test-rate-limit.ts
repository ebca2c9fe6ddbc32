// The rate limit of POST /v1/webhooks/:id/test: per subscription and per API key, over a sliding minute, in this
// process.
import { RateLimitedError } from '../domain/errors.js';

export interface TestRateLimitOptions {
  perSubscription: number;
  perOwner: number;
  /** 60 s; a parameter for tests only. */
  windowMs?: number;
}

export type TestVerdict = { ok: true } | { ok: false; retryAfterMs: number; limit: 'subscription' | 'key' };

// Test deliveries go to a URL of the caller's choosing, are signed by us and take delivery slots:
// without a limit one key could aim a stream of them at a third party or fill the senders.
export class TestRateLimit {
  private readonly windowMs: number;
  /** Times (ms) of the tests counted within the window, oldest first, per "s:<id>" and "o:<owner>". */
  private readonly log = new Map<string, number[]>();
  private sinceSweep = 0;

  constructor(private readonly o: TestRateLimitOptions) {
    this.windowMs = o.windowMs ?? 60_000;
  }

  /** Counts one test at `now` if both limits allow it; otherwise says how long until one would. */
  take(ownerId: string, subscriptionId: string, now: number): TestVerdict {
    this.sweepSometimes(now);
    const bySub = this.recent(`s:${subscriptionId}`, now);
    const byOwner = this.recent(`o:${ownerId}`, now);
    // The wait is until the oldest counted test leaves the window, for each limit reached.
    const waits: Array<{ retryAfterMs: number; limit: 'subscription' | 'key' }> = [];
    if (bySub.length >= this.o.perSubscription)
      waits.push({ retryAfterMs: this.waitFor(bySub, this.o.perSubscription, now), limit: 'subscription' });
    if (byOwner.length >= this.o.perOwner)
      waits.push({ retryAfterMs: this.waitFor(byOwner, this.o.perOwner, now), limit: 'key' });
    if (waits.length > 0) return { ok: false, ...waits.reduce((a, b) => (b.retryAfterMs > a.retryAfterMs ? b : a)) };
    bySub.push(now);
    byOwner.push(now);
    return { ok: true };
  }

  /** The same as take(), throwing a RateLimitedError (429 with Retry-After) when refused. */
  check(ownerId: string, subscriptionId: string, now: number): void {
    const verdict = this.take(ownerId, subscriptionId, now);
    if (verdict.ok) return;
    const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
    const rule =
      verdict.limit === 'subscription'
        ? `at most ${this.o.perSubscription} test deliveries per subscription per minute (WEBHOOK_TEST_PER_MINUTE)`
        : `at most ${this.o.perOwner} test deliveries per API key per minute (WEBHOOK_TEST_PER_MINUTE_PER_KEY)`;
    throw new RateLimitedError(seconds, `Too many test deliveries: ${rule}; try again in ${seconds} s`);
  }

  /** The entries of `key` still in the window (the stored array, pruned in place). */
  private recent(key: string, now: number): number[] {
    let times = this.log.get(key);
    if (!times) {
      times = [];
      this.log.set(key, times);
    }
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < times.length && (times[drop] as number) <= cutoff) drop++;
    if (drop > 0) times.splice(0, drop);
    return times;
  }

  /** Time until `times` holds fewer than `limit` entries in the window. */
  private waitFor(times: number[], limit: number, now: number): number {
    const oldestThatMustGo = times[times.length - limit] as number;
    return Math.max(0, oldestThatMustGo + this.windowMs - now);
  }

  /** Forgets subscriptions and keys not seen for a window, so the map stays as small as the active set. */
  private sweepSometimes(now: number): void {
    if (++this.sinceSweep < 1000) return;
    this.sinceSweep = 0;
    for (const [key, times] of this.log) if ((times.at(-1) ?? 0) <= now - this.windowMs) this.log.delete(key);
  }
}
