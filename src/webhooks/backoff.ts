// The retry policy of deliveries as data and one pure function (docs/webhooks.md, "Outcomes, retries, auto-disable").

export interface RetryPolicy {
  maxRetries: number;
  multiplier: number;
  /** One "minute" of the schedule; a setting scales it down in tests. */
  unitMs: number;
}

/**
 * Whether another attempt may follow attempt `attemptNumber` (1-based): a delivery gets at most
 * 1 + max_retries attempts, whatever ended them (a retryable answer, or a sender that died
 * mid-attempt).
 */
export function hasRetryLeft(attemptNumber: number, maxRetries: number): boolean {
  return attemptNumber <= maxRetries;
}

/**
 * After attempt `attemptNumber` (1-based) failed in a retryable way: the delay before the next
 * attempt, or undefined when the retries are used up. Retry n waits multiplier^(n-1) units, so
 * the defaults (3 retries, x2) give attempts at 0, 1, 3 and 7 minutes.
 */
export function nextRetryDelayMs(attemptNumber: number, policy: RetryPolicy): number | undefined {
  if (!hasRetryLeft(attemptNumber, policy.maxRetries)) return undefined;
  return Math.round(policy.multiplier ** (attemptNumber - 1) * policy.unitMs);
}
