// When a page is tried again (`retry: true`, on scrapes and crawl pages alike): which failures, how often, how long apart.
import type { BrowserErrorCode } from '../browser/types.js';
import type { ExtractErrorCode } from './extractor.js';
import type { FetchErrorCode } from '../fetch/index.js';

/** Tries after the first: a page is fetched at most 1 + this many times. */
export const MAX_PAGE_RETRIES = 2;

/** Failures of the transport or of the engine, not of the page: worth another try. */
export const RETRYABLE_CODES: ReadonlySet<FetchErrorCode | BrowserErrorCode | ExtractErrorCode> = new Set([
  'TIMEOUT', 'CONNECTION_RESET', 'CONNECTION_REFUSED', 'NETWORK_ERROR', 'DNS_FAILURE', 'PAGE_CRASHED', 'NAVIGATION_FAILED',
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
