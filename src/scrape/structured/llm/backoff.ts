// How long to wait before retrying a request.
import { RETRY_AFTER_CAP_MS } from './settings.js';

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

/**
 * The server's Retry-After when it sent one, capped (a proxy asking for an hour would stall the page's
 * slot for that long); else exponential backoff from 0.5 s, at most 8 s, with up to 25 % jitter so
 * pages rate-limited together do not come back together.
 */
export function retryDelayMs(retryIndex: number, retryAfterMs: number | undefined, random = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), RETRY_AFTER_CAP_MS);
  const base = Math.min(FIRST_DELAY_MS * 2 ** retryIndex, MAX_DELAY_MS);
  return base * (1 - 0.25 * random());
}
