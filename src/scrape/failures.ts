// How a page that could not be had is reported: HTTP status and a short label per fetch or render error code.
import { ApiError } from '../http/errors.js';
import { BrowserError } from '../browser/types.js';
import type { PageErrorCode as EngineErrorCode } from '../page/errors.js';
import { ExtractError, type ExtractErrorCode } from './extractor.js';
import { FetchError } from '../fetch/index.js';

/** An engine's failure (fetch or render) or an extraction's. */
type PageErrorCode = EngineErrorCode | ExtractErrorCode;

const STATUS: Record<PageErrorCode, number> = {
  INVALID_URL: 400,
  BLOCKED_ADDRESS: 400,
  UNSUPPORTED_CONTENT_TYPE: 400,
  TIMEOUT: 504,
  DNS_FAILURE: 502,
  CONNECTION_REFUSED: 502,
  CONNECTION_RESET: 502,
  TLS_ERROR: 502,
  TOO_LARGE: 502,
  TOO_MANY_REDIRECTS: 502,
  PROXY_ERROR: 502,
  NETWORK_ERROR: 502,
  ABORTED: 503,
  REDIRECT_DUPLICATE: 502,
  BROWSER_UNAVAILABLE: 503,
  SELECTOR_TIMEOUT: 504,
  PAGE_CRASHED: 502,
  NAVIGATION_FAILED: 502,
  // The page was had but is beyond what the service extracts (as TOO_LARGE is beyond what it fetches).
  EXTRACTION_TOO_LARGE: 502,
  EXTRACTION_TIMEOUT: 502,
  EXTRACTION_FAILED: 502,
  EXTRACTION_BUSY: 503,
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
  if (error instanceof FetchError || error instanceof BrowserError || error instanceof ExtractError) return { code: error.code, message: error.message };
  return { code: 'INTERNAL', message: 'The page could not be processed because of an internal error' };
}

export function scrapeFailedError(failure: PageFailure, data: Record<string, unknown>): ApiError {
  if (failure.code === 'INTERNAL') {
    return new ApiError(500, { error: 'Internal server error', code: failure.code, message: failure.message, data });
  }
  return new ApiError(STATUS[failure.code], { error: LABEL[failure.code], code: failure.code, message: failure.message, data });
}
