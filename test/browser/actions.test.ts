// Browser actions on both engines: each action type against a local page, what they give back, how they fail, and
// phone emulation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createBrowserPool, type ChromiumPool } from '../../src/browser/index.js';
import type { BrowserAction } from '../../src/browser/types.js';
import { MOBILE_VIEWPORT } from '../../src/browser/flags.js';
import { pngSize, startBrowserSite, type BrowserSite } from '../fixtures/browser-site.js';
import { CHROMIUM, ENGINES, expectFailure, request } from './helpers.js';

let site: BrowserSite;
let pool: ChromiumPool;

before(async () => {
  site = await startBrowserSite();
  pool = createBrowserPool({
    executablePath: CHROMIUM,
    maxBrowsers: 1,
    maxPages: 2,
    pagesPerBrowser: 500,
    launchTimeoutMs: 30_000,
  });
});

after(async () => {
  await pool.close();
  await site.close();
});

describe('browser actions', { concurrency: 1 }, () => {
  for (const engine of ENGINES) {
    describe(engine, { concurrency: 1 }, () => {
      const render = (actions: BrowserAction[], extra: Parameters<typeof request>[2] = {}) =>
        pool.render(request(engine, `${site.url}/actions`, { actions, ...extra }));

      it('clicks, types, presses, scrolls, waits, runs a script, snapshots and screenshots, in order', async () => {
        const page = await render(
          [
            { type: 'click', selector: '#more', all: false },
            { type: 'click', selector: '#more', all: false },
            { type: 'click', selector: '.tick', all: true },
            { type: 'click', selector: '#q', all: false },
            { type: 'write', text: 'hello world' },
            { type: 'press', key: 'Enter' },
            { type: 'scrape' },
            { type: 'scroll', direction: 'down' },
            { type: 'wait', selector: '#late-item' },
            { type: 'wait', milliseconds: 20 },
            {
              type: 'execute_javascript',
              script:
                'return { items: document.querySelectorAll(".item").length, ticks: window.ticks, scrolled: window.scrollY > 0 };',
            },
            { type: 'execute_javascript', script: 'document.title = "Changed";' },
            { type: 'screenshot', fullPage: false },
            // Thirteen steps, the browser's launch among them, on a machine running other test files: each step was
            // seen to take over a second there.
          ],
          { timeoutMs: 60_000 },
        );
        assert.match(page.html, /Typed: hello world/);
        assert.match(page.html, /Late item/);
        assert.equal(page.html.match(/<p class="item">Loaded item/g)?.length, 2);
        assert.match(page.html, /<title>Changed<\/title>/, 'the page is read after the actions');
        const outputs = page.actions;
        assert.ok(outputs);
        assert.deepEqual(outputs.javascriptReturns, [
          { type: 'object', value: { items: 2, ticks: 3, scrolled: true } },
          { type: 'undefined', value: null },
        ]);
        assert.equal(outputs.scrapes.length, 1);
        assert.equal(outputs.scrapes[0]!.url, `${site.url}/actions`);
        assert.match(outputs.scrapes[0]!.html, /Typed: hello world/);
        assert.doesNotMatch(outputs.scrapes[0]!.html, /<title>Changed/, 'a snapshot is of its moment');
        assert.equal(outputs.screenshots.length, 1);
        assert.deepEqual(pngSize(outputs.screenshots[0]!), { width: 1280, height: 800 });
      });

      it('scrolls an element, clicks only the first match without `all`', async () => {
        const page = await render([
          { type: 'click', selector: '.tick', all: false },
          { type: 'scroll', direction: 'up', selector: '#items' },
          { type: 'execute_javascript', script: 'return window.ticks;' },
          // An expression is its own value, as Firecrawl's clients send scripts.
          { type: 'execute_javascript', script: 'document.querySelectorAll(".tick").length // three' },
          { type: 'execute_javascript', script: 'await new Promise((r) => setTimeout(() => r("later"), 10))' },
        ]);
        assert.deepEqual(page.actions?.javascriptReturns, [
          { type: 'number', value: 1 },
          { type: 'number', value: 3 },
          { type: 'string', value: 'later' },
        ]);
      });

      it("a click whose element never shows ends at the page's deadline, naming the action", async () => {
        const { error } = await expectFailure(
          // Long enough to open a page on a loaded machine: the click's wait is what runs out.
          render([{ type: 'click', selector: '#never', all: false }], { timeoutMs: 8_000 }),
          'TIMEOUT',
        );
        assert.match(error.message, /actions\.0 \(click "#never"\)/);
      });

      it('mobile: a phone-sized touch viewport and the given user agent', async () => {
        const page = await pool.render(
          request(engine, `${site.url}/actions`, {
            mobile: true,
            userAgent: 'crawlservice-test/1.0 Mobile',
            actions: [{ type: 'screenshot', fullPage: false }],
          }),
        );
        assert.match(
          page.html,
          new RegExp(`width=${MOBILE_VIEWPORT.width} touch=true ua=crawlservice-test/1.0 Mobile`),
        );
        assert.deepEqual(pngSize(page.actions!.screenshots[0]!), {
          width: MOBILE_VIEWPORT.width * MOBILE_VIEWPORT.deviceScaleFactor,
          height: MOBILE_VIEWPORT.height * MOBILE_VIEWPORT.deviceScaleFactor,
        });
        const desktop = await pool.render(request(engine, `${site.url}/actions`));
        assert.match(desktop.html, /width=1280 touch=false/);
      });
    });
  }
  // The runner's own checks go through `evaluate` and the render's deadline, the same code for both engines: one is
  // enough (each render costs seconds on a loaded machine).
  describe('engine-neutral checks (playwright)', { concurrency: 1 }, () => {
    const render = (actions: BrowserAction[], extra: Parameters<typeof request>[2] = {}) =>
      pool.render(request('playwright', `${site.url}/actions`, { actions, ...extra }));
    it('a script that throws fails the page with ACTION_FAILED naming the action and the error', async () => {
      const { error } = await expectFailure(
        render([
          { type: 'wait', milliseconds: 1 },
          { type: 'execute_javascript', script: 'throw new Error("boom in page")' },
        ]),
        'ACTION_FAILED',
      );
      assert.match(error.message, /^actions\.1 \(execute_javascript\) failed: .*boom in page/);
    });

    it('a script value over 1 MiB of JSON is refused, not carried', async () => {
      const { error } = await expectFailure(
        render([{ type: 'execute_javascript', script: 'return "x".repeat(2 * 1024 * 1024);' }]),
        'ACTION_FAILED',
      );
      assert.match(error.message, /larger than 1048576 characters/);
    });

    it("a page's own JSON.stringify cannot send a value past the cap", async () => {
      const page = await render([
        {
          type: 'execute_javascript',
          script: 'JSON.stringify = () => ({ length: 1, big: "y".repeat(3 * 1024 * 1024) }); return 5;',
        },
      ]);
      assert.deepEqual(page.actions?.javascriptReturns, [{ type: 'number', value: null }]);
    });

    it('scrolling an element that is not there is ACTION_FAILED', async () => {
      const { error } = await expectFailure(
        render([{ type: 'scroll', direction: 'down', selector: '#nowhere' }]),
        'ACTION_FAILED',
      );
      assert.match(error.message, /actions\.0 \(scroll "#nowhere"\).*no element matches/);
    });

    it('a script that never returns ends at the deadline, and the next render works', async () => {
      await expectFailure(
        render([{ type: 'execute_javascript', script: 'for (;;) {}' }], { timeoutMs: 6_000 }),
        'TIMEOUT',
      );
      const page = await render([{ type: 'execute_javascript', script: 'return 1 + 1;' }]);
      assert.deepEqual(page.actions?.javascriptReturns, [{ type: 'number', value: 2 }]);
    });
  });
});
