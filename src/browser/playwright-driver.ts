// Driver for playwright-core: the system's Chromium, a context per session, context.route for the request guard.
import {
  chromium,
  errors,
  type Browser,
  type BrowserContext,
  type Page,
  type Request,
  type Route,
} from 'playwright-core';
import {
  DOCUMENT_CONTENT_TYPE,
  DriverTimeoutError,
  killProcessTree,
  SERIALIZE_DOM,
  type Driver,
  type DriverBrowser,
  type DriverSession,
  type LaunchOptions,
  type MainResponse,
  type SessionOptions,
} from './driver.js';
import type { SelectorState, WaitUntil } from './types.js';

function isMainNavigation(request: Request, page: Page | undefined): boolean {
  if (!request.isNavigationRequest()) return false;
  try {
    const frame = request.frame();
    return frame.parentFrame() === null && (page === undefined || frame.page() === page);
  } catch {
    // Service-worker requests have no frame.
    return false;
  }
}

async function browserPid(browser: Browser): Promise<number | undefined> {
  try {
    const cdp = await browser.newBrowserCDPSession();
    try {
      const info = (await cdp.send('SystemInfo.getProcessInfo')) as {
        processInfo: Array<{ type: string; id: number }>;
      };
      return info.processInfo.find((p) => p.type === 'browser')?.id;
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  } catch {
    return undefined;
  }
}

class PlaywrightSession implements DriverSession {
  private main: MainResponse | undefined;
  private lastMainRequest: string | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly context: BrowserContext,
    private readonly page: Page,
  ) {
    page.on('request', (request) => {
      if (isMainNavigation(request, page)) this.lastMainRequest = request.url();
    });
    page.on('response', (response) => {
      const request = response.request();
      if (isMainNavigation(request, page)) {
        this.main = {
          url: response.url(),
          status: response.status(),
          headers: response.headers(),
          text: () => response.text(),
        };
      }
    });
  }

  async goto(url: string, waitUntil: WaitUntil, timeoutMs: number): Promise<void> {
    // A reused page still knows the previous render's document.
    this.main = undefined;
    this.lastMainRequest = undefined;
    await this.page.goto(url, { waitUntil, timeout: timeoutMs });
  }

  async waitForSelector(selector: string, state: SelectorState, timeoutMs: number): Promise<void> {
    try {
      await this.page.waitForSelector(selector, { state, timeout: timeoutMs });
    } catch (err) {
      if (err instanceof errors.TimeoutError) throw new DriverTimeoutError(err.message);
      throw err;
    }
  }

  mainResponse(): MainResponse | undefined {
    return this.main;
  }

  lastMainRequestUrl(): string | undefined {
    return this.lastMainRequest;
  }

  url(): string {
    return this.page.url();
  }

  async html(): Promise<string> {
    return this.page.evaluate<string>(SERIALIZE_DOM);
  }

  async documentContentType(): Promise<string> {
    return this.page.evaluate<string>(DOCUMENT_CONTENT_TYPE);
  }

  async screenshot(fullPage: boolean): Promise<Buffer> {
    return this.page.screenshot({ type: 'png', fullPage, timeout: 0 });
  }

  async evaluate(expression: string): Promise<unknown> {
    return this.page.evaluate<unknown>(expression);
  }

  async click(selector: string, timeoutMs: number): Promise<void> {
    try {
      await this.page.locator(selector).first().click({ timeout: timeoutMs });
    } catch (err) {
      if (err instanceof errors.TimeoutError) throw new DriverTimeoutError(err.message);
      throw err;
    }
  }

  async type(text: string): Promise<void> {
    await this.page.keyboard.type(text);
  }

  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }

  async crash(): Promise<void> {
    const crashed = new Promise<void>((resolve) => this.page.once('crash', () => resolve()));
    const cdp = await this.context.newCDPSession(this.page);
    // Page.crash never answers: the renderer is gone.
    cdp.send('Page.crash').catch(() => undefined);
    await crashed;
  }

  close(): Promise<void> {
    // Closing the context closes its pages and aborts their pending operations.
    this.closing ??= this.context.close().catch(() => undefined);
    return this.closing;
  }
}

class PlaywrightBrowser implements DriverBrowser {
  constructor(
    private readonly browser: Browser,
    readonly pid: number | undefined,
  ) {}

  onDisconnected(listener: () => void): void {
    this.browser.once('disconnected', () => listener());
  }

  async newSession(options: SessionOptions): Promise<DriverSession> {
    const context = await this.browser.newContext({
      viewport: options.viewport,
      userAgent: options.userAgent,
      ...(options.mobile
        ? { isMobile: true, hasTouch: true, deviceScaleFactor: options.mobile.deviceScaleFactor }
        : {}),
      // Service workers fetch outside context.route; a scrape does not need them.
      serviceWorkers: 'block',
      acceptDownloads: false,
      ...(options.proxy ? { proxy: options.proxy } : {}),
    });
    try {
      // Assigned once below, but the route handler reads it before then (undefined: no page yet).
      // eslint-disable-next-line prefer-const
      let page: Page | undefined;
      await context.route('**/*', async (route: Route) => {
        const request = route.request();
        let decision;
        try {
          decision = await options.onRequest({
            url: request.url(),
            resourceType: request.resourceType(),
            isMainNavigation: isMainNavigation(request, page),
          });
        } catch {
          decision = 'blockedbyclient' as const;
        }
        // The page may be closed meanwhile: then the route is gone and these throw.
        const extra = decision === 'continue' ? options.extraHeaders(request.url()) : undefined;
        if (extra) await route.continue({ headers: { ...request.headers(), ...extra } }).catch(() => undefined);
        else if (decision === 'continue') await route.continue().catch(() => undefined);
        else await route.abort(decision).catch(() => undefined);
      });
      page = await context.newPage();
      const own = page;
      own.on('crash', () => options.onCrash());
      // Popups would be further pages to keep in memory; a scrape reads one page.
      context.on('page', (other) => {
        if (other !== own) other.close().catch(() => undefined);
      });
      return new PlaywrightSession(context, own);
    } catch (err) {
      await context.close().catch(() => undefined);
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.browser.close();
  }

  kill(): void {
    killProcessTree(this.pid);
  }
}

export const playwrightDriver: Driver = {
  engine: 'playwright',
  async launch(options: LaunchOptions): Promise<DriverBrowser> {
    // Playwright makes (and removes on exit) its own temporary profile dir; it refuses --user-data-dir.
    const browser = await chromium.launch({
      executablePath: options.executablePath,
      args: options.args,
      headless: true,
      chromiumSandbox: false,
      timeout: options.timeoutMs,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    return new PlaywrightBrowser(browser, await browserPid(browser));
  },
};
