// When a page is tried again (`retry: true`, on scrapes and crawl pages alike): which failures, how often, how long
// apart.
import type { PageErrorCode } from '../page/errors.js';
import type { ExtractErrorCode } from './extractor.js';

/** Tries after the first: a page is fetched at most 1 + this many times. */
export const MAX_PAGE_RETRIES = 2;

/** Failures of the transport or of the engine, not of the page: worth another try. */
export const RETRYABLE_CODES: ReadonlySet<PageErrorCode | ExtractErrorCode> = new Set([
  'TIMEOUT',
  'CONNECTION_RESET',
  'CONNECTION_REFUSED',
  'NETWORK_ERROR',
  'DNS_FAILURE',
  'PAGE_CRASHED',
  'NAVIGATION_FAILED',
  // Extraction threads were full: the page itself is fine.
  'EXTRACTION_BUSY',
]);

/** Answers that say "later", not "no": rate limited or a server fault. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** The wait before retry number `retriesSoFar + 1`: base, then twice the base. */
export function retryDelayMs(baseMs: number, retriesSoFar: number): number {
  return baseMs * 2 ** retriesSoFar;
}
