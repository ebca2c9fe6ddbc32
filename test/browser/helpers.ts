// Shared helpers of the browser tests: the Chromium path, request defaults, error assertions.
import assert from 'node:assert/strict';
import { BrowserError, type BrowserEngineName, type RenderRequest } from '../../src/browser/index.js';
import type { PageErrorCode } from '../../src/page/errors.js';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const ENGINES: readonly BrowserEngineName[] = ['playwright', 'puppeteer'];

/**
 * A render request. The default budget only has to outlast opening a page (and, for a browser's first
 * render, launching it) on a loaded 2-core machine running test files side by side: first renders
 * were seen to pass 8 s there, and opening a page 20 s when two browser-heavy files ran at once.
 * Tests that wait for a timeout set their own `timeoutMs`.
 */
export function request(engine: BrowserEngineName, url: string, extra: Partial<RenderRequest> = {}): RenderRequest {
  return { url, engine, timeoutMs: 45_000, userAgent: 'crawlservice-test/1.0', allowPrivateAddresses: true, ...extra };
}

/** Awaits a render that must fail with `code`; returns the error and how long it took. */
export async function expectFailure(
  promise: Promise<unknown>,
  code: PageErrorCode,
): Promise<{ error: BrowserError; ms: number }> {
  const t0 = Date.now();
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  const ms = Date.now() - t0;
  if (!('error' in outcome)) assert.fail(`expected ${code}, the render succeeded`);
  const error = outcome.error;
  assert.ok(error instanceof BrowserError, `expected a BrowserError, got ${String(error)}`);
  assert.equal(error.code, code, `expected ${code}, got ${error.code}: ${error.message}`);
  assert.doesNotMatch(error.message, /\n|\s+at .+\(.*:\d+:\d+\)/, 'messages carry no stack');
  return { error, ms };
}
