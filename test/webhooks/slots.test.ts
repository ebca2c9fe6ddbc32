// Delivery slots: limits per subscription, owner and receiver, and owners served in turn when slots are scarce.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DeliverySlots, receiverOf, type SlotKey } from '../../src/webhooks/slots.js';

const d = (owner: string, sub: string, receiver: string, n = 0): SlotKey & { n: number } => ({
  owner_id: owner,
  subscription_id: sub,
  receiver,
  n,
});
const limits = { total: 8, perSubscription: 4, perOwner: 4, perReceiver: 2 };

describe('DeliverySlots', () => {
  it('serves owners in turn: an old backlog of one owner does not take every chosen slot', () => {
    const slots = new DeliverySlots({ ...limits, perReceiver: 8 });
    const due = [
      ...Array.from({ length: 6 }, (_, i) => d('a', `a${i}`, `r${i}`, i)),
      d('b', 'b0', 'rb'),
      d('c', 'c0', 'rc'),
    ];
    const chosen = slots.choose(due, 3);
    assert.deepEqual(
      chosen.map((x) => x.owner_id),
      ['a', 'b', 'c'],
    );
    assert.equal(chosen[0]?.n, 0, 'oldest first within an owner');
  });

  it('never chooses beyond a limit, counting what is in flight and what it chose', () => {
    const slots = new DeliverySlots(limits);
    slots.take(d('a', 's1', 'slow'));
    const due = [
      d('a', 's1', 'slow'),
      d('a', 's2', 'slow'),
      d('a', 's3', 'fast'),
      d('a', 's3', 'fast'),
      d('a', 's4', 'other'),
      d('b', 't1', 'slow'),
    ];
    const chosen = slots.choose(due, 8);
    // 'slow' has room for one more (receiver limit 2): a's first takes it, so neither a's s2 nor
    // b's delivery fits; owner a has room for three (limit 4), so s4 is left once s3 took two.
    assert.deepEqual(
      chosen.map((x) => `${x.owner_id}/${x.subscription_id}/${x.receiver}`),
      ['a/s1/slow', 'a/s3/fast', 'a/s3/fast'],
    );
  });

  it('stops at the free slots', () => {
    const slots = new DeliverySlots({ total: 2, perSubscription: 10, perOwner: 10, perReceiver: 10 });
    slots.take(d('a', 's', 'r'));
    assert.equal(slots.free, 1);
    assert.equal(slots.choose([d('b', 't', 'q'), d('c', 'u', 'p')], 5).length, 1);
  });

  it('lists the groups at their limit, and forgets them once released', () => {
    const slots = new DeliverySlots(limits);
    const keys = [d('a', 's1', 'slow'), d('a', 's2', 'slow'), d('a', 's3', 'x'), d('a', 's3', 'y')];
    for (const k of keys) slots.take(k);
    assert.deepEqual(slots.full(), { subscriptions: [], owners: ['a'], receivers: ['slow'] });
    for (const k of keys) slots.release(k);
    assert.deepEqual(slots.full(), { subscriptions: [], owners: [], receivers: [] });
    assert.equal(slots.used, 0);
  });
});

describe('receiverOf', () => {
  it('is the origin: scheme, host and port, case-insensitive host', () => {
    assert.equal(receiverOf('https://Hooks.Example.com/a/b?c=1'), 'https://hooks.example.com');
    assert.equal(receiverOf('https://hooks.example.com:443/x'), 'https://hooks.example.com');
    assert.equal(receiverOf('http://127.0.0.1:8080/x'), 'http://127.0.0.1:8080');
    assert.notEqual(receiverOf('http://127.0.0.1:8080/x'), receiverOf('http://127.0.0.1:8081/x'));
    assert.equal(receiverOf('not a url'), 'not a url');
  });
});
