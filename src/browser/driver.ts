// The internal contract between the pool (written once) and each automation library (one module per engine).
import type { BrowserEngineName, SelectorState, WaitUntil } from './types.js';

export interface LaunchOptions {
  executablePath: string;
  /** Chromium flags (see flags.ts). */
  args: string[];
  /** The library's own launch limit; the pool also races the launch against it. */
  timeoutMs: number;
}

/** What the pool needs to know about a request to decide whether it may go out. */
export interface InterceptedRequest {
  url: string;
  /** The library's resource type: 'document', 'image', 'media', 'font', 'script', 'fetch', ... */
  resourceType: string;
  /** A navigation of the page's main frame (the main document and each of its redirect hops). */
  isMainNavigation: boolean;
}

/** How an intercepted request ends: sent on, or failed with a Chromium network error. */
export type RequestDecision = 'continue' | 'blockedbyclient' | 'namenotresolved' | 'addressunreachable';

export interface SessionProxy {
  /** `http://host:port`, without credentials. */
  server: string;
  username?: string;
  password?: string;
  /** Chromium bypass list, e.g. `<-loopback>` so loopback goes through the proxy too. */
  bypass?: string;
}

export interface SessionOptions {
  userAgent: string;
  viewport: { width: number; height: number };
  /** Phone emulation: `isMobile` and touch, at `deviceScaleFactor` (the viewport is given as well). */
  mobile?: { deviceScaleFactor: number };
  proxy?: SessionProxy;
  /** Called for every request any frame of the session makes; the request waits for the answer. */
  onRequest(request: InterceptedRequest): Promise<RequestDecision>;
  /** Headers to add to a request that goes on (the render's `headers`, for its page's origin only). */
  extraHeaders(url: string): Record<string, string> | undefined;
  /** The tab crashed (renderer gone). */
  onCrash(): void;
}

/** The main document's response: the main frame's latest navigation response (the last redirect hop). */
export interface MainResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  /** The body as served (decoded text); for documents Chromium shows in a viewer of its own. */
  text(): Promise<string>;
}

/** Thrown by a driver when the library's own timeout of a wait ran out. */
export class DriverTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DriverTimeoutError';
  }
}

/** One browser context with one page: a render's isolated world. */
export interface DriverSession {
  /** Navigates and waits for `waitUntil`; `timeoutMs` is a backstop, the render's deadline comes first. */
  goto(url: string, waitUntil: WaitUntil, timeoutMs: number): Promise<void>;
  /** Resolves when `selector` reaches `state`; DriverTimeoutError after `timeoutMs`. */
  waitForSelector(selector: string, state: SelectorState, timeoutMs: number): Promise<void>;
  mainResponse(): MainResponse | undefined;
  /** URL of the main frame's latest navigation request (a redirect hop that failed included). */
  lastMainRequestUrl(): string | undefined;
  url(): string;
  /** `<!DOCTYPE html>` + documentElement.outerHTML ('' when there is no document element). */
  html(): Promise<string>;
  /** `document.contentType`, for when no response was seen. */
  documentContentType(): Promise<string>;
  screenshot(fullPage: boolean): Promise<Buffer>;
  /** Evaluates `expression` in the main frame (an awaited promise's value); the value must be JSON-serializable. */
  evaluate(expression: string): Promise<unknown>;
  /** Clicks the first element matching `selector` with the mouse (scrolling it into view); it must exist. */
  click(selector: string, timeoutMs: number): Promise<void>;
  /** Types `text` into the focused element, key by key. */
  type(text: string): Promise<void>;
  /** Presses and releases one key, named as in KeyboardEvent.key ('Enter', 'ArrowDown', 'a'). */
  press(key: string): Promise<void>;
  /** Test hook: crashes the tab (CDP Page.crash). */
  crash(): Promise<void>;
  /** Closes the page and its context; safe to call twice. */
  close(): Promise<void>;
}

export interface DriverBrowser {
  /** Browser process id, when known (used to kill a hung browser and to measure memory). */
  readonly pid: number | undefined;
  /** Called once when the connection to the browser is lost (crash, kill or close). */
  onDisconnected(listener: () => void): void;
  newSession(options: SessionOptions): Promise<DriverSession>;
  /** Graceful close; removes the browser's temporary profile. */
  close(): Promise<void>;
  /** SIGKILL to the browser's process group (a hung browser). */
  kill(): void;
}

export interface Driver {
  readonly engine: BrowserEngineName;
  launch(options: LaunchOptions): Promise<DriverBrowser>;
}

/** Sends SIGKILL to a process group (the libraries launch Chromium detached), falling back to the process. */
export function killProcessTree(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
    return;
  } catch {
    // Not a group leader, or already gone.
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** JS evaluated in the page for the rendered DOM (a string so that this file needs no DOM typings). */
export const SERIALIZE_DOM = `(() => { const el = document.documentElement; return el ? '<!DOCTYPE html>' + el.outerHTML : ''; })()`;
export const DOCUMENT_CONTENT_TYPE = `document.contentType || ''`;
