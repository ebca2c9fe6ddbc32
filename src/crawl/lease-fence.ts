// A worker's local fence on the crawl pages it leases: it stops a page's work before its lease could run out elsewhere.
import { performance } from 'node:perf_hooks';

/** Why a page's work was stopped. */
export type FenceReason = 'deadline' | 'lost';

interface Held {
  controller: AbortController;
  /** performance.now() by which the page's work must have stopped. */
  deadline: number;
  /** When the lease time of its claim was computed: a renewal sent before this cannot vouch for it. */
  since: number;
  timer: NodeJS.Timeout | undefined;
  fenced: FenceReason | undefined;
}

export interface LeaseFenceOptions {
  leaseMs: number;
  /** The page's work stops this long before its lease would run out (abort latency, clock skew). */
  marginMs: number;
  onFenced?: (pageId: number, reason: FenceReason) => void;
}

/**
 * Each page a worker holds gets an AbortSignal and a local deadline: the time its last confirmed
 * lease (computed when the claim or renewal was sent) runs out, minus a margin. A renewal that
 * confirms the page moves the deadline on; one that does not find it (another worker took it)
 * fences it at once; when renewals fail or hang, the deadline passes and the page is fenced.
 * Fencing aborts the page's fetch or render, and the worker must then write nothing for it. So
 * a page never runs in two places: another worker can only take it once its lease is over, and by
 * then this one has stopped.
 *
 * Time is performance.now() (real, monotonic). A synchronous store (better-sqlite3 waiting for a
 * lock, up to its busy timeout) blocks the event loop, and no timer fires meanwhile; so before
 * each renewal the fence also stops the pages whose deadline falls within the time the event loop
 * may be blocked next, estimated by the last renewal's duration and how late this heartbeat came.
 * A first block is covered while it is shorter than the lease minus two heartbeats (default: 6 s
 * against SQLite's 5 s busy timeout).
 */
export class LeaseFence {
  private readonly held = new Map<number, Held>();
  private lastRenewalMs = 0;

  constructor(private readonly o: LeaseFenceOptions) {}

  /** A page just claimed; `since` is the performance.now() taken when the claim's lease time was computed. */
  hold(pageId: number, since: number): AbortSignal {
    const entry: Held = {
      controller: new AbortController(),
      deadline: since + this.o.leaseMs - this.o.marginMs,
      since,
      timer: undefined,
      fenced: undefined,
    };
    this.held.set(pageId, entry);
    this.arm(pageId, entry);
    return entry.controller.signal;
  }

  /** The page's work ended (recorded, given back, or fenced): forget it. */
  drop(pageId: number): void {
    const entry = this.held.get(pageId);
    if (entry?.timer) clearTimeout(entry.timer);
    this.held.delete(pageId);
  }

  /** Set once the page was fenced: its outcome must not be written. */
  fenced(pageId: number): FenceReason | undefined {
    return this.held.get(pageId)?.fenced;
  }

  /** Pages to renew: held and not fenced (a fenced page's lease is left to run out). */
  ids(): number[] {
    return [...this.held].filter(([, e]) => e.fenced === undefined).map(([id]) => id);
  }

  /** Call right before sending a renewal, with how late its heartbeat fired; returns its send time. */
  beforeRenewal(lateMs = 0): number {
    const now = performance.now();
    this.fenceDueWithin(now, Math.max(this.lastRenewalMs, lateMs));
    return now;
  }

  /** A renewal sent at `sentAt` found `confirmed` still held by this worker. */
  renewed(sentAt: number, confirmed: ReadonlySet<number>): void {
    this.lastRenewalMs = performance.now() - sentAt;
    for (const [pageId, entry] of this.held) {
      if (entry.fenced) continue;
      if (confirmed.has(pageId)) {
        entry.deadline = Math.max(entry.deadline, sentAt + this.o.leaseMs - this.o.marginMs);
        this.arm(pageId, entry);
      } else if (entry.since < sentAt) {
        // Held before the renewal was sent, yet not ours any more: taken by another worker.
        this.fence(pageId, entry, 'lost');
      }
    }
    this.fenceDueWithin(performance.now(), this.lastRenewalMs);
  }

  /**
   * A renewal sent at `sentAt` failed: the deadlines stand, and those the next attempt could overrun are fenced now.
   */
  renewalFailed(sentAt: number): void {
    const now = performance.now();
    this.lastRenewalMs = now - sentAt;
    this.fenceDueWithin(now, this.lastRenewalMs);
  }

  private fenceDueWithin(now: number, ms: number): void {
    for (const [pageId, entry] of this.held) {
      if (!entry.fenced && entry.deadline <= now + ms) this.fence(pageId, entry, 'deadline');
    }
  }

  private arm(pageId: number, entry: Held): void {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(
      () => this.fence(pageId, entry, 'deadline'),
      Math.max(0, entry.deadline - performance.now()),
    );
    entry.timer.unref();
  }

  private fence(pageId: number, entry: Held, reason: FenceReason): void {
    if (entry.fenced) return;
    entry.fenced = reason;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.controller.abort(
      new Error(
        reason === 'lost'
          ? 'crawl page lease taken by another worker'
          : 'crawl page lease could not be renewed in time',
      ),
    );
    this.o.onFenced?.(pageId, reason);
  }
}
