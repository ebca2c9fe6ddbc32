// The rate limit of test deliveries: per subscription and per key over a sliding minute, with the wait until the next
// one fits.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { RateLimitedError } from '../../src/domain/errors.js';
import { toApiError } from '../../src/http/errors.js';
import { TestRateLimit } from '../../src/webhooks/test-rate-limit.js';

const T0 = 1_000_000;

it('allows perSubscription tests of one subscription per window, then says when the next fits', () => {
  const limit = new TestRateLimit({ perSubscription: 3, perOwner: 100 });
  assert.deepEqual(
    [T0, T0 + 10_000, T0 + 20_000].map((now) => limit.take('k', 's', now).ok),
    [true, true, true],
  );
  assert.deepEqual(limit.take('k', 's', T0 + 30_000), { ok: false, retryAfterMs: 30_000, limit: 'subscription' });
  // A refused test is not counted: the first slot frees at T0 + 60 s.
  assert.equal(limit.take('k', 's', T0 + 59_999).ok, false);
  assert.equal(limit.take('k', 's', T0 + 60_000).ok, true);
  assert.deepEqual(limit.take('k', 's', T0 + 60_001), { ok: false, retryAfterMs: 9_999, limit: 'subscription' });
  assert.equal(limit.take('k', 'other', T0 + 60_001).ok, true, 'another subscription has its own count');
});

it('allows perOwner tests of one key across its subscriptions; other keys are apart', () => {
  const limit = new TestRateLimit({ perSubscription: 2, perOwner: 3 });
  assert.equal(limit.take('k', 's1', T0).ok, true);
  assert.equal(limit.take('k', 's1', T0 + 1).ok, true);
  assert.equal(limit.take('k', 's2', T0 + 2).ok, true);
  assert.deepEqual(limit.take('k', 's3', T0 + 3), { ok: false, retryAfterMs: 59_997, limit: 'key' });
  assert.equal(limit.take('other', 's4', T0 + 3).ok, true);
});

it('reports the longer wait when both limits are reached', () => {
  const limit = new TestRateLimit({ perSubscription: 1, perOwner: 2 });
  limit.take('k', 's1', T0);
  limit.take('k', 's2', T0 + 5_000);
  assert.deepEqual(limit.take('k', 's2', T0 + 6_000), { ok: false, retryAfterMs: 59_000, limit: 'subscription' });
  assert.deepEqual(limit.take('k', 's3', T0 + 6_000), { ok: false, retryAfterMs: 54_000, limit: 'key' });
});

it('check() throws a 429 in the catalogue shape with whole seconds of Retry-After, at least 1', () => {
  const limit = new TestRateLimit({ perSubscription: 1, perOwner: 10 });
  limit.check('k', 's', T0);
  const refused = (now: number) => {
    try {
      limit.check('k', 's', now);
    } catch (error) {
      return error;
    }
    return undefined;
  };
  const error = refused(T0 + 100);
  assert.ok(error instanceof RateLimitedError);
  const answer = toApiError(error);
  assert.equal(answer?.statusCode, 429);
  assert.equal(answer?.body.error, 'Too many requests');
  assert.match(String(answer?.body.message), /WEBHOOK_TEST_PER_MINUTE/);
  assert.equal(error.retryAfterSeconds, 60);
  assert.equal(answer?.headers['retry-after'], '60');
  assert.equal((refused(T0 + 59_999) as RateLimitedError).retryAfterSeconds, 1);
});
