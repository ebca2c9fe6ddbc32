// The webhook engine's background loops: fan-out of outbox events into deliveries, and sending them; never throws.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../util/time.js';
import { classifyStoreError } from '../store/store-errors.js';
import { LOOP_BACKOFF_CAP_MS, LoopFailures } from '../util/loop-failures.js';
import { Wakeup } from '../util/wakeup.js';
import { outboxSignal } from '../events/outbox.js';
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
}

/** The headers of one delivery request (interface 6.1 plus Standard Webhooks). */
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
  private loops: Promise<void>[] = [];
  private readonly sendWakeup = new Wakeup();
  private readonly fanOutWakeup = new Wakeup();
  private readonly unrecorded: Array<{ record: AttemptRecord; done: () => void }> = [];
  private flushing: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly slots: DeliverySlots;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Deliveries this process is sending or recording: the only leases its heartbeat renews. */
  private readonly leased = new Set<string>();
  /** Set by stop() once its wait is over: outcomes still unwritten are left to the leases. */
  private abandoned = false;
  private readonly fanOutFailures: LoopFailures;
  private readonly claimFailures: LoopFailures;
  private readonly recordFailures: LoopFailures;

  constructor(private readonly o: DispatcherOptions) {
    this.slots = new DeliverySlots({ total: o.concurrency, perSubscription: o.perSubscription, perOwner: o.perOwner, perReceiver: o.perReceiver });
    const backoff = (name: string) => new LoopFailures({ name, logger: o.logger, baseMs: o.pollMs, capMs: Math.max(o.pollMs, LOOP_BACKOFF_CAP_MS) });
    this.fanOutFailures = backoff('webhook fan-out');
    this.claimFailures = backoff('webhook claims');
    this.recordFailures = backoff('webhook attempt records');
  }

  private readonly onRecorded = (): void => this.fanOutWakeup.wake();

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.abandoned = false;
    outboxSignal.on('recorded', this.onRecorded);
    this.heartbeat = setInterval(() => void this.renew(), Math.max(250, Math.floor(this.o.leaseMs / 3)));
    this.heartbeat.unref();
    this.loops = [this.fanOutLoop(), this.sendLoop()];
  }

  /** Something changed (new events, a test or replay): look now. */
  notify(): void {
    this.wakeSender();
    this.fanOutWakeup.wake();
  }

  private wakeSender(): void {
    this.sendWakeup.wake();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    outboxSignal.off('recorded', this.onRecorded);
    this.notify();
    await Promise.all(this.loops);
    // Sends in flight finish and are recorded. While the store is out of reach their records
    // cannot be written: stop waits for that at most a lease, then leaves them to their leases
    // (another sender takes them over as interrupted attempts).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, this.o.leaseMs)))]);
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
            await this.o.deliveries.recordAttempt(b.record).catch((e: unknown) => this.o.logger.error({ err: e, deliveryId: b.record.deliveryId }, 'webhook attempt record failed'));
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
      await this.o.deliveries.renewLeases(this.workerId, [...this.leased], new Date(this.o.clock().getTime() + this.o.leaseMs).toISOString());
    } catch {
      // The loops report an outage; a lease that runs out meanwhile is taken over as interrupted.
    }
  }

  private async fanOutLoop(): Promise<void> {
    while (!this.stopped) {
      try {
        const { events, deliveries } = await this.o.deliveries.fanOut(this.o.clock().toISOString());
        this.fanOutFailures.succeeded();
        if (deliveries > 0) this.wakeSender();
        if (events > 0) continue;
      } catch (error) {
        await this.fanOutWakeup.sleep(this.fanOutFailures.failed(error));
        continue;
      }
      await this.fanOutWakeup.sleep(this.o.pollMs);
    }
  }

  private async sendLoop(): Promise<void> {
    while (!this.stopped) {
      let claimed: ClaimedDelivery[] = [];
      try {
        const free = this.o.concurrency - this.inFlight.size;
        // With a backlog, claim in batches (an eighth of the slots at least) rather than one
        // claim per finished delivery: each claim is a transaction and an index scan.
        if (free < Math.ceil(this.o.concurrency / 8) && this.inFlight.size > 0) {
          await this.sendWakeup.sleep(this.o.pollMs);
          continue;
        }
        claimed =
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
        this.claimFailures.succeeded();
      } catch (error) {
        await this.sendWakeup.sleep(this.claimFailures.failed(error));
        continue;
      }
      for (const c of claimed) {
        const key = { subscription_id: c.delivery.subscription_id, owner_id: c.delivery.owner_id, receiver: c.delivery.receiver };
        this.slots.take(key);
        this.leased.add(c.delivery.id);
        const task = this.deliver(c)
          .catch((error: unknown) => this.o.logger.error({ err: error, deliveryId: c.delivery.id }, 'webhook delivery failed unexpectedly'))
          .finally(() => {
            // Its lease is no longer renewed: if its outcome was not recorded, it is taken over once the lease runs out.
            this.leased.delete(c.delivery.id);
            this.slots.release(key);
            this.inFlight.delete(task);
            this.wakeSender();
          });
        this.inFlight.add(task);
      }
      if (claimed.length === 0 || this.inFlight.size >= this.o.concurrency) await this.sendWakeup.sleep(this.o.pollMs);
    }
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
      await this.record({ ...base, result: 'failed', errorCode: outcome.errorCode, errorMessage: outcome.errorMessage });
      return;
    }
    const delay = nextRetryDelayMs(attemptNumber, { maxRetries: subscription.maxRetries, multiplier: subscription.retryBackoffMultiplier, unitMs: this.o.retryUnitMs });
    await this.record({
      ...base,
      errorCode: outcome.errorCode,
      errorMessage: outcome.errorMessage,
      ...(delay === undefined ? { result: 'failed' as const } : { result: 'retry' as const, nextAttemptAt: new Date(finished.getTime() + delay).toISOString() }),
    });
  }
}
