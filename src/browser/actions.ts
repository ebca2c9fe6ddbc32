// Browser actions (docs/api.md, "Browser actions"): the steps a render takes on the page after its waits, one after
// another, each raced against the render's deadline; what they give is collected for the result.
import { setTimeout as sleep } from 'node:timers/promises';
import { DriverTimeoutError, type DriverSession } from './driver.js';
import { cleanMessage, isTargetGone } from './errors.js';
import { BACKSTOP_MS, readDom } from './page-read.js';
import type { RenderRun } from './render.js';
import { type ActionOutputs, type BrowserAction, BrowserError } from './types.js';

/** How long a click waits for its element to show, at most (less when the render has less time left). */
export const CLICK_WAIT_MS = 10_000;
/** The JSON of what one script returns, at most (characters). */
export const SCRIPT_RESULT_MAX_CHARS = 1024 * 1024;

/** Why one action failed, for the ACTION_FAILED message. */
class ActionProblem extends Error {}

/** Runs `actions` in order on the rendered page; BrowserError ACTION_FAILED names the action that could not be done. */
export async function runActions(
  session: DriverSession,
  run: RenderRun,
  actions: readonly BrowserAction[],
): Promise<ActionOutputs> {
  const outputs: ActionOutputs = { screenshots: [], scrapes: [], javascriptReturns: [] };
  for (const [index, action] of actions.entries()) {
    run.step = `running actions.${index} (${describe(action)})`;
    try {
      await runAction(session, run, action, outputs);
    } catch (err) {
      if (run.interrupted) throw run.signal.reason as BrowserError;
      if (err instanceof BrowserError || isTargetGone(err)) throw err;
      const why = err instanceof ActionProblem ? err.message : cleanMessage(err);
      throw new BrowserError(
        'ACTION_FAILED',
        `actions.${index} (${describe(action)}) failed: ${why}`,
        run.request.url,
        {
          cause: err,
        },
      );
    }
  }
  return outputs;
}

function describe(action: BrowserAction): string {
  switch (action.type) {
    case 'wait':
      return 'selector' in action ? `wait for "${action.selector}"` : `wait ${action.milliseconds} ms`;
    case 'click':
    case 'scroll':
      return action.type + (action.selector !== undefined ? ` "${action.selector}"` : '');
    case 'press':
      return `press ${action.key}`;
    default:
      return action.type;
  }
}

async function runAction(
  session: DriverSession,
  run: RenderRun,
  action: BrowserAction,
  outputs: ActionOutputs,
): Promise<void> {
  switch (action.type) {
    case 'wait':
      if ('selector' in action) {
        // No limit of its own: the page's time budget is the wait's (a TIMEOUT naming this action).
        await run.race(session.waitForSelector(action.selector, 'visible', run.remaining() + BACKSTOP_MS));
      } else {
        await run.race(sleep(action.milliseconds, undefined, { signal: run.signal }));
      }
      return;
    case 'click':
      await click(session, run, action.selector, action.all);
      return;
    case 'write':
      await run.race(session.type(action.text));
      return;
    case 'press':
      await run.race(session.press(action.key));
      return;
    case 'scroll':
      await scroll(session, run, action.direction, action.selector);
      return;
    case 'screenshot':
      outputs.screenshots.push(await run.race(session.screenshot(action.fullPage)));
      return;
    case 'scrape':
      outputs.scrapes.push({ url: session.url(), html: await readDom(session, run) });
      return;
    case 'execute_javascript':
      outputs.javascriptReturns.push(await execute(session, run, action.script));
      return;
  }
}

async function click(session: DriverSession, run: RenderRun, selector: string, all: boolean): Promise<void> {
  const limit = Math.min(CLICK_WAIT_MS, run.remaining() + BACKSTOP_MS);
  try {
    if (!all) {
      await run.race(session.click(selector, limit));
      return;
    }
    await run.race(session.waitForSelector(selector, 'attached', limit));
  } catch (err) {
    if (err instanceof DriverTimeoutError)
      throw new ActionProblem(`no ${all ? '' : 'visible '}element matches it within ${limit} ms`);
    throw err;
  }
  // Every match, as the page's own handlers see a click (HTMLElement.click), in document order.
  await run.race(
    session.evaluate(
      `(() => { for (const el of document.querySelectorAll(${JSON.stringify(selector)})) if (typeof el.click === 'function') el.click(); return null; })()`,
    ),
  );
}

async function scroll(
  session: DriverSession,
  run: RenderRun,
  direction: 'up' | 'down',
  selector: string | undefined,
): Promise<void> {
  const sign = direction === 'up' ? -1 : 1;
  // One screen (or one height of the element) at a time, as a reader scrolls.
  const found = await run.race(
    session.evaluate(
      selector === undefined
        ? `(() => { window.scrollBy(0, ${sign} * window.innerHeight); return true; })()`
        : `(() => { const el = document.querySelector(${JSON.stringify(selector)}); if (!el) return false; el.scrollBy(0, ${sign} * (el.clientHeight || window.innerHeight)); return true; })()`,
    ),
  );
  if (found !== true) throw new ActionProblem('no element matches the selector');
}

// The constructor of async functions: used only to compile (never to run) a script, to tell an expression from a body.
const AsyncFunction = (async () => undefined).constructor as new (...source: string[]) => unknown;

/**
 * The body of the async function a script runs as: an expression (`document.title`, as Firecrawl's clients send) is
 * returned; anything else (`return …` statements) is the body as written. Compiling here runs nothing.
 */
export function scriptBody(script: string): string {
  try {
    new AsyncFunction(`return (${script}\n);`);
    return `return (${script}\n);`;
  } catch {
    return script;
  }
}

/**
 * The script runs in an async function in the page (scriptBody: an expression is its own value, else `return` gives
 * it). Its value crosses as JSON made in the page and measured there as a primitive string, so a page that replaces
 * JSON or String cannot send more.
 */
async function execute(
  session: DriverSession,
  run: RenderRun,
  script: string,
): Promise<{ type: string; value: unknown }> {
  const expression = `(async () => {
  const value = await (async () => {
${scriptBody(script)}
  })();
  let json = JSON.stringify(value);
  if (typeof json !== 'string') json = null;
  else if (json.length > ${SCRIPT_RESULT_MAX_CHARS}) json = false;
  return { type: typeof value, json };
})()`;
  const answer = await run.race(session.evaluate(expression));
  const shape = answer as { type?: unknown; json?: unknown } | null;
  if (shape === null || typeof shape !== 'object' || typeof shape.type !== 'string') {
    throw new ActionProblem('the page changed the script wrapper; no value came back');
  }
  if (shape.json === false) {
    throw new ActionProblem(`its value is larger than ${SCRIPT_RESULT_MAX_CHARS} characters of JSON`);
  }
  if (typeof shape.json === 'string' && shape.json.length <= SCRIPT_RESULT_MAX_CHARS) {
    try {
      return { type: shape.type.slice(0, 20), value: JSON.parse(shape.json) as unknown };
    } catch {
      throw new ActionProblem('the page changed JSON.stringify; its value could not be read');
    }
  }
  return { type: shape.type.slice(0, 20), value: null };
}
