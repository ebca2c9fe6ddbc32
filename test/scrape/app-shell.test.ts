import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { looksLikeAppShell } from '../../src/scrape/app-shell.js';

const article = `<p>${'Real article text that the server rendered into the page. '.repeat(10)}</p>`;

describe('looksLikeAppShell', () => {
  it('recognises a React/Vite shell: empty mount node and a module script', () => {
    assert.equal(
      looksLikeAppShell(
        '<!doctype html><html><head><title>App</title><script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>',
      ),
      true,
    );
  });

  it('recognises a Next.js shell with a little text', () => {
    const html = `<html><head><script src="/_next/static/main.js"></script></head><body><div id="__next"><nav>Home About Pricing Blog Contact Sign in</nav><div class="spinner">Loading the dashboard, please wait</div></div></body></html>`;
    assert.equal(looksLikeAppShell(html), true);
  });

  it('recognises an Angular shell and a noscript notice', () => {
    assert.equal(
      looksLikeAppShell(
        '<html><body><app-root>Loading application, one moment please, it is starting</app-root><script src="main.js"></script></body></html>',
      ),
      true,
    );
    const notice =
      '<html><body><noscript>You need to enable JavaScript to run this app.</noscript><div class="x">Some header text of the shell that is not content at all</div><script src="a.js"></script></body></html>';
    assert.equal(looksLikeAppShell(notice), true);
  });

  it('treats a page with next to no text and a script as a shell even without a known mount node', () => {
    assert.equal(
      looksLikeAppShell('<html><body><div class="container"></div><script>render()</script></body></html>'),
      true,
    );
  });

  it('leaves pages with their content in the HTML alone, scripts or not', () => {
    assert.equal(
      looksLikeAppShell(
        `<html><head><script src="/analytics.js"></script></head><body><div id="root">${article}</div></body></html>`,
      ),
      false,
    );
    assert.equal(looksLikeAppShell(`<html><body>${article}</body></html>`), false);
  });

  it('does not count script, style, head or comment text as visible text', () => {
    const padded = `<html><head><title>${'t'.repeat(500)}</title><style>${'a{}'.repeat(500)}</style></head><body><!-- ${'c'.repeat(500)} --><div id="app"></div><script>${'var x=1;'.repeat(500)}</script></body></html>`;
    assert.equal(looksLikeAppShell(padded), true);
  });

  it('leaves short pages without scripts alone (nothing would render more)', () => {
    assert.equal(looksLikeAppShell('<html><body><div id="root"></div></body></html>'), false);
    assert.equal(looksLikeAppShell('Not found'), false);
  });

  it('is not a shell when a mount node holds server-rendered text of ordinary length', () => {
    const ssr = `<html><body><div id="__next"><article>${article}</article></div><script src="/_next/main.js"></script></body></html>`;
    assert.equal(looksLikeAppShell(ssr), false);
  });
});
