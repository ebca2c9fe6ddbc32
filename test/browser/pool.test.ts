// Pool logic (limits, FIFO line, reuse, recycling, crash/hang replacement, launch failures, close) with fake drivers:
// no Chromium needed.
import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BrowserError,
  createBrowserPool,
  type BrowserPoolOptions,
  type RenderRequest,
} from '../../src/browser/index.js';
import type {
  Driver,
  DriverBrowser,
  DriverSession,
  LaunchOptions,
  MainResponse,
  SessionOptions,
} from '../../src/browser/driver.js';

/** What the fake engine saw. */
class FakeEngine implements Driver {
  readonly engine = 'playwright' as const;
  launches = 0;
  browsers: FakeBrowser[] = [];
  openSessions = 0;
  maxOpenSessions = 0;
  started: string[] = [];
  launchDelayMs = 0;
  failLaunch = false;
  /** Sessions of the next browser never finish closing. */
  hangClose = false;

  async launch(_options: LaunchOptions): Promise<DriverBrowser> {
    this.launches++;
    if (this.launchDelayMs > 0) await sleep(this.launchDelayMs);
    if (this.failLaunch) throw new Error('spawn /nowhere ENOENT\n    at internal stack line');
    const browser = new FakeBrowser(this, this.hangClose);
    this.browsers.push(browser);
    return browser;
  }
}

class FakeBrowser implements DriverBrowser {
  readonly pid = undefined;
  closed = false;
  killed = false;
  sessions = 0;
  private listeners: Array<() => void> = [];

  constructor(
    private readonly engine: FakeEngine,
    private readonly hangClose: boolean,
  ) {}

  onDisconnected(listener: () => void): void {
    this.listeners.push(listener);
  }

  disconnect(): void {
    for (const l of this.listeners.splice(0)) l();
  }

  async newSession(_options: SessionOptions): Promise<DriverSession> {
    if (this.closed || this.killed) throw new Error('Target page, context or browser has been closed');
    this.sessions++;
    this.engine.openSessions++;
    this.engine.maxOpenSessions = Math.max(this.engine.maxOpenSessions, this.engine.openSessions);
    return new FakeSession(this.engine, this, this.hangClose);
  }

  async close(): Promise<void> {
    if (this.hangClose) return new Promise<void>(() => undefined);
    this.closed = true;
    this.disconnect();
  }

  kill(): void {
    this.killed = true;
    this.disconnect();
  }
}

class FakeSession implements DriverSession {
  private closedFlag = false;
  private current = 'about:blank';
  private onClose: Array<() => void> = [];

  constructor(
    private readonly engine: FakeEngine,
    readonly browser: FakeBrowser,
    private readonly hangClose: boolean,
  ) {}

  async goto(url: string): Promise<void> {
    this.engine.started.push(url);
    const u = new URL(url);
    const ms = Number(u.searchParams.get('ms') ?? 0);
    if (u.pathname === '/fail')
      throw new Error('page.goto: net::ERR_CONNECTION_REFUSED at ' + url + '\nCall log:\n  - navigating');
    if (u.pathname === '/crash-browser') {
      setTimeout(() => this.browser.disconnect(), ms);
    }
    if (ms > 0 || u.pathname === '/hang' || u.pathname === '/crash-browser') {
      await new Promise<void>((resolve, reject) => {
        const timer = u.pathname === '/hang' || u.pathname === '/crash-browser' ? undefined : setTimeout(resolve, ms);
        this.onClose.push(() => {
          clearTimeout(timer);
          reject(new Error('Target page, context or browser has been closed'));
        });
      });
    }
    this.current = url;
  }
  async waitForSelector(): Promise<void> {}
  mainResponse(): MainResponse {
    return {
      url: this.current,
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      text: async () => '',
    };
  }
  lastMainRequestUrl(): string {
    return this.current;
  }
  url(): string {
    return this.current;
  }
  async html(): Promise<string> {
    return '<!DOCTYPE html><html><body>fake</body></html>';
  }
  async documentContentType(): Promise<string> {
    return 'text/html';
  }
  async evaluate(): Promise<unknown> {
    return null;
  }
  async click(): Promise<void> {}
  async type(): Promise<void> {}
  async press(): Promise<void> {}
  async screenshot(): Promise<Buffer> {
    return Buffer.alloc(0);
  }
  async crash(): Promise<void> {}
  async close(): Promise<void> {
    if (this.hangClose) return new Promise<void>(() => undefined);
    if (this.closedFlag) return;
    this.closedFlag = true;
    this.engine.openSessions--;
    for (const f of this.onClose.splice(0)) f();
  }
}

let dir: string;
let fakeExecutable: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pool-test-'));
  fakeExecutable = join(dir, 'chromium');
  await writeFile(fakeExecutable, '#!/bin/sh\nexit 1\n');
  await chmod(fakeExecutable, 0o755);
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

function setup(options: Partial<BrowserPoolOptions> = {}, hangMarginMs = 300, parkedIdleMs?: number) {
  const engine = new FakeEngine();
  const pool = createBrowserPool(
    {
      executablePath: fakeExecutable,
      maxBrowsers: 1,
      maxPages: 2,
      pagesPerBrowser: 100,
      launchTimeoutMs: 1_000,
      ...options,
    },
    { drivers: { playwright: engine }, hangMarginMs, ...(parkedIdleMs !== undefined ? { parkedIdleMs } : {}) },
  );
  return { engine, pool };
}

const req = (path: string, extra: Partial<RenderRequest> = {}): RenderRequest => ({
  url: `http://fake.test${path}`,
  engine: 'playwright',
  timeoutMs: 5_000,
  userAgent: 'test',
  allowPrivateAddresses: true,
  ...extra,
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof BrowserError, `expected a BrowserError, got ${String(err)}`);
    assert.doesNotMatch(err.message, /\n| {4}at /, 'no stack in messages');
    return err.code;
  }
  return 'OK';
}

describe('page limit and line', () => {
  it('runs at most maxPages renders at once and starts the others in arrival order', async () => {
    const { engine, pool } = setup({ maxPages: 2 });
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => pool.render(req(`/p${i}?ms=60`))));
    assert.equal(results.length, 6);
    assert.equal(engine.maxOpenSessions, 2);
    assert.deepEqual(
      engine.started.map((u) => new URL(u).pathname),
      ['/p1', '/p2', '/p3', '/p4', '/p5', '/p6'],
    );
    assert.equal(engine.openSessions, 0);
    await pool.close();
  });

  it('a render waiting in line honours its timeout and its signal', async () => {
    const { engine, pool } = setup({ maxPages: 1 });
    const blocker = pool.render(req('/slow?ms=900'));
    await sleep(20);
    const t0 = Date.now();
    assert.equal(await codeOf(pool.render(req('/queued', { timeoutMs: 300 }))), 'TIMEOUT');
    const waited = Date.now() - t0;
    assert.ok(waited >= 290 && waited < 850, `timed out after ${waited} ms`);
    const controller = new AbortController();
    const aborted = pool.render(req('/queued2', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    assert.equal(await codeOf(aborted), 'ABORTED');
    assert.equal(pool.stats().waiting, 0);
    await blocker;
    assert.deepEqual(
      engine.started.map((u) => new URL(u).pathname),
      ['/slow'],
    );
    // The line is free again.
    await pool.render(req('/after'));
    await pool.close();
  });

  it('an already aborted signal fails at once', async () => {
    const { engine, pool } = setup();
    const controller = new AbortController();
    controller.abort();
    assert.equal(await codeOf(pool.render(req('/x', { signal: controller.signal }))), 'ABORTED');
    assert.equal(engine.launches, 0);
    await pool.close();
  });
});

describe('reuse and recycling', () => {
  it('launches lazily, reuses browsers, and never more than maxBrowsers per engine', async () => {
    const { engine, pool } = setup({ maxBrowsers: 2, maxPages: 4 });
    assert.equal(engine.launches, 0, 'nothing launches before the first render');
    await Promise.all(Array.from({ length: 12 }, (_, i) => pool.render(req(`/p${i}?ms=30`))));
    assert.ok(engine.launches >= 1 && engine.launches <= 2, `launches: ${engine.launches}`);
    assert.equal(engine.maxOpenSessions, 4);
    assert.equal(pool.stats().browsers.length, engine.launches);
    await pool.close();
    assert.ok(engine.browsers.every((b) => b.closed));
  });

  it('recycles a browser after pagesPerBrowser pages, draining it first', async () => {
    const { engine, pool } = setup({ maxBrowsers: 1, maxPages: 2, pagesPerBrowser: 3 });
    // Three renders on browser 1 (the third still running when the fourth arrives).
    await pool.render(req('/a'));
    await pool.render(req('/b'));
    const third = pool.render(req('/c?ms=200'));
    await sleep(30);
    const fourth = pool.render(req('/d'));
    await sleep(50);
    assert.equal(engine.browsers[0]!.closed, false, 'a draining browser stays open while a page runs on it');
    assert.equal(engine.launches, 1, 'the replacement waits for the old browser (maxBrowsers = 1)');
    await Promise.all([third, fourth]);
    assert.equal(engine.browsers[0]!.closed, true);
    assert.equal(engine.launches, 2);
    assert.equal(engine.browsers[0]!.sessions, 3);
    assert.equal(engine.browsers[1]!.sessions, 1);
    await pool.close();
  });
});

describe('every path closes the page', () => {
  it('success, navigation error, timeout and abort', async () => {
    const { engine, pool } = setup({ maxPages: 4 });
    assert.equal(await codeOf(pool.render(req('/ok'))), 'OK');
    assert.equal(await codeOf(pool.render(req('/fail'))), 'CONNECTION_REFUSED');
    assert.equal(await codeOf(pool.render(req('/hang', { timeoutMs: 200 }))), 'TIMEOUT');
    const controller = new AbortController();
    const aborted = pool.render(req('/hang', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 100);
    assert.equal(await codeOf(aborted), 'ABORTED');
    await sleep(50);
    assert.equal(engine.openSessions, 0);
    assert.equal(pool.stats().running, 0);
    await pool.close();
  });
});

describe('crashes and hangs', () => {
  it('a browser that exits fails only its own renders, renders on another browser go on, and it is replaced', async () => {
    const { engine, pool } = setup({ maxBrowsers: 2, maxPages: 2 });
    const long = pool.render(req('/long?ms=400'));
    await sleep(20);
    // Browser 1 is busy, so the second render gets a browser of its own, which then exits.
    const crashing = pool.render(req('/crash-browser?ms=100'));
    assert.equal(await codeOf(crashing), 'PAGE_CRASHED');
    assert.equal(await codeOf(long), 'OK');
    assert.equal(engine.launches, 2);
    assert.equal(pool.stats().replaced, 1);
    assert.equal(pool.stats().browsers.length, 1);
    // Two renders at once need two browsers again: a replacement is launched.
    const both = await Promise.all([pool.render(req('/a?ms=100')), pool.render(req('/b?ms=100'))]);
    assert.equal(both.length, 2);
    assert.equal(engine.launches, 3);
    await pool.close();
  });

  it('a browser that cannot close a page after a timeout is killed and replaced', async () => {
    const { engine, pool } = setup({ maxPages: 2 }, 300);
    engine.hangClose = true;
    const t0 = Date.now();
    assert.equal(await codeOf(pool.render(req('/hang', { timeoutMs: 200 }))), 'TIMEOUT');
    assert.ok(Date.now() - t0 < 1_000, 'the caller gets TIMEOUT at the deadline, not after the cleanup');
    await sleep(600);
    assert.equal(engine.browsers[0]!.killed, true, 'the hung browser is killed after the margin');
    assert.equal(pool.stats().replaced, 1);
    assert.equal(pool.stats().running, 0, 'its page slot is given back');
    engine.hangClose = false;
    assert.equal(await codeOf(pool.render(req('/after'))), 'OK');
    assert.equal(engine.launches, 2);
    await pool.close();
  });
});

describe('launch failures and availability', () => {
  it('a browser that fails to launch is BROWSER_UNAVAILABLE with a one-line message; the next render tries again', async () => {
    const { engine, pool } = setup();
    engine.failLaunch = true;
    const err = await pool.render(req('/x')).catch((e: unknown) => e);
    assert.ok(err instanceof BrowserError);
    assert.equal(err.code, 'BROWSER_UNAVAILABLE');
    assert.equal(err.url, 'http://fake.test/x');
    assert.match(err.message, /failed to start: spawn \/nowhere ENOENT$/);
    engine.failLaunch = false;
    assert.equal(await codeOf(pool.render(req('/y'))), 'OK');
    assert.equal(engine.launches, 2);
    await pool.close();
  });

  it('a launch that takes longer than launchTimeoutMs counts as failed', async () => {
    const { engine, pool } = setup({ launchTimeoutMs: 200 });
    engine.launchDelayMs = 2_000;
    const t0 = Date.now();
    assert.equal(await codeOf(pool.render(req('/x'))), 'BROWSER_UNAVAILABLE');
    assert.ok(Date.now() - t0 < 1_900, 'fails before the launch ends');
    await pool.close();
  });

  it('available() is false without an executable, and render says how to install Chromium', async () => {
    const missing = createBrowserPool({
      executablePath: join(dir, 'nope'),
      maxBrowsers: 1,
      maxPages: 1,
      pagesPerBrowser: 1,
      launchTimeoutMs: 1000,
    });
    assert.equal(await missing.available(), false);
    const err = await missing.render(req('/x')).catch((e: unknown) => e);
    assert.ok(err instanceof BrowserError);
    assert.equal(err.code, 'BROWSER_UNAVAILABLE');
    assert.match(err.message, /apt-get install -y chromium/);
    assert.match(err.message, /CHROMIUM_PATH/);
    const plain = join(dir, 'not-executable');
    await writeFile(plain, 'x');
    const notExec = createBrowserPool({
      executablePath: plain,
      maxBrowsers: 1,
      maxPages: 1,
      pagesPerBrowser: 1,
      launchTimeoutMs: 1000,
    });
    assert.equal(await notExec.available(), false);
    const dirPool = createBrowserPool({
      executablePath: dir,
      maxBrowsers: 1,
      maxPages: 1,
      pagesPerBrowser: 1,
      launchTimeoutMs: 1000,
    });
    assert.equal(await dirPool.available(), false);
    const { pool } = setup();
    assert.equal(await pool.available(), true);
    await Promise.all([missing.close(), notExec.close(), dirPool.close(), pool.close()]);
  });

  it('rejects non-http URLs and bad proxies before launching anything', async () => {
    const { engine, pool } = setup();
    assert.equal(await codeOf(pool.render(req('/x', { url: 'file:///etc/passwd' }))), 'INVALID_URL');
    assert.equal(await codeOf(pool.render(req('/x', { url: 'not a url' }))), 'INVALID_URL');
    assert.equal(await codeOf(pool.render(req('/x', { proxy: 'socks9://p' }))), 'PROXY_ERROR');
    assert.equal(engine.launches, 0);
    await pool.close();
  });
});

describe('close', () => {
  it('fails running and queued renders with ABORTED and closes every browser', async () => {
    const { engine, pool } = setup({ maxPages: 1 });
    const running = codeOf(pool.render(req('/hang')));
    const queued = codeOf(pool.render(req('/next')));
    await sleep(50);
    await pool.close();
    assert.equal(await running, 'ABORTED');
    assert.equal(await queued, 'ABORTED');
    assert.equal(await codeOf(pool.render(req('/later'))), 'ABORTED');
    assert.ok(engine.browsers.every((b) => b.closed));
    assert.equal(engine.openSessions, 0);
  });

  it('closes a browser that was still launching', async () => {
    const { engine, pool } = setup();
    engine.launchDelayMs = 200;
    const pending = codeOf(pool.render(req('/x')));
    // The render first checks the executable (file system): close once the launch is under way,
    // not after a fixed 20 ms, which a loaded machine spends before the launch starts.
    for (let i = 0; i < 100 && engine.launches === 0; i++) await sleep(2);
    assert.equal(engine.launches, 1, 'the launch started');
    await pool.close();
    assert.equal(await pending, 'ABORTED');
    assert.equal(engine.browsers.length, 1);
    assert.equal(engine.browsers[0]!.closed, true);
  });
});

describe('sessions kept for a reuse key', () => {
  it('renders with one key share a session one at a time; other keys and no key get their own', async () => {
    const { engine, pool } = setup({ maxPages: 2 });
    for (const i of [1, 2, 3]) await pool.render(req(`/a${i}`, { reuseKey: 'job-a' }));
    assert.deepEqual(pool.stats().sessions, { opened: 1, reused: 2, parked: 1 });
    assert.equal(engine.openSessions, 1);
    await pool.render(req('/b1', { reuseKey: 'job-b' }));
    assert.deepEqual(pool.stats().sessions, { opened: 2, reused: 2, parked: 2 });
    await pool.render(req('/plain'));
    assert.deepEqual(
      pool.stats().sessions,
      { opened: 3, reused: 2, parked: 2 },
      'a render without a key is closed after it',
    );
    assert.equal(engine.openSessions, 2);
    // Two at once with one key: one takes the kept session, the other opens its own.
    await Promise.all([
      pool.render(req('/a4?ms=30', { reuseKey: 'job-a' })),
      pool.render(req('/a5?ms=30', { reuseKey: 'job-a' })),
    ]);
    const { sessions } = pool.stats();
    assert.equal(sessions.opened, 4);
    assert.equal(sessions.reused, 3);
    assert.equal(pool.stats().byEngine.playwright.sessionsReused, 3, 'counted per engine too');
    assert.equal(pool.stats().byEngine.puppeteer.sessionsReused, 0);
    assert.equal(sessions.parked, 2, 'never more kept sessions than maxPages');
    await sleep(20);
    assert.equal(engine.openSessions, 2, 'the one over the limit was closed');
    await pool.close();
    assert.equal(pool.stats().sessions.parked, 0);
  });

  it('does not keep the session of a failed render', async () => {
    const { engine, pool } = setup();
    assert.equal(await codeOf(pool.render(req('/fail', { reuseKey: 'job' }))), 'CONNECTION_REFUSED');
    assert.equal(pool.stats().sessions.parked, 0);
    assert.equal(engine.openSessions, 0);
    await pool.render(req('/ok', { reuseKey: 'job' }));
    assert.deepEqual(pool.stats().sessions, { opened: 2, reused: 0, parked: 1 });
    await pool.close();
  });

  it('closes a kept session after it idles', async () => {
    const { engine, pool } = setup({}, 300, 100);
    await pool.render(req('/a', { reuseKey: 'job' }));
    assert.equal(engine.openSessions, 1);
    await sleep(250);
    assert.equal(engine.openSessions, 0);
    assert.equal(pool.stats().sessions.parked, 0);
    await pool.render(req('/b', { reuseKey: 'job' }));
    assert.equal(pool.stats().sessions.opened, 2, 'nothing left to reuse');
    await pool.close();
  });

  it('recycles a browser after pagesPerBrowser renders, reused sessions counted, and drops its kept sessions', async () => {
    const { engine, pool } = setup({ pagesPerBrowser: 3 });
    for (const i of [1, 2, 3]) await pool.render(req(`/r${i}`, { reuseKey: 'job' }));
    await sleep(20);
    assert.equal(engine.browsers[0]?.closed, true, 'the first browser was retired');
    assert.equal(pool.stats().sessions.parked, 0);
    await pool.render(req('/r4', { reuseKey: 'job' }));
    assert.equal(engine.launches, 2);
    assert.deepEqual(pool.stats().sessions, { opened: 2, reused: 2, parked: 1 });
    await pool.close();
  });
});
