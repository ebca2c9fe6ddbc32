// The page layer below both engines: the error both engines' errors extend, and the host a message names.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BrowserError } from '../../src/browser/types.js';
import { FetchError } from '../../src/fetch/index.js';
import { hostOf, PageError } from '../../src/page/errors.js';

describe('PageError', () => {
  it('is what both engines throw, each under its own name', () => {
    const fetched = new FetchError(
      'TOO_LARGE',
      'Response from a.example is larger than 10 bytes',
      'http://a.example/',
      { statusCode: 200 },
    );
    const rendered = new BrowserError('PAGE_CRASHED', 'The browser tab crashed', 'http://b.example/');
    for (const error of [fetched, rendered]) {
      assert.ok(error instanceof PageError);
      assert.ok(error instanceof Error);
    }
    assert.equal(fetched.name, 'FetchError');
    assert.equal(String(fetched), 'FetchError: Response from a.example is larger than 10 bytes');
    assert.deepEqual([fetched.code, fetched.url, fetched.statusCode], ['TOO_LARGE', 'http://a.example/', 200]);
    assert.equal(rendered.name, 'BrowserError');
    assert.deepEqual([rendered.code, rendered.url], ['PAGE_CRASHED', 'http://b.example/']);
    assert.ok(!(rendered instanceof FetchError));
    assert.ok(!(fetched instanceof BrowserError));
  });

  it('keeps a cause only when one is given', () => {
    const cause = new Error('ECONNRESET');
    assert.equal(new FetchError('CONNECTION_RESET', 'reset', 'http://a.example/', { cause }).cause, cause);
    assert.ok(!Object.hasOwn(new FetchError('TIMEOUT', 'late', 'http://a.example/'), 'cause'));
    assert.equal(new BrowserError('NAVIGATION_FAILED', 'failed', 'http://a.example/', { cause }).cause, cause);
    assert.ok(!Object.hasOwn(new BrowserError('ABORTED', 'aborted', 'http://a.example/'), 'cause'));
  });
});

describe('hostOf', () => {
  it('names the host and port of a URL, or the text itself when it is not a URL', () => {
    assert.equal(hostOf('https://Example.COM/path?q=1'), 'example.com');
    assert.equal(hostOf('http://127.0.0.1:8080/'), '127.0.0.1:8080');
    assert.equal(hostOf('not a url'), 'not a url');
  });
});
