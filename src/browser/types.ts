// Public contract of the browser engines: what the scrape pipeline asks a browser for and what it gets back.
import { PageError, type PageErrorCode } from '../page/errors.js';

export type BrowserEngineName = 'playwright' | 'puppeteer';

export type WaitUntil = 'load' | 'domcontentloaded' | 'networkidle' | 'commit';

export type SelectorState = 'attached' | 'visible' | 'hidden' | 'detached';

/** One `wait_for_selector` entry, normalized (a bare string is `{ selector, state: 'visible' }`). */
export interface SelectorWait {
  selector: string;
  state: SelectorState;
  /** Per-entry limit in ms; when absent the page's remaining time budget applies. */
  timeoutMs?: number;
}

/**
 * One step a render takes after navigation and waits, before the page is read (docs/api.md, "Browser actions"); the
 * same for both engines. Validated at the API (scrape/actions-schema.ts): selectors parse, keys are known names.
 */
export type BrowserAction =
  | { type: 'wait'; milliseconds: number }
  | { type: 'wait'; selector: string }
  | { type: 'click'; selector: string; all: boolean }
  | { type: 'write'; text: string }
  | { type: 'press'; key: string }
  | { type: 'scroll'; direction: 'up' | 'down'; selector?: string }
  | { type: 'screenshot'; fullPage: boolean }
  | { type: 'scrape' }
  | { type: 'execute_javascript'; script: string };

/** What the actions gave, in the order they ran. */
export interface ActionOutputs {
  /** PNG bytes of each `screenshot` action. */
  screenshots: Buffer[];
  /** The page's URL and serialized DOM at each `scrape` action. */
  scrapes: Array<{ url: string; html: string }>;
  /** What each `execute_javascript` returned: `typeof` the value and the value as JSON would carry it. */
  javascriptReturns: Array<{ type: string; value: unknown }>;
}

export interface RenderRequest {
  url: string;
  engine: BrowserEngineName;
  /** Whole render: navigation, waits, content and screenshot. */
  timeoutMs: number;
  /** Navigation wait condition; default 'load'. */
  waitUntil?: WaitUntil;
  /** Extra delay in ms after navigation; ignored when `waitForSelector` is given (it takes priority). */
  waitFor?: number;
  /** Awaited one after another. */
  waitForSelector?: SelectorWait[];
  /** PNG of the viewport or of the full page; images, media and fonts load only when a screenshot is asked for. */
  screenshot?: 'viewport' | 'fullPage';
  /** Run after the waits, before the page is read; the page's content is what they leave. */
  actions?: BrowserAction[];
  /** Request headers (lower-case names) for the page's own origin; validated at the API (scrape/headers-schema.ts). */
  headers?: Record<string, string>;
  /** Emulate a phone: a small touch viewport (MOBILE_VIEWPORT) and the user agent given for it. */
  mobile?: boolean;
  /** http(s) proxy for every request of this render. */
  proxy?: string;
  /**
   * The proxy's own address may be private (a proxy the operator chose). False puts the connection
   * to it through the address guard (the egress proxy dials it). Default: `allowPrivateAddresses`.
   */
  proxyAllowPrivate?: boolean;
  userAgent: string;
  /** ALLOW_LOCAL_TARGETS: when false, every request the page makes to a private address is refused. */
  allowPrivateAddresses: boolean;
  /**
   * Renders with the same key (a crawl's job id) may reuse one browser context and page, one
   * render at a time, so they share cookies and storage; without it every render gets a fresh
   * context. A kept page is closed after 10 s unused.
   */
  reuseKey?: string;
  signal?: AbortSignal;
}

export interface RenderedPage {
  /** As requested. */
  sourceUrl: string;
  /** The page's URL when the content was read (after redirects and history.pushState). */
  finalUrl: string;
  /** Of the main document's response (the last redirect hop). */
  statusCode: number;
  /** Media type of the main document, lower case, e.g. 'text/html'. */
  contentType: string;
  headers: Record<string, string>;
  /** Serialized rendered DOM (`<!DOCTYPE html>` + documentElement.outerHTML). */
  html: string;
  /** PNG bytes when a screenshot was asked for. */
  screenshot?: Buffer;
  /** Present when the request had actions. */
  actions?: ActionOutputs;
  engine: BrowserEngineName;
}

/**
 * A render failure. Its codes are the page codes (`page/errors.ts`): the fetch codes keep their
 * meaning (BLOCKED_ADDRESS, TIMEOUT, DNS_FAILURE, CONNECTION_REFUSED, ABORTED, ...), and four are
 * browser-only (BROWSER_UNAVAILABLE, SELECTOR_TIMEOUT, PAGE_CRASHED, NAVIGATION_FAILED).
 */
export class BrowserError extends PageError {
  constructor(code: PageErrorCode, message: string, url: string, options?: { cause?: unknown }) {
    super(code, message, url, options);
    this.name = 'BrowserError';
  }
}

export interface BrowserPoolOptions {
  /** Chromium binary; default CHROMIUM_PATH or /usr/bin/chromium. */
  executablePath: string;
  /** Browsers per engine launched at most. */
  maxBrowsers: number;
  /** Pages rendered at once across all browsers; further renders wait in line. */
  maxPages: number;
  /** A browser is replaced after this many pages (bounds memory growth of long-lived browsers). */
  pagesPerBrowser: number;
  /** Launch budget; a launch that takes longer counts as a crash. */
  launchTimeoutMs: number;
}

export interface BrowserPool {
  /** Renders one page; throws BrowserError. Never leaves a page or context open, whatever happens. */
  render(request: RenderRequest): Promise<RenderedPage>;
  /** Whether a browser can be launched here (the binary exists and is executable); cached. */
  available(): Promise<boolean>;
  /** Closes every browser; pending renders fail with ABORTED. */
  close(): Promise<void>;
}
