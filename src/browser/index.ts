// The browser engines' entry point: createBrowserPool and the contract's types.
import { ChromiumPool, type BrowserPoolHooks } from './pool.js';
import type { BrowserPoolOptions } from './types.js';

export * from './types.js';
export { ChromiumPool, type BrowserPoolHooks, type PoolStats, type RenderControl } from './pool.js';

/**
 * A pool of Chromium browsers for both engines (docs/browser.md). Nothing launches until the
 * first render; `hooks` exist for tests only.
 */
export function createBrowserPool(options: BrowserPoolOptions, hooks?: BrowserPoolHooks): ChromiumPool {
  return new ChromiumPool(options, hooks);
}
