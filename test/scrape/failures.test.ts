// The answer to a page that could not be had: per error code, the status and label clients have always seen.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { toApiError } from '../../src/http/errors.js';
import { type PageFailure, scrapeFailedError } from '../../src/scrape/failures.js';

// Written out as the API documents them (docs/api.md, docs/browser.md), so a change of kind shows here.
const ANSWERS: Record<Exclude<PageFailure['code'], 'INTERNAL'>, [number, string]> = {
  INVALID_URL: [400, 'Invalid URL'],
  BLOCKED_ADDRESS: [400, 'Blocked address'],
  UNSUPPORTED_CONTENT_TYPE: [400, 'Unsupported content type'],
  TIMEOUT: [504, 'Target timed out'],
  DNS_FAILURE: [502, 'DNS lookup failed'],
  CONNECTION_REFUSED: [502, 'Connection refused'],
  CONNECTION_RESET: [502, 'Connection reset'],
  TLS_ERROR: [502, 'TLS error'],
  TOO_LARGE: [502, 'Page too large'],
  TOO_MANY_REDIRECTS: [502, 'Too many redirects'],
  PROXY_ERROR: [502, 'Proxy error'],
  NETWORK_ERROR: [502, 'Network error'],
  ABORTED: [503, 'Scrape aborted'],
  REDIRECT_DUPLICATE: [502, 'Duplicate redirect'],
  BROWSER_UNAVAILABLE: [503, 'Browser unavailable'],
  SELECTOR_TIMEOUT: [504, 'Selector not found in time'],
  PAGE_CRASHED: [502, 'Page crashed'],
  NAVIGATION_FAILED: [502, 'Navigation failed'],
  ACTION_FAILED: [400, 'Browser action failed'],
  EXTRACTION_TOO_LARGE: [502, 'Page too large to extract'],
  EXTRACTION_TIMEOUT: [502, 'Extraction timed out'],
  EXTRACTION_FAILED: [502, 'Extraction failed'],
  EXTRACTION_BUSY: [503, 'Extraction busy'],
};

const DATA = { job_id: 'a3c0f7f2-5a7e-4d5b-9b8e-0d6f5e1c2b3a', url: 'https://example.com/', status: 'failed' };

it('answers each page error code with its status, label, code, message and data', () => {
  for (const [code, [status, label]] of Object.entries(ANSWERS)) {
    const error = scrapeFailedError({ code: code as PageFailure['code'], message: `${code} message` }, DATA);
    assert.equal(error.message, `${code} message`, code);
    const answer = toApiError(error);
    assert.equal(answer?.statusCode, status, code);
    assert.deepEqual(answer?.body, { error: label, code, message: `${code} message`, data: DATA }, code);
  }
});

it('answers an internal failure with 500 and its code', () => {
  const answer = toApiError(
    scrapeFailedError(
      { code: 'INTERNAL', message: 'The page could not be processed because of an internal error' },
      DATA,
    ),
  );
  assert.equal(answer?.statusCode, 500);
  assert.deepEqual(answer?.body, {
    error: 'Internal server error',
    code: 'INTERNAL',
    message: 'The page could not be processed because of an internal error',
    data: DATA,
  });
});
