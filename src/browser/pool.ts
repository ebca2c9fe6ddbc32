// The browser pool, written once for both engines: lazy launches, page limit with a FIFO line, reuse, recycling, crash
// and hang replacement.
import { constants as fsConstants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { checkProxyLiteral, type Resolver } from '../net/address-guard.js';
import type { Driver, DriverBrowser, DriverSession, SessionProxy } from './driver.js';
import { EGRESS_HEADER, EgressProxy, type EgressUpstream } from './egress-proxy.js';
import { cleanMessage } from './errors.js';
import { CHROMIUM_FLAGS, MOBILE_VIEWPORT, VIEWPORT } from './flags.js';
import { FifoLimiter } from './limiter.js';
import { defaultDrivers } from './lazy-drivers.js';
import { renderSteps, RenderRun } from './render.js';
import { RequestGuard } from './request-guard.js';
import {
  BrowserError,
  type BrowserEngineName,
  type BrowserPool,
  type BrowserPoolOptions,
  type RenderedPage,
  type RenderRequest,
} from './types.js';

/** A render still busy this long after its deadline (or a close that takes this long) means a hung browser. */
const DEFAULT_HANG_MARGIN_MS = 5_000;

/**
 * A session kept for its reuse key is closed after idling this long: a crawl's next page of the
 * same job usually follows within milliseconds, and an idle page still holds a renderer process.
 */
const PARKED_IDLE_MS = 10_000;

/** What a session's request interception and crash handler act for: the render using it now. */
interface SessionBinding {
  guard: RequestGuard;
  onCrash: () => void;
  /** The current render's headers, for requests to its page's origin. */
  headers: (url: string) => Record<string, string> | undefined;
}

/** A render's `headers` go to its page's origin only: sub-resources and navigations elsewhere never get them. */
function headersOf(request: RenderRequest): SessionBinding['headers'] {
  const headers = request.headers;
  if (headers === undefined || Object.keys(headers).length === 0) return () => undefined;
  const origin = new URL(request.url).origin;
  return (url) => {
    try {
      return new URL(url).origin === origin ? headers : undefined;
    } catch {
      return undefined;
    }
  };
}

/** A context with its page (and the egress proxy of a guarded render), used by one render at a time. */
interface PooledSession {
  entry: Entry;
  session: DriverSession;
  egress: EgressProxy | undefined;
  binding: SessionBinding;
  /** Renders with the same key may reuse it (RenderRequest.reuseKey); undefined: closed after its render. */
  key: string | undefined;
  /** The tab crashed while parked. */
  dead: boolean;
  idleTimer?: NodeJS.Timeout;
}

/** What a test hook may do to the render it runs in. */
export interface RenderControl {
  /** Crashes the tab (CDP Page.crash). */
  crashTab(): Promise<void>;
  /** SIGKILLs the browser process (a crash of the whole browser). */
  killBrowser(): void;
  /** SIGSTOPs the browser process (a hung browser); the pool's hang detection must kill it. */
  freezeBrowser(): void;
  readonly browserPid: number | undefined;
}

/** Test hooks; production code passes none. */
export interface BrowserPoolHooks {
  /** Name resolution of the address guard (request interception and egress proxy); default DNS. */
  resolve?: Resolver;
  /** Where the egress proxy really dials a checked address (lets a "public" test address lead to a local server). */
  dial?: (address: string, port: number) => { host: string; port: number };
  /** false: guarded renders rely on request interception alone (tests of that layer); default true. */
  egressProxy?: boolean;
  /** Flags appended to the Chromium command line, e.g. `--host-resolver-rules=...`. */
  extraArgs?: string[];
  /** Default 5 s. */
  hangMarginMs?: number;
  /** How long a session kept for its reuse key may idle; default 10 s. */
  parkedIdleMs?: number;
  /** Replaces an engine's driver (fake drivers test the pool logic without Chromium). */
  drivers?: Partial<Record<BrowserEngineName, Driver>>;
  /** Runs after navigation, before the waits. */
  afterNavigation?(control: RenderControl, request: RenderRequest): Promise<void> | void;
}

type EntryState = 'launching' | 'ready' | 'draining' | 'closing';

interface Entry {
  id: number;
  engine: BrowserEngineName;
  state: EntryState;
  launched: Promise<DriverBrowser>;
  browser: DriverBrowser | undefined;
  /** Renders assigned so far (recycling counts these). */
  pages: number;
  active: number;
  /** Renders in flight on this browser, interrupted when it dies. */
  runs: Set<RenderRun>;
  gone: boolean;
}

export interface EngineCounts {
  launches: number;
  replaced: number;
  /** Renders of this engine that reused a parked session. */
  sessionsReused: number;
}

export interface PoolStats {
  browsers: Array<{
    id: number;
    engine: BrowserEngineName;
    state: EntryState;
    pages: number;
    active: number;
    pid: number | undefined;
  }>;
  launches: number;
  /** Browsers that crashed, hung or failed to launch and were dropped. */
  replaced: number;
  byEngine: Record<BrowserEngineName, EngineCounts>;
  running: number;
  waiting: number;
  /** Contexts opened, renders that reused a parked one, and sessions parked now. */
  sessions: { opened: number; reused: number; parked: number };
}

const ENGINES: readonly BrowserEngineName[] = ['playwright', 'puppeteer'];

export class ChromiumPool implements BrowserPool {
  private readonly drivers: Record<BrowserEngineName, Driver>;
  private readonly entries: Entry[] = [];
  private readonly pageSlots: FifoLimiter;
  private readonly runs = new Set<RenderRun>();
  /** Woken whenever an entry leaves the pool or changes state. */
  private changeWaiters: Array<() => void> = [];
  private availability: Promise<boolean> | undefined;
  private closed = false;
  private closing: Promise<void> | undefined;
  private nextId = 1;
  private readonly counts: Record<BrowserEngineName, EngineCounts> = {
    playwright: { launches: 0, replaced: 0, sessionsReused: 0 },
    puppeteer: { launches: 0, replaced: 0, sessionsReused: 0 },
  };
  private readonly background = new Set<Promise<unknown>>();
  private readonly hangMarginMs: number;
  /** Idle sessions kept for their reuse key, oldest first; at most maxPages of them. */
  private parked: PooledSession[] = [];
  private readonly sessionCounts = { opened: 0 };

  constructor(
    private readonly options: BrowserPoolOptions,
    private readonly hooks: BrowserPoolHooks = {},
  ) {
    for (const [name, value] of [
      ['maxBrowsers', options.maxBrowsers],
      ['maxPages', options.maxPages],
      ['pagesPerBrowser', options.pagesPerBrowser],
      ['launchTimeoutMs', options.launchTimeoutMs],
    ] as const) {
      if (!Number.isInteger(value) || value < 1)
        throw new RangeError(`BrowserPoolOptions.${name} must be a positive integer, got ${value}`);
    }
    this.drivers = { ...defaultDrivers(), ...hooks.drivers };
    this.pageSlots = new FifoLimiter(options.maxPages);
    this.hangMarginMs = hooks.hangMarginMs ?? DEFAULT_HANG_MARGIN_MS;
  }

  available(): Promise<boolean> {
    this.availability ??= (async () => {
      try {
        if (!(await stat(this.options.executablePath)).isFile()) return false;
        await access(this.options.executablePath, fsConstants.X_OK);
        return true;
      } catch {
        return false;
      }
    })();
    return this.availability;
  }

  stats(): PoolStats {
    return {
      browsers: this.entries.map((e) => ({
        id: e.id,
        engine: e.engine,
        state: e.state,
        pages: e.pages,
        active: e.active,
        pid: e.browser?.pid,
      })),
      launches: this.counts.playwright.launches + this.counts.puppeteer.launches,
      replaced: this.counts.playwright.replaced + this.counts.puppeteer.replaced,
      byEngine: { playwright: { ...this.counts.playwright }, puppeteer: { ...this.counts.puppeteer } },
      running: this.pageSlots.running,
      waiting: this.pageSlots.waiting,
      sessions: {
        ...this.sessionCounts,
        reused: this.counts.playwright.sessionsReused + this.counts.puppeteer.sessionsReused,
        parked: this.parked.length,
      },
    };
  }

  async render(request: RenderRequest): Promise<RenderedPage> {
    const url = request.url;
    if (this.closed) throw new BrowserError('ABORTED', 'The browser pool is closed', url);
    if (!ENGINES.includes(request.engine))
      throw new BrowserError('BROWSER_UNAVAILABLE', `Unknown browser engine "${String(request.engine)}"`, url);
    if (!(await this.available())) throw this.unavailableError(url);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new BrowserError('INVALID_URL', `Not a URL: ${url}`, url);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new BrowserError('INVALID_URL', `Only http and https URLs can be rendered, not ${parsed.protocol}`, url);
    }
    const proxy =
      request.proxy === undefined
        ? undefined
        : parseProxy(request.proxy, url, request.proxyAllowPrivate ?? request.allowPrivateAddresses);

    const run = new RenderRun(request);
    this.runs.add(run);
    if (this.closed) run.interrupt(abortedByClose(url));
    try {
      return await this.execute(run, proxy);
    } finally {
      this.runs.delete(run);
      run.dispose();
    }
  }

  private async execute(run: RenderRun, proxy: ParsedProxy | undefined): Promise<RenderedPage> {
    const request = run.request;
    // Not raced: a slot handed over in the same tick as an abort must still be given back.
    const release = await this.pageSlots.acquire(run.signal);
    if (run.interrupted) {
      release();
      throw run.signal.reason as BrowserError;
    }
    const key = reuseKey(request);
    let entry: Entry | undefined;
    let sessionPromise: Promise<PooledSession> | undefined;
    let crashed = false;
    let succeeded = false;
    let interruptedCleanup = false;
    try {
      const guard = new RequestGuard({
        allowPrivateAddresses: request.allowPrivateAddresses,
        // Images, media and fonts load only for what is looked at: a screenshot, or a screenshot action.
        blockHeavyResources:
          request.screenshot === undefined && !(request.actions ?? []).some((action) => action.type === 'screenshot'),
        ...(this.hooks.resolve ? { resolve: this.hooks.resolve } : {}),
      });
      const onCrash = (): void => {
        crashed = true;
        run.interrupt(
          new BrowserError('PAGE_CRASHED', `The browser tab crashed while rendering ${request.url}`, request.url),
        );
      };
      let pooled = key === undefined ? undefined : this.takeParked(key);
      if (pooled) {
        entry = pooled.entry;
        this.claim(entry);
        this.counts[entry.engine].sessionsReused++;
        pooled.binding.guard = guard;
        pooled.binding.onCrash = onCrash;
        pooled.binding.headers = headersOf(request);
        sessionPromise = Promise.resolve(pooled);
        entry.runs.add(run);
      } else {
        run.step = 'waiting for a browser';
        entry = await this.acquireBrowser(request.engine, run);
        entry.runs.add(run);
        if (entry.gone) run.interrupt(crashError(request.url));
        run.step = 'opening a page';
        sessionPromise = this.openSession(entry, request, proxy, key, { guard, onCrash, headers: headersOf(request) });
        pooled = await run.race(sessionPromise);
      }
      const { session, egress: egressProxy } = pooled;
      const browser = entry.browser!;
      const afterNavigation = this.hooks.afterNavigation;
      const page = await renderSteps(session, run, {
        viaUserProxy: proxy !== undefined,
        refusedNavigation: (failedUrl, response) => {
          if (guard.mainBlocked) {
            return new BrowserError('BLOCKED_ADDRESS', guard.mainBlocked.message, request.url, {
              cause: guard.mainBlocked,
            });
          }
          if (!egressProxy || (response && response.headers[EGRESS_HEADER] === undefined)) return undefined;
          const failure = egressProxy.failureFor(failedUrl);
          return failure ? new BrowserError(failure.code, failure.message, request.url) : undefined;
        },
        ...(afterNavigation
          ? { afterNavigation: async () => afterNavigation(this.control(browser, session), request) }
          : {}),
      });
      succeeded = true;
      return page;
    } catch (err) {
      interruptedCleanup = run.interrupted;
      throw run.toBrowserError(err, crashed || entry?.gone === true);
    } finally {
      // Only a session whose render went well is kept; anything else may have left it in a bad state.
      const reusable = succeeded && !crashed && !run.interrupted;
      const cleanup = this.cleanup(entry, run, sessionPromise, reusable).finally(release);
      // After a timeout or abort the caller gets its answer now; the page closes behind it
      // (bounded by the hang margin: a browser that cannot close a page is killed).
      if (interruptedCleanup) this.track(cleanup);
      else await cleanup;
    }
  }

  /**
   * A new context and page on `entry`'s browser. Guarded renders, and renders through a proxy whose
   * own address must be checked, get their own egress proxy (the user's proxy behind it).
   */
  private async openSession(
    entry: Entry,
    request: RenderRequest,
    proxy: ParsedProxy | undefined,
    key: string | undefined,
    binding: SessionBinding,
  ): Promise<PooledSession> {
    let egress: EgressProxy | undefined;
    let sessionProxy = proxy?.session;
    // Chromium would resolve and dial a proxy itself; the egress proxy dials only checked addresses.
    const guardProxy = proxy !== undefined && !proxy.upstream.allowPrivate;
    if ((!request.allowPrivateAddresses || guardProxy) && this.hooks.egressProxy !== false) {
      egress = await EgressProxy.start({
        ...(this.hooks.resolve ? { resolve: this.hooks.resolve } : {}),
        ...(this.hooks.dial ? { dial: this.hooks.dial } : {}),
        ...(proxy ? { upstream: proxy.upstream } : {}),
        allowPrivateTargets: request.allowPrivateAddresses,
      });
      sessionProxy = { server: egress.url, bypass: '<-loopback>' };
    }
    try {
      // The binding object stays; a later render of the same key replaces what it holds.
      const session = await entry.browser!.newSession({
        userAgent: request.userAgent,
        viewport: request.mobile ? { width: MOBILE_VIEWPORT.width, height: MOBILE_VIEWPORT.height } : { ...VIEWPORT },
        ...(request.mobile ? { mobile: { deviceScaleFactor: MOBILE_VIEWPORT.deviceScaleFactor } } : {}),
        ...(sessionProxy ? { proxy: sessionProxy } : {}),
        onRequest: (r) => binding.guard.decide(r),
        extraHeaders: (url) => binding.headers(url),
        onCrash: () => binding.onCrash(),
      });
      this.sessionCounts.opened++;
      return { entry, session, egress, binding, key, dead: false };
    } catch (err) {
      await egress?.close().catch(() => undefined);
      throw err;
    }
  }

  /** Parks the render's session for its key, or closes it; gives the browser back (or kills it when it hangs). */
  private async cleanup(
    entry: Entry | undefined,
    run: RenderRun,
    sessionPromise: Promise<PooledSession> | undefined,
    reusable: boolean,
  ): Promise<void> {
    if (!entry) return;
    try {
      if (sessionPromise) {
        const closed = sessionPromise.then(
          (pooled) => (reusable && this.park(pooled) ? undefined : this.closeSession(pooled)),
          () => undefined,
        );
        const inTime = await withinMs(closed, this.hangMarginMs + run.remaining());
        if (!inTime && !entry.gone) {
          this.dropEntry(entry, 'hung');
          entry.browser?.kill();
        }
      }
    } finally {
      entry.runs.delete(run);
      entry.active--;
      if (entry.state === 'draining' && entry.active === 0 && !entry.gone) this.retire(entry);
      this.changed();
    }
  }

  private async closeSession(pooled: PooledSession): Promise<void> {
    try {
      await pooled.session.close();
    } finally {
      await pooled.egress?.close().catch(() => undefined);
    }
  }

  /** Keeps a session for the next render of its key; false when it cannot be kept. */
  private park(pooled: PooledSession): boolean {
    const entry = pooled.entry;
    if (pooled.key === undefined || pooled.dead || this.closed || entry.gone || entry.state !== 'ready') return false;
    // While parked, a crash of its tab only marks it; the next render of the key opens a new one.
    pooled.binding.onCrash = () => {
      pooled.dead = true;
    };
    pooled.idleTimer = setTimeout(() => this.unpark(pooled, true), this.hooks.parkedIdleMs ?? PARKED_IDLE_MS);
    pooled.idleTimer.unref();
    this.parked.push(pooled);
    // Idle pages hold memory: keep no more of them than pages may render at once.
    while (this.parked.length > this.options.maxPages) this.unpark(this.parked[0]!, true);
    return true;
  }

  /** The newest parked session of `key` on a browser that takes pages. */
  private takeParked(key: string): PooledSession | undefined {
    for (let i = this.parked.length - 1; i >= 0; i--) {
      const pooled = this.parked[i]!;
      if (pooled.key !== key) continue;
      if (pooled.dead || pooled.entry.gone || pooled.entry.state !== 'ready') {
        this.unpark(pooled, true);
        continue;
      }
      this.unpark(pooled, false);
      return pooled;
    }
    return undefined;
  }

  /** Removes a session from the parked list, closing it (in the background) when asked. */
  private unpark(pooled: PooledSession, close: boolean): void {
    const i = this.parked.indexOf(pooled);
    if (i >= 0) this.parked.splice(i, 1);
    clearTimeout(pooled.idleTimer);
    pooled.idleTimer = undefined;
    if (close) this.track(withinMs(this.closeSession(pooled), this.hangMarginMs));
  }

  /** Parked sessions of a browser that is leaving (its contexts go with it; egress proxies are closed here). */
  private unparkAll(entry: Entry | undefined): void {
    for (const pooled of [...this.parked]) {
      if (entry !== undefined && pooled.entry !== entry) continue;
      this.unpark(pooled, false);
      if (pooled.egress) this.track(pooled.egress.close());
    }
  }

  private control(browser: DriverBrowser, session: DriverSession): RenderControl {
    return {
      crashTab: () => session.crash(),
      killBrowser: () => browser.kill(),
      freezeBrowser: () => {
        if (browser.pid !== undefined) process.kill(browser.pid, 'SIGSTOP');
      },
      browserPid: browser.pid,
    };
  }

  /** A browser of `engine` with room for one more page: reused, or launched when fewer than maxBrowsers run. */
  private async acquireBrowser(engine: BrowserEngineName, run: RenderRun): Promise<Entry> {
    for (;;) {
      if (run.interrupted) throw run.signal.reason as BrowserError;
      const ofEngine = this.entries.filter((e) => e.engine === engine);
      const ready = ofEngine.filter((e) => e.state === 'ready').sort((a, b) => a.active - b.active || a.id - b.id);
      // An idle browser first; else spread pages over up to maxBrowsers browsers; else the least busy one.
      let launching: Entry | undefined;
      const idle = ready[0]?.active === 0 ? ready[0] : undefined;
      if (!idle && ofEngine.length < this.options.maxBrowsers) launching = this.launch(engine);
      const best = idle ?? (launching ? undefined : ready[0]);
      if (best) {
        this.claim(best);
        return best;
      }
      launching ??= ofEngine.find((e) => e.state === 'launching');
      if (launching) {
        run.step = 'launching the browser';
        await run.race(launching.launched).catch((err: unknown) => {
          // A failed launch carries no URL: it is every waiting render's failure.
          if (err instanceof BrowserError && err.url === '')
            throw new BrowserError(err.code, err.message, run.request.url, { cause: err.cause });
          throw err;
        });
      } else {
        // Every browser of this engine is draining or closing: wait until one leaves.
        await run.race(new Promise<void>((resolve) => this.changeWaiters.push(resolve)));
      }
    }
  }

  /** Counts one more render on `entry`; at pagesPerBrowser it takes no more and is recycled when idle. */
  private claim(entry: Entry): void {
    entry.pages++;
    entry.active++;
    if (entry.pages >= this.options.pagesPerBrowser) {
      entry.state = 'draining';
      // Its parked pages would keep it from retiring: close them.
      for (const pooled of this.parked.filter((p) => p.entry === entry)) this.unpark(pooled, true);
    }
  }

  private launch(engine: BrowserEngineName): Entry {
    const driver = this.drivers[engine];
    this.counts[engine].launches++;
    const timeoutMs = this.options.launchTimeoutMs;
    const executablePath = this.options.executablePath;
    const attempt = driver.launch({
      executablePath,
      args: [...CHROMIUM_FLAGS, ...(this.hooks.extraArgs ?? [])],
      timeoutMs,
    });
    const launched = new Promise<DriverBrowser>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new BrowserError(
            'BROWSER_UNAVAILABLE',
            `Chromium at ${executablePath} did not start within ${timeoutMs} ms`,
            '',
          ),
        );
      }, timeoutMs + 1_000);
      attempt.then(
        (browser) => {
          clearTimeout(timer);
          resolve(browser);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(
            new BrowserError(
              'BROWSER_UNAVAILABLE',
              `Chromium at ${executablePath} failed to start: ${cleanMessage(err)}`,
              '',
              { cause: err },
            ),
          );
        },
      );
    });
    const entry: Entry = {
      id: this.nextId++,
      engine,
      state: 'launching',
      launched,
      browser: undefined,
      pages: 0,
      active: 0,
      runs: new Set(),
      gone: false,
    };
    entry.launched.then(
      (browser) => {
        entry.browser = browser;
        if (entry.gone || this.closed) {
          void this.shutdown(browser); // never rejects; tracked for close()
          return;
        }
        entry.state = 'ready';
        browser.onDisconnected(() => this.onDisconnected(entry));
        this.changed();
      },
      () => {
        this.dropEntry(entry, 'launch failed');
        // A launch that came too late is a browser nobody uses.
        attempt.then(
          (late) => this.shutdown(late),
          () => undefined,
        );
      },
    );
    this.entries.push(entry);
    return entry;
  }

  private onDisconnected(entry: Entry): void {
    if (entry.gone) return;
    this.dropEntry(entry, 'crashed');
  }

  /** Removes a dead, hung or failed browser: its renders fail with PAGE_CRASHED, the next render launches a new one. */
  private dropEntry(entry: Entry, _why: string): void {
    if (entry.gone) return;
    entry.gone = true;
    if (!this.closed && entry.state !== 'closing') this.counts[entry.engine].replaced++;
    const i = this.entries.indexOf(entry);
    if (i >= 0) this.entries.splice(i, 1);
    for (const run of entry.runs) run.interrupt(crashError(run.request.url));
    this.unparkAll(entry);
    this.changed();
  }

  /** Recycles a browser that served pagesPerBrowser pages, once its last page is done. */
  private retire(entry: Entry): void {
    entry.state = 'closing';
    this.unparkAll(entry);
    const browser = entry.browser;
    const done = (browser ? this.shutdown(browser) : Promise.resolve()).finally(() => {
      entry.gone = true;
      const i = this.entries.indexOf(entry);
      if (i >= 0) this.entries.splice(i, 1);
      this.changed();
    });
    this.track(done);
  }

  /** Graceful close, SIGKILL when it takes longer than the hang margin. */
  private shutdown(browser: DriverBrowser): Promise<void> {
    const closing = browser.close().catch(() => undefined);
    const done = withinMs(closing, this.hangMarginMs).then((inTime) => {
      if (!inTime) browser.kill();
    });
    this.track(done);
    return done;
  }

  private changed(): void {
    const waiters = this.changeWaiters;
    this.changeWaiters = [];
    for (const wake of waiters) wake();
  }

  private track(promise: Promise<unknown>): void {
    const p = promise.catch(() => undefined);
    this.background.add(p);
    p.finally(() => this.background.delete(p)).catch(() => undefined);
  }

  private unavailableError(url: string): BrowserError {
    return new BrowserError(
      'BROWSER_UNAVAILABLE',
      `No executable Chromium at ${this.options.executablePath}: install it with "apt-get install -y chromium" or set CHROMIUM_PATH to its path`,
      url,
    );
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      for (const run of this.runs) run.interrupt(abortedByClose(run.request.url));
      this.pageSlots.rejectAll(abortedByClose(''));
      this.unparkAll(undefined);
      this.changed();
      const browsers: Array<Promise<void>> = [];
      for (const entry of this.entries.splice(0)) {
        entry.gone = true;
        browsers.push(
          entry.launched.then(
            (browser) => this.shutdown(browser),
            () => undefined,
          ),
        );
      }
      await Promise.all(browsers);
      while (this.background.size > 0) await Promise.all([...this.background]);
    })();
    return this.closing;
  }
}

/** Renders may share a session only when everything the context was made with is the same. */
function reuseKey(request: RenderRequest): string | undefined {
  if (request.reuseKey === undefined) return undefined;
  return JSON.stringify([
    request.reuseKey,
    request.engine,
    request.proxy ?? null,
    request.proxyAllowPrivate ?? null,
    request.allowPrivateAddresses,
    request.userAgent,
    request.mobile === true,
  ]);
}

function abortedByClose(url: string): BrowserError {
  return new BrowserError('ABORTED', 'The browser pool is closing', url);
}

function crashError(url: string): BrowserError {
  return new BrowserError(
    'PAGE_CRASHED',
    `The browser exited or hung while rendering ${url}; it is being replaced`,
    url,
  );
}

/** Resolves true when `promise` settles within `ms`, false otherwise. */
function withinMs(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(true);
      },
    );
  });
}

interface ParsedProxy {
  /** For the browser context (engine auth mechanisms for the credentials). */
  session: SessionProxy;
  /** For the egress proxy of a guarded render. */
  upstream: EgressUpstream;
}

/**
 * The render's proxy for the context and for the egress proxy. Unless `allowPrivate` (a proxy the
 * operator chose), a private literal or local name is refused here, before anything is dialled;
 * a name is checked by the egress proxy when it connects.
 */
function parseProxy(raw: string, url: string, allowPrivate: boolean): ParsedProxy {
  let proxy: URL;
  try {
    proxy = new URL(raw);
  } catch {
    throw new BrowserError('PROXY_ERROR', 'Invalid proxy URL', url);
  }
  if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') {
    throw new BrowserError('PROXY_ERROR', `Unsupported proxy scheme "${proxy.protocol}": use http:// or https://`, url);
  }
  if (!allowPrivate) {
    const refused = checkProxyLiteral(proxy);
    if (refused) throw new BrowserError('BLOCKED_ADDRESS', refused.message, url, { cause: refused });
  }
  const server = new URL(`${proxy.protocol}//${proxy.host}`);
  const session: SessionProxy = { server: server.origin };
  const upstream: EgressUpstream = { url: server, allowPrivate };
  if (proxy.username !== '') {
    session.username = decodeURIComponent(proxy.username);
    session.password = decodeURIComponent(proxy.password);
    upstream.authorization = `Basic ${Buffer.from(`${session.username}:${session.password}`).toString('base64')}`;
  }
  return { session, upstream };
}
