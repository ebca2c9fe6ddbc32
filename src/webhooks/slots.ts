// A sender's delivery slots: how many are in flight per subscription, owner (API key) and receiver, and which due
// deliveries fit.

export interface SlotLimits {
  /** Deliveries in flight in this process. */
  total: number;
  perSubscription: number;
  /** Per API key: one tenant's slow receivers cannot take every slot. */
  perOwner: number;
  /** Per receiver (URL origin), across keys: one slow receiver cannot take every slot. */
  perReceiver: number;
}

/** What a delivery counts against. */
export interface SlotKey {
  subscription_id: string;
  owner_id: string;
  receiver: string;
}

/** The groups at their limit, left out of claims in SQL so their backlog cannot fill a claim's window. */
export interface FullGroups {
  subscriptions: string[];
  owners: string[];
  receivers: string[];
}

/**
 * The receiver a URL names, for fairness: its origin (scheme, host, port). Receivers on one host
 * but different ports are different services; a URL that does not parse stands for itself.
 */
export function receiverOf(url: string): string {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? url : origin;
  } catch {
    return url;
  }
}

type Counts = Map<string, number>;

function add(counts: Counts, key: string, n: number): void {
  const next = (counts.get(key) ?? 0) + n;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}

function atLimit(counts: Counts, limit: number): string[] {
  return [...counts].filter(([, n]) => n >= limit).map(([key]) => key);
}

export class DeliverySlots {
  private inFlight = 0;
  private readonly bySubscription: Counts = new Map();
  private readonly byOwner: Counts = new Map();
  private readonly byReceiver: Counts = new Map();

  constructor(readonly limits: SlotLimits) {}

  get free(): number {
    return this.limits.total - this.inFlight;
  }

  get used(): number {
    return this.inFlight;
  }

  full(): FullGroups {
    return {
      subscriptions: atLimit(this.bySubscription, this.limits.perSubscription),
      owners: atLimit(this.byOwner, this.limits.perOwner),
      receivers: atLimit(this.byReceiver, this.limits.perReceiver),
    };
  }

  take(key: SlotKey): void {
    this.change(key, 1);
  }

  release(key: SlotKey): void {
    this.change(key, -1);
  }

  private change(key: SlotKey, n: number): void {
    this.inFlight += n;
    add(this.bySubscription, key.subscription_id, n);
    add(this.byOwner, key.owner_id, n);
    add(this.byReceiver, key.receiver, n);
  }

  /**
   * Chooses up to `max` of the due deliveries (oldest first) that fit the limits, one owner at a
   * time in turn, so that when slots are scarce every waiting owner gets its share instead of the
   * one with the oldest backlog taking them all. Changes nothing: the caller takes the slots of
   * what it actually claimed.
   */
  choose<T extends SlotKey>(due: readonly T[], max: number): T[] {
    const planned = { subscription: new Map() as Counts, owner: new Map() as Counts, receiver: new Map() as Counts };
    const fits = (d: T): boolean =>
      (this.bySubscription.get(d.subscription_id) ?? 0) + (planned.subscription.get(d.subscription_id) ?? 0) <
        this.limits.perSubscription &&
      (this.byOwner.get(d.owner_id) ?? 0) + (planned.owner.get(d.owner_id) ?? 0) < this.limits.perOwner &&
      (this.byReceiver.get(d.receiver) ?? 0) + (planned.receiver.get(d.receiver) ?? 0) < this.limits.perReceiver;
    const queues = new Map<string, T[]>();
    for (const d of due) {
      const queue = queues.get(d.owner_id);
      if (queue) queue.push(d);
      else queues.set(d.owner_id, [d]);
    }
    const chosen: T[] = [];
    const limit = Math.min(max, this.free);
    while (chosen.length < limit && queues.size > 0) {
      for (const [owner, queue] of queues) {
        if (chosen.length >= limit) break;
        // What does not fit now will not fit later in this claim either: counts only grow.
        let next = queue.shift();
        while (next !== undefined && !fits(next)) next = queue.shift();
        if (queue.length === 0) queues.delete(owner);
        if (next === undefined) continue;
        chosen.push(next);
        add(planned.subscription, next.subscription_id, 1);
        add(planned.owner, next.owner_id, 1);
        add(planned.receiver, next.receiver, 1);
      }
    }
    return chosen;
  }
}
