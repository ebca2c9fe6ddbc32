// How a page that could not be had is reported: the kind of failure (which the HTTP layer answers with a status) and a
// short label per fetch or render error code.
import { type FailureKind, OperationFailedError } from '../domain/errors.js';
import { BrowserError } from '../browser/types.js';
import type { PageErrorCode as EngineErrorCode } from '../page/errors.js';
import { ExtractError, type ExtractErrorCode } from './extractor.js';
import { FetchError } from '../fetch/index.js';

/** An engine's failure (fetch or render) or an extraction's. */
type PageErrorCode = EngineErrorCode | ExtractErrorCode;

// refused: the target is not allowed or not usable; upstream: the target, the way to it or what it
// sent could not be used; timeout: it did not answer in time; unavailable: a resource of ours is
// missing or busy, or the work was stopped.
const KIND: Record<PageErrorCode, FailureKind> = {
  INVALID_URL: 'refused',
  BLOCKED_ADDRESS: 'refused',
  UNSUPPORTED_CONTENT_TYPE: 'refused',
  TIMEOUT: 'timeout',
  DNS_FAILURE: 'upstream',
  CONNECTION_REFUSED: 'upstream',
  CONNECTION_RESET: 'upstream',
  TLS_ERROR: 'upstream',
  TOO_LARGE: 'upstream',
  TOO_MANY_REDIRECTS: 'upstream',
  PROXY_ERROR: 'upstream',
  NETWORK_ERROR: 'upstream',
  ABORTED: 'unavailable',
  REDIRECT_DUPLICATE: 'upstream',
  BROWSER_UNAVAILABLE: 'unavailable',
  SELECTOR_TIMEOUT: 'timeout',
  PAGE_CRASHED: 'upstream',
  NAVIGATION_FAILED: 'upstream',
  // The page does not offer what the actions ask of it (an element that never appears, a script that throws).
  ACTION_FAILED: 'refused',
  // The page was had but is beyond what the service extracts (as TOO_LARGE is beyond what it fetches).
  EXTRACTION_TOO_LARGE: 'upstream',
  EXTRACTION_TIMEOUT: 'upstream',
  EXTRACTION_FAILED: 'upstream',
  EXTRACTION_BUSY: 'unavailable',
};

const LABEL: Record<PageErrorCode, string> = {
  INVALID_URL: 'Invalid URL',
  BLOCKED_ADDRESS: 'Blocked address',
  UNSUPPORTED_CONTENT_TYPE: 'Unsupported content type',
  TIMEOUT: 'Target timed out',
  DNS_FAILURE: 'DNS lookup failed',
  CONNECTION_REFUSED: 'Connection refused',
  CONNECTION_RESET: 'Connection reset',
  TLS_ERROR: 'TLS error',
  TOO_LARGE: 'Page too large',
  TOO_MANY_REDIRECTS: 'Too many redirects',
  PROXY_ERROR: 'Proxy error',
  NETWORK_ERROR: 'Network error',
  ABORTED: 'Scrape aborted',
  REDIRECT_DUPLICATE: 'Duplicate redirect',
  BROWSER_UNAVAILABLE: 'Browser unavailable',
  SELECTOR_TIMEOUT: 'Selector not found in time',
  PAGE_CRASHED: 'Page crashed',
  NAVIGATION_FAILED: 'Navigation failed',
  ACTION_FAILED: 'Browser action failed',
  EXTRACTION_TOO_LARGE: 'Page too large to extract',
  EXTRACTION_TIMEOUT: 'Extraction timed out',
  EXTRACTION_FAILED: 'Extraction failed',
  EXTRACTION_BUSY: 'Extraction busy',
};

export interface PageFailure {
  code: PageErrorCode | 'INTERNAL';
  message: string;
}

/** Classifies anything a page run threw; unknown faults are INTERNAL (and logged by the caller). */
export function classifyPageError(error: unknown): PageFailure {
  if (error instanceof FetchError || error instanceof BrowserError || error instanceof ExtractError)
    return { code: error.code, message: error.message };
  return { code: 'INTERNAL', message: 'The page could not be processed because of an internal error' };
}

/** The error a scrape (or a crawl refusing its seed) throws for `failure`; `data` names the job and URL. */
export function scrapeFailedError(failure: PageFailure, data: Record<string, unknown>): OperationFailedError {
  if (failure.code === 'INTERNAL')
    return new OperationFailedError('internal', 'Internal server error', failure.code, failure.message, data);
  return new OperationFailedError(KIND[failure.code], LABEL[failure.code], failure.code, failure.message, data);
}
