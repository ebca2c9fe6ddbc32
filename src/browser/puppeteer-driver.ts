// Driver for puppeteer-core: the system's Chromium, a context per session, request interception for the request guard.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, {
  TimeoutError,
  type Browser,
  type BrowserContext,
  type HTTPRequest,
  type KeyInput,
  type Page,
  type PuppeteerLifeCycleEvent,
} from 'puppeteer-core';
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

/**
 * Puppeteer's lifecycle events: `networkidle` is `networkidle0` (no connection for 500 ms, as
 * Playwright's); `commit` has no equivalent and is emulated in `goto` (main frame committed).
 */
const LIFECYCLE: Record<WaitUntil, PuppeteerLifeCycleEvent> = {
  load: 'load',
  domcontentloaded: 'domcontentloaded',
  networkidle: 'networkidle0',
  commit: 'domcontentloaded',
};

function isMainNavigation(request: HTTPRequest, page: Page): boolean {
  if (!request.isNavigationRequest()) return false;
  const frame = request.frame();
  return frame !== null && frame === page.mainFrame();
}

class PuppeteerSession implements DriverSession {
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
      if (isMainNavigation(response.request(), page)) {
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
    const navigation = this.page.goto(url, { waitUntil: LIFECYCLE[waitUntil], timeout: timeoutMs });
    if (waitUntil !== 'commit') {
      await navigation;
      return;
    }
    // `commit`: done when the main frame commits the new document (Page.frameNavigated), before
    // DOMContentLoaded. Error pages (chrome-error://) are not a commit: the navigation's rejection follows.
    navigation.catch(() => undefined);
    const page = this.page;
    await new Promise<void>((resolve, reject) => {
      const onNavigated = (frame: unknown): void => {
        if (frame !== page.mainFrame()) return;
        const current = page.mainFrame().url();
        if (current === 'about:blank' || current.startsWith('chrome-error:')) return;
        page.off('framenavigated', onNavigated);
        resolve();
      };
      page.on('framenavigated', onNavigated);
      navigation.then(
        () => {
          page.off('framenavigated', onNavigated);
          resolve();
        },
        (err: unknown) => {
          page.off('framenavigated', onNavigated);
          reject(err);
        },
      );
    });
  }

  async waitForSelector(selector: string, state: SelectorState, timeoutMs: number): Promise<void> {
    try {
      if (state === 'detached') {
        // Puppeteer's `hidden` also accepts an element that is present but hidden; detached means gone.
        await this.page.waitForFunction(`document.querySelector(${JSON.stringify(selector)}) === null`, {
          timeout: timeoutMs,
          polling: 'mutation',
        });
      } else {
        await this.page.waitForSelector(selector, {
          timeout: timeoutMs,
          ...(state === 'visible' ? { visible: true } : state === 'hidden' ? { hidden: true } : {}),
        });
      }
    } catch (err) {
      if (err instanceof TimeoutError) throw new DriverTimeoutError(err.message);
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
    const html: unknown = await this.page.evaluate(SERIALIZE_DOM);
    return typeof html === 'string' ? html : '';
  }

  async documentContentType(): Promise<string> {
    const type: unknown = await this.page.evaluate(DOCUMENT_CONTENT_TYPE);
    return typeof type === 'string' ? type : '';
  }

  async screenshot(fullPage: boolean): Promise<Buffer> {
    const png = await this.page.screenshot({ type: 'png', fullPage });
    return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  }

  async evaluate(expression: string): Promise<unknown> {
    return this.page.evaluate(expression);
  }

  async click(selector: string, timeoutMs: number): Promise<void> {
    // Puppeteer's click needs the element now; Playwright's waits for it to be actionable: wait for it to show first.
    await this.waitForSelector(selector, 'visible', timeoutMs);
    await this.page.click(selector);
  }

  async type(text: string): Promise<void> {
    await this.page.keyboard.type(text);
  }

  async press(key: string): Promise<void> {
    // Validated against the key names both libraries know (browser/keys.ts).
    await this.page.keyboard.press(key as KeyInput);
  }

  async crash(): Promise<void> {
    const crashed = new Promise<void>((resolve) => this.page.once('error', () => resolve()));
    const cdp = await this.page.createCDPSession();
    // Page.crash never answers: the renderer is gone.
    cdp.send('Page.crash').catch(() => undefined);
    await crashed;
  }

  close(): Promise<void> {
    this.closing ??= this.context.close().catch(() => undefined);
    return this.closing;
  }
}

class PuppeteerBrowser implements DriverBrowser {
  readonly pid: number | undefined;

  constructor(private readonly browser: Browser) {
    this.pid = browser.process()?.pid;
  }

  onDisconnected(listener: () => void): void {
    this.browser.once('disconnected', () => listener());
  }

  async newSession(options: SessionOptions): Promise<DriverSession> {
    const context = await this.browser.createBrowserContext({
      downloadBehavior: { policy: 'deny' },
      ...(options.proxy
        ? {
            proxyServer: options.proxy.server,
            ...(options.proxy.bypass ? { proxyBypassList: [options.proxy.bypass] } : {}),
          }
        : {}),
    });
    try {
      const page = await context.newPage();
      // Popups would load outside this page's interception; a scrape reads one page.
      context.on('targetcreated', (target) => {
        if (target.type() === 'page' && target.opener() !== undefined) {
          target
            .page()
            .then((popup) => (popup && popup !== page ? popup.close() : undefined))
            .catch(() => undefined);
        }
      });
      page.on('error', () => options.onCrash());
      await page.setViewport({
        ...options.viewport,
        ...(options.mobile
          ? { isMobile: true, hasTouch: true, deviceScaleFactor: options.mobile.deviceScaleFactor }
          : {}),
      });
      await page.setUserAgent(options.userAgent);
      if (options.proxy?.username !== undefined) {
        await page.authenticate({ username: options.proxy.username, password: options.proxy.password ?? '' });
      }
      // Like Playwright's serviceWorkers: 'block': every request of the page reaches interception.
      await page.setBypassServiceWorker(true);
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        // Data URLs are not paused by Chromium; nothing to decide.
        if (request.url().startsWith('data:')) return;
        options
          .onRequest({
            url: request.url(),
            resourceType: request.resourceType(),
            isMainNavigation: isMainNavigation(request, page),
          })
          .catch(() => 'blockedbyclient' as const)
          .then((decision) => {
            if (decision !== 'continue') return request.abort(decision);
            const extra = options.extraHeaders(request.url());
            return extra ? request.continue({ headers: { ...request.headers(), ...extra } }) : request.continue();
          })
          // The page may be closed meanwhile.
          .catch(() => undefined);
      });
      return new PuppeteerSession(context, page);
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

export const puppeteerDriver: Driver = {
  engine: 'puppeteer',
  async launch(options: LaunchOptions): Promise<DriverBrowser> {
    // Our own fresh profile, removed when the process exits (closed, crashed or killed).
    const userDataDir = await mkdtemp(join(tmpdir(), 'crawlservice-chromium-'));
    const removeProfile = (): void => {
      rm(userDataDir, { recursive: true, force: true, maxRetries: 5 }).catch(() => undefined);
    };
    let browser: Browser;
    try {
      browser = await puppeteer.launch({
        executablePath: options.executablePath,
        args: options.args,
        headless: true,
        userDataDir,
        pipe: true,
        timeout: options.timeoutMs,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        defaultViewport: null,
      });
    } catch (err) {
      removeProfile();
      throw err;
    }
    const proc = browser.process();
    if (proc && proc.exitCode === null && proc.signalCode === null) proc.once('exit', removeProfile);
    else removeProfile();
    return new PuppeteerBrowser(browser);
  },
};
