// A background loop: one step after another, a sleep between them that a wake cuts short, failed steps backed off.
import type { BaseLogger } from 'pino';
import { LOOP_BACKOFF_CAP_MS, LoopFailures } from './loop-failures.js';

/**
 * What a step answers: how long to sleep before the next step (0: the next one runs at once).
 * `{ sleepMs, tried: false }` is a step that tried nothing that could fail (it only found no room
 * for more work): it neither ends nor lengthens a failure streak, so an outage is not reported
 * over while the store is still out of reach.
 */
export type StepResult = number | { sleepMs: number; tried: false };

export interface BackgroundLoopOptions {
  /** Names the loop in its log lines ("scheduler", "crawl worker", ...). */
  name: string;
  logger: Pick<BaseLogger, 'info' | 'warn' | 'error'>;
  /**
   * First wait after a failed step; doubles with each failure in a row, up to LOOP_BACKOFF_CAP_MS (or this, if longer).
   */
  backoffBaseMs: number;
}

interface Run {
  stopped: boolean;
  done: Promise<void>;
}

/**
 * Runs `step` over and over until stop(). Between steps it sleeps as long as the step answered;
 * wake() cuts the sleep short. A wake that comes while a step runs is remembered: the step may
 * have looked before the new work existed, so the sleep after it returns at once. A step that
 * throws is logged and backed off through LoopFailures (an outage once, a bug every time); the
 * loop itself never throws. stop() never waits out a sleep: it ends one at once, and otherwise
 * resolves as soon as the step in progress ends.
 */
export class BackgroundLoop {
  private run: Run | undefined;
  /** A wake came since the current step started. */
  private woken = false;
  private endSleep: (() => void) | undefined;
  private readonly failures: LoopFailures;

  constructor(o: BackgroundLoopOptions) {
    this.failures = new LoopFailures({
      name: o.name,
      logger: o.logger,
      baseMs: o.backoffBaseMs,
      capMs: Math.max(o.backoffBaseMs, LOOP_BACKOFF_CAP_MS),
    });
  }

  /** Not started, or stop() was called (true from the call on, while the last step may still end). */
  get stopped(): boolean {
    return this.run === undefined || this.run.stopped;
  }

  /**
   * Starts stepping; does nothing while running. Started again during a stop, it takes over once the last step ended.
   */
  start(step: () => Promise<StepResult>): void {
    if (!this.stopped) return;
    const previous = this.run?.done ?? Promise.resolve();
    const run: Run = { stopped: false, done: Promise.resolve() };
    run.done = previous.then(() => this.loop(run, step));
    this.run = run;
  }

  /** New work may exist: end the sleep now, or skip the next one if a step is running. */
  wake(): void {
    if (this.endSleep) this.endSleep();
    else this.woken = true;
  }

  /** Takes no further step; resolves once the step in progress (if any) has ended. */
  async stop(): Promise<void> {
    const run = this.run;
    if (!run) return;
    run.stopped = true;
    this.endSleep?.();
    await run.done;
  }

  private async loop(run: Run, step: () => Promise<StepResult>): Promise<void> {
    while (!run.stopped) {
      // This step looks at the state as it is now: what woke the loop before is seen by it.
      this.woken = false;
      let sleepMs: number;
      try {
        const result = await step();
        if (typeof result === 'number') {
          sleepMs = result;
          this.failures.succeeded();
        } else {
          sleepMs = result.sleepMs;
        }
      } catch (error) {
        sleepMs = this.failures.failed(error);
      }
      if (run.stopped) break;
      // Even a step that asks to run again at once lets timers and I/O in first.
      await (sleepMs > 0 ? this.sleep(sleepMs) : new Promise<void>((resolve) => setImmediate(resolve)));
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.endSleep = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.endSleep = done;
    });
  }
}
