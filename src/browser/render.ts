// One render's deadline, cancellation and steps (navigate, wait, read, screenshot), the same for both engines.
import { setTimeout as sleep } from 'node:timers/promises';
import { DriverTimeoutError, type DriverSession, type MainResponse } from './driver.js';
import { classifyMediaType, parseContentType } from '../page/content-type.js';
import { hostOf } from '../page/errors.js';
import { cleanMessage, isTargetGone, navigationError } from './errors.js';
import { runActions } from './actions.js';
import { BACKSTOP_MS, readDom } from './page-read.js';
import { type ActionOutputs, BrowserError, type RenderedPage, type RenderRequest, type SelectorWait } from './types.js';

/**
 * The life of one render: a deadline (TIMEOUT), the caller's signal and pool shutdown (ABORTED),
 * and tab or browser crashes (PAGE_CRASHED) all end it through one AbortSignal whose reason is
 * the BrowserError the caller gets.
 */
export class RenderRun {
  private readonly controller = new AbortController();
  private readonly started = Date.now();
  private readonly timer: NodeJS.Timeout;
  private readonly detachCaller: () => void;
  /** What the render is doing, for the TIMEOUT message. */
  step = 'waiting for a free page slot';
  /** The selector being waited for: a deadline reached meanwhile is that selector's timeout. */
  selector: SelectorWait | undefined;

  constructor(readonly request: RenderRequest) {
    this.timer = setTimeout(() => this.interrupt(this.timeoutError()), request.timeoutMs);
    const caller = request.signal;
    const onCallerAbort = (): void =>
      this.interrupt(new BrowserError('ABORTED', `Rendering ${request.url} was aborted`, request.url));
    if (caller?.aborted) onCallerAbort();
    else caller?.addEventListener('abort', onCallerAbort, { once: true });
    this.detachCaller = () => caller?.removeEventListener('abort', onCallerAbort);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get interrupted(): boolean {
    return this.controller.signal.aborted;
  }

  /** Ends the render with `error` unless it already ended. */
  interrupt(error: BrowserError): void {
    if (!this.controller.signal.aborted) this.controller.abort(error);
  }

  remaining(): number {
    return Math.max(0, this.started + this.request.timeoutMs - Date.now());
  }

  /** `promise`, or the render's end (rejecting with its BrowserError), whichever comes first. */
  race<T>(promise: Promise<T>): Promise<T> {
    const signal = this.controller.signal;
    if (signal.aborted) {
      promise.catch(() => undefined);
      return Promise.reject(signal.reason as BrowserError);
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason as BrowserError);
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (err: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(err);
        },
      );
    });
  }

  /** Whatever a step threw, as the caller should see it. */
  toBrowserError(err: unknown, crashed: boolean): BrowserError {
    if (this.controller.signal.aborted) return this.controller.signal.reason as BrowserError;
    if (err instanceof BrowserError) return err;
    const url = this.request.url;
    if (crashed || isTargetGone(err)) {
      return new BrowserError('PAGE_CRASHED', `The browser tab crashed while rendering ${url}`, url, { cause: err });
    }
    return new BrowserError(
      'NAVIGATION_FAILED',
      `Rendering ${hostOf(url)} failed while ${this.step}: ${cleanMessage(err)}`,
      url,
      { cause: err },
    );
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.detachCaller();
  }

  private timeoutError(): BrowserError {
    const { url, timeoutMs } = this.request;
    if (this.selector) return selectorTimeout(this.selector, url, timeoutMs, true);
    return new BrowserError('TIMEOUT', `Rendering ${url} took longer than ${timeoutMs} ms (${this.step})`, url);
  }
}

function selectorTimeout(wait: SelectorWait, url: string, ms: number, wholeBudget: boolean): BrowserError {
  const limit = wholeBudget ? `the page's ${ms} ms time budget` : `${ms} ms`;
  return new BrowserError(
    'SELECTOR_TIMEOUT',
    `wait_for_selector "${wait.selector}" did not become ${wait.state} within ${limit}`,
    url,
  );
}

export interface StepHooks {
  /** Test hook run after navigation (crash the tab, kill the browser, ...). */
  afterNavigation?: () => Promise<void>;
  /**
   * The guard's verdict on the main document: BLOCKED_ADDRESS (or another egress failure) when
   * the navigation failed (`response` undefined) or was answered by the egress proxy itself.
   */
  refusedNavigation(failedUrl: string, response: MainResponse | undefined): BrowserError | undefined;
  viaUserProxy: boolean;
}

function unsupportedType(type: string, url: string): BrowserError {
  return new BrowserError('UNSUPPORTED_CONTENT_TYPE', `Unsupported content type "${type}" at ${url}`, url);
}

function mediaType(value: string | undefined): string {
  return parseContentType(value).mediaType;
}

/** Navigate, wait, read and screenshot; every step raced against the render's end. */
export async function renderSteps(session: DriverSession, run: RenderRun, hooks: StepHooks): Promise<RenderedPage> {
  const request = run.request;
  const waitUntil = request.waitUntil ?? 'load';
  run.step = `waiting for the ${waitUntil} event`;
  try {
    await run.race(session.goto(request.url, waitUntil, run.remaining() + BACKSTOP_MS));
  } catch (err) {
    if (run.interrupted) throw run.signal.reason as BrowserError;
    const failedUrl = session.lastMainRequestUrl() ?? request.url;
    const refused = hooks.refusedNavigation(failedUrl, undefined);
    if (refused) throw refused;
    if (err instanceof BrowserError) throw err;
    if (isTargetGone(err)) throw err;
    // A download (an attachment, or a type Chromium does not display) ends the navigation with
    // an error although the response arrived: refuse it as the HTTP engine does.
    const answered = session.mainResponse();
    if (answered && answered.url === failedUrl) {
      const type = mediaType(answered.headers['content-type']);
      if (
        classifyMediaType(type) === 'unsupported' ||
        /^\s*attachment/i.test(answered.headers['content-disposition'] ?? '')
      ) {
        throw unsupportedType(type, answered.url);
      }
    }
    throw navigationError(err, failedUrl, hooks.viaUserProxy);
  }
  const response = session.mainResponse();
  if (response) {
    const refused = hooks.refusedNavigation(response.url, response);
    if (refused) throw refused;
  }
  if (hooks.afterNavigation) await run.race(hooks.afterNavigation());

  const waits = request.waitForSelector ?? [];
  if (waits.length > 0) {
    for (const wait of waits) {
      run.selector = wait;
      run.step = `waiting for "${wait.selector}" to be ${wait.state}`;
      const ownLimit = wait.timeoutMs !== undefined && wait.timeoutMs < run.remaining();
      const limit = ownLimit ? wait.timeoutMs! : run.remaining() + BACKSTOP_MS;
      try {
        await run.race(session.waitForSelector(wait.selector, wait.state, limit));
      } catch (err) {
        if (run.interrupted) throw run.signal.reason as BrowserError;
        if (err instanceof DriverTimeoutError)
          throw selectorTimeout(wait, request.url, ownLimit ? limit : request.timeoutMs, !ownLimit);
        if (!isTargetGone(err)) {
          throw new BrowserError(
            'SELECTOR_TIMEOUT',
            `wait_for_selector "${wait.selector}" failed: ${cleanMessage(err)}`,
            request.url,
            { cause: err },
          );
        }
        throw err;
      }
    }
    run.selector = undefined;
  } else if (request.waitFor !== undefined && request.waitFor > 0) {
    run.step = `waiting ${request.waitFor} ms`;
    await run.race(sleep(request.waitFor, undefined, { signal: run.signal }));
  }

  let actions: ActionOutputs | undefined;
  if (request.actions !== undefined && request.actions.length > 0) {
    actions = await runActions(session, run, request.actions);
    // An action may have navigated: the guard's verdict on where the page went, as after the first navigation.
    const refused = hooks.refusedNavigation(session.lastMainRequestUrl() ?? request.url, session.mainResponse());
    if (refused) throw refused;
  }

  run.step = 'reading the page';
  let html = await readDom(session, run);
  const finalUrl = session.url();
  const main = session.mainResponse();
  let contentType = mediaType(main?.headers['content-type']);
  if (contentType === '') contentType = mediaType(await run.race(session.documentContentType()));
  // Chromium wraps text in a viewer page and shows PDFs in its viewer: answer as the HTTP engine
  // does, with the text as served and a refusal of binary types (an error page keeps its status).
  const kind = classifyMediaType(contentType);
  if (kind === 'unsupported') {
    if (main && main.status >= 200 && main.status < 300) throw unsupportedType(contentType, finalUrl);
    html = '';
  } else if (kind !== 'html' && kind !== 'sniff' && main) {
    html = await run.race(main.text());
  }

  let screenshot: Buffer | undefined;
  if (request.screenshot) {
    run.step = 'taking the screenshot';
    screenshot = await run.race(session.screenshot(request.screenshot === 'fullPage'));
  }
  return {
    sourceUrl: request.url,
    finalUrl,
    statusCode: main?.status ?? 200,
    contentType,
    headers: main?.headers ?? {},
    html,
    ...(screenshot ? { screenshot } : {}),
    ...(actions ? { actions } : {}),
    engine: request.engine,
  };
}
