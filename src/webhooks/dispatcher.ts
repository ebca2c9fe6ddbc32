// The webhook engine's background loops: fan-out of outbox events into deliveries, and sending them; never throws.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../util/time.js';
import { classifyStoreError } from '../store/store-errors.js';
import { BackgroundLoop, type StepResult } from '../util/background-loop.js';
import { LOOP_BACKOFF_CAP_MS, LoopFailures } from '../util/loop-failures.js';
import type { OutboxSignal } from '../events/outbox.js';
import { nextRetryDelayMs } from './backoff.js';
import type { AttemptRecord, ClaimedDelivery, DeliveryStore } from './delivery-store.js';
import { type AttemptOutcome, sendWebhook } from './sender.js';
import { serviceSignature, standardWebhooksSignature } from './signing.js';
import { DeliverySlots } from './slots.js';

export interface DispatcherOptions {
  deliveries: DeliveryStore;
  clock: Clock;
  logger: FastifyBaseLogger;
  allowPrivateAddresses: boolean;
  userAgent: string;
  /** Deliveries in flight in this process. */
  concurrency: number;
  /** Deliveries in flight per subscription: a slow receiver cannot hold the others back. */
  perSubscription: number;
  /** Deliveries in flight per API key: one tenant cannot take every slot. */
  perOwner: number;
  /** Deliveries in flight per receiver (URL origin), whoever's they are. */
  perReceiver: number;
  leaseMs: number;
  /** Length of one retry "minute". */
  retryUnitMs: number;
  /** Idle poll interval of both loops. */
  pollMs: number;
  /** The app's outbox signal: events recorded in this app wake the fan-out at once. */
  outbox: OutboxSignal;
}

/** The headers of one delivery request (docs/webhooks.md, "Delivery requests"). */
export function deliveryHeaders(claimed: ClaimedDelivery, now: Date, userAgent: string): Record<string, string> {
  const { delivery, subscription } = claimed;
  const seconds = Math.floor(now.getTime() / 1000);
  return {
    // Custom headers first: validation already refuses names that would replace ours.
    ...(subscription.customHeaders ?? {}),
    'content-type': 'application/json',
    'user-agent': userAgent,
    'x-service-signature': serviceSignature(subscription.secret, delivery.payload),
    'x-webhook-event': delivery.event_type,
    'x-webhook-delivery-id': delivery.id,
    'x-webhook-timestamp': now.toISOString(),
    'webhook-id': delivery.id,
    'webhook-timestamp': String(seconds),
    'webhook-signature': standardWebhooksSignature(subscription.secret, delivery.id, seconds, delivery.payload),
  };
}

export class WebhookDispatcher {
  readonly workerId = randomUUID();
  private stopped = true;
  /** Turns outbox events into deliveries. */
  private readonly fanOut: BackgroundLoop;
  /** Claims due deliveries and sends them. */
  private readonly sender: BackgroundLoop;
  private readonly unrecorded: Array<{ record: AttemptRecord; done: () => void }> = [];
  private flushing: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly slots: DeliverySlots;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Deliveries this process is sending or recording: the only leases its heartbeat renews. */
  private readonly leased = new Set<string>();
  /** Set by stop() once its wait is over: outcomes still unwritten are left to the leases. */
  private abandoned = false;
  private readonly recordFailures: LoopFailures;

  constructor(private readonly o: DispatcherOptions) {
    this.slots = new DeliverySlots({
      total: o.concurrency,
      perSubscription: o.perSubscription,
      perOwner: o.perOwner,
      perReceiver: o.perReceiver,
    });
    this.fanOut = new BackgroundLoop({ name: 'webhook fan-out', logger: o.logger, backoffBaseMs: o.pollMs });
    this.sender = new BackgroundLoop({ name: 'webhook claims', logger: o.logger, backoffBaseMs: o.pollMs });
    this.recordFailures = new LoopFailures({
      name: 'webhook attempt records',
      logger: o.logger,
      baseMs: o.pollMs,
      capMs: Math.max(o.pollMs, LOOP_BACKOFF_CAP_MS),
    });
  }

  private stopListening: (() => void) | undefined;

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.abandoned = false;
    this.stopListening = this.o.outbox.listen(() => this.fanOut.wake());
    this.heartbeat = setInterval(() => void this.renew(), Math.max(250, Math.floor(this.o.leaseMs / 3)));
    this.heartbeat.unref();
    this.fanOut.start(() => this.fanOutStep());
    this.sender.start(() => this.sendStep());
  }

  /** Something changed (new events, a test or replay): look now. */
  notify(): void {
    this.wakeSender();
    this.fanOut.wake();
  }

  private wakeSender(): void {
    this.sender.wake();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.stopListening?.();
    await Promise.all([this.fanOut.stop(), this.sender.stop()]);
    // Sends in flight finish and are recorded. While the store is out of reach their records
    // cannot be written: stop waits for that at most a lease, then leaves them to their leases
    // (another sender takes them over as interrupted attempts).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((resolve) => (timer = setTimeout(resolve, this.o.leaseMs))),
    ]);
    clearTimeout(timer);
    this.abandoned = true;
    for (const unwritten of this.unrecorded.splice(0)) unwritten.done();
    await Promise.allSettled([...this.inFlight]);
    await this.flushing;
    if (this.heartbeat) clearInterval(this.heartbeat);
  }

  /**
   * Queues an attempt's record; records are written in batches, one transaction per batch
   * (group commit). Resolves once this record is written.
   */
  private record(record: AttemptRecord): Promise<void> {
    if (this.abandoned) return Promise.resolve();
    return new Promise((resolve) => {
      this.unrecorded.push({ record, done: resolve });
      this.flush();
    });
  }

  private flush(): void {
    if (this.flushing) return;
    this.flushing = (async () => {
      // A short pause gathers the attempts finishing meanwhile into the same commit.
      await new Promise((resolve) => setTimeout(resolve, 5));
      while (this.unrecorded.length > 0 && !this.abandoned) {
        const batch = this.unrecorded.splice(0, 200);
        try {
          await this.o.deliveries.recordAttempts(batch.map((b) => b.record));
          this.recordFailures.succeeded();
        } catch (error) {
          if (classifyStoreError(error) !== undefined) {
            // The store is out of reach: the outcomes wait (their leases renewed) and are
            // written once it is back. Dropping them would leave the deliveries leased for good.
            this.unrecorded.unshift(...batch);
            await new Promise((resolve) => setTimeout(resolve, this.recordFailures.failed(error)));
            continue;
          }
          // One bad record must not lose the others: write them one by one.
          this.o.logger.error({ err: error }, 'batched webhook attempt records failed; writing one by one');
          for (const b of batch) {
            await this.o.deliveries
              .recordAttempt(b.record)
              .catch((e: unknown) =>
                this.o.logger.error({ err: e, deliveryId: b.record.deliveryId }, 'webhook attempt record failed'),
              );
          }
        }
        for (const b of batch) b.done();
      }
    })().finally(() => {
      this.flushing = undefined;
      if (this.unrecorded.length > 0 && !this.abandoned) this.flush();
    });
  }

  private async renew(): Promise<void> {
    try {
      await this.o.deliveries.renewLeases(
        this.workerId,
        [...this.leased],
        new Date(this.o.clock().getTime() + this.o.leaseMs).toISOString(),
      );
    } catch {
      // The loops report an outage; a lease that runs out meanwhile is taken over as interrupted.
    }
  }

  /** Fans out a batch of events; runs again at once while there were some. */
  private async fanOutStep(): Promise<number> {
    const { events, deliveries } = await this.o.deliveries.fanOut(this.o.clock().toISOString());
    if (deliveries > 0) this.wakeSender();
    return events > 0 ? 0 : this.o.pollMs;
  }

  /** Claims as many due deliveries as there are free slots and starts sending them. */
  private async sendStep(): Promise<StepResult> {
    const free = this.o.concurrency - this.inFlight.size;
    // With a backlog, claim in batches (an eighth of the slots at least) rather than one
    // claim per finished delivery: each claim is a transaction and an index scan. Deliveries
    // that end wake the loop.
    if (free < Math.ceil(this.o.concurrency / 8) && this.inFlight.size > 0)
      return { sleepMs: this.o.pollMs, tried: false };
    const claimed =
      free > 0
        ? await this.o.deliveries.claim({
            owner: this.workerId,
            now: this.o.clock().toISOString(),
            leaseMs: this.o.leaseMs,
            max: free,
            full: this.slots.full(),
            choose: (due, max) => this.slots.choose(due, max),
          })
        : [];
    for (const c of claimed) {
      const key = {
        subscription_id: c.delivery.subscription_id,
        owner_id: c.delivery.owner_id,
        receiver: c.delivery.receiver,
      };
      this.slots.take(key);
      this.leased.add(c.delivery.id);
      const task = this.deliver(c)
        .catch((error: unknown) =>
          this.o.logger.error({ err: error, deliveryId: c.delivery.id }, 'webhook delivery failed unexpectedly'),
        )
        .finally(() => {
          // Its lease is no longer renewed: if its outcome was not recorded, it is taken over once the lease runs out.
          this.leased.delete(c.delivery.id);
          this.slots.release(key);
          this.inFlight.delete(task);
          this.wakeSender();
        });
      this.inFlight.add(task);
    }
    return claimed.length === 0 || this.inFlight.size >= this.o.concurrency ? this.o.pollMs : 0;
  }

  private async deliver(claimed: ClaimedDelivery): Promise<void> {
    const { delivery, subscription } = claimed;
    const started = this.o.clock();
    // The claim counted this attempt when it started it.
    const attemptNumber = delivery.attempt_number;
    const outcome: AttemptOutcome = await sendWebhook({
      url: delivery.request_url,
      body: delivery.payload,
      headers: deliveryHeaders(claimed, started, this.o.userAgent),
      timeoutMs: subscription.timeoutSeconds * 1000,
      allowPrivateAddresses: this.o.allowPrivateAddresses,
    });
    const finished = this.o.clock();
    const base = {
      deliveryId: delivery.id,
      leaseOwner: this.workerId,
      attemptNumber,
      startedAt: started.toISOString(),
      finishedAt: finished.toISOString(),
      durationMs: outcome.durationMs,
      statusCode: 'statusCode' in outcome ? outcome.statusCode : undefined,
      responseBody: 'responseBody' in outcome ? outcome.responseBody : undefined,
    };
    if (outcome.kind === 'delivered') {
      await this.record({ ...base, result: 'delivered' });
      return;
    }
    if (outcome.kind === 'rejected') {
      const redirect = outcome.statusCode >= 300 && outcome.statusCode < 400;
      await this.record({
        ...base,
        result: 'failed',
        errorCode: `HTTP_${outcome.statusCode}`,
        errorMessage: redirect
          ? `The receiver answered HTTP ${outcome.statusCode}; redirects are not followed`
          : `The receiver answered HTTP ${outcome.statusCode}; 4xx answers are not retried`,
      });
      return;
    }
    if (outcome.kind === 'blocked') {
      await this.record({
        ...base,
        result: 'failed',
        errorCode: outcome.errorCode,
        errorMessage: outcome.errorMessage,
      });
      return;
    }
    const delay = nextRetryDelayMs(attemptNumber, {
      maxRetries: subscription.maxRetries,
      multiplier: subscription.retryBackoffMultiplier,
      unitMs: this.o.retryUnitMs,
    });
    await this.record({
      ...base,
      errorCode: outcome.errorCode,
      errorMessage: outcome.errorMessage,
      ...(delay === undefined
        ? { result: 'failed' as const }
        : { result: 'retry' as const, nextAttemptAt: new Date(finished.getTime() + delay).toISOString() }),
    });
  }
}
