// How a background loop lives through failing steps: log an outage once, back off with a cap, say when it is over.
import type { BaseLogger } from 'pino';
import { classifyStoreError } from '../store/store-errors.js';

/** The cap of every background loop's back-off: once the store is back, work resumes within it. */
export const LOOP_BACKOFF_CAP_MS = 5000;

/** An outage that starts within this of the last one's end is not logged again (a flapping store). */
const FLAP_QUIET_MS = 60_000;

export interface LoopFailuresOptions {
  /** Names the loop in its log lines ("crawl loop", "scheduler tick", ...). */
  name: string;
  logger: Pick<BaseLogger, 'info' | 'warn' | 'error'>;
  /** First wait after a failure; doubles with each further failure in a row, up to capMs. */
  baseMs: number;
  capMs: number;
  now?: () => number;
}

/**
 * A loop calls `failed(error)` when a step throws and waits the answer in ms; `succeeded()`
 * after a step that worked. A database outage makes every step of every loop fail at each tick:
 * it is logged when it starts and when it ends, not at every tick. Other errors (bugs) are
 * logged every time, with their stack, since each may be different.
 */
export class LoopFailures {
  private streak = 0;
  private outageSince: number | undefined;
  private outageLogged = false;
  private lastOutageEnd = Number.NEGATIVE_INFINITY;
  private readonly now: () => number;

  constructor(private readonly o: LoopFailuresOptions) {
    this.now = o.now ?? Date.now;
  }

  /** Records a failed step; answers how long to wait before the next one. */
  failed(error: unknown): number {
    this.streak += 1;
    const kind = classifyStoreError(error);
    if (kind === undefined) {
      this.o.logger.error({ err: error, failuresInARow: this.streak }, `${this.o.name} failed; retrying`);
    } else if (this.outageSince === undefined) {
      this.outageSince = this.now();
      // A store that flaps (a nearly full disk takes small writes and refuses big ones) would
      // log a pair of lines per flap: an outage soon after the last one is not logged again.
      this.outageLogged = this.outageSince - this.lastOutageEnd >= FLAP_QUIET_MS;
      if (this.outageLogged) {
        const message = error instanceof Error ? error.message : String(error);
        this.o.logger.warn(
          { err: { message }, store: kind },
          `${this.o.name}: the database is ${kind === 'full' ? 'full' : 'unreachable'}; backing off until it is back`,
        );
      }
    }
    return Math.min(this.o.capMs, this.o.baseMs * 2 ** Math.min(this.streak - 1, 30));
  }

  succeeded(): void {
    if (this.outageSince !== undefined) {
      if (this.outageLogged)
        this.o.logger.info(
          { failedSteps: this.streak, outageMs: this.now() - this.outageSince },
          `${this.o.name}: the database is back; resuming`,
        );
      this.lastOutageEnd = this.now();
    }
    this.streak = 0;
    this.outageSince = undefined;
  }
}
