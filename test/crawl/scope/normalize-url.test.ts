// Tests of normalizeUrl: one string per page, different pages stay different, never a throw.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeUrl } from '../../../src/crawl/scope/index.js';

describe('normalizeUrl', () => {
  const cases: Array<[raw: string, base: string | undefined, expected: string | undefined]> = [
    // scheme, host and port
    ['HTTP://Example.COM/a', undefined, 'http://example.com/a'],
    ['http://example.com:80/a', undefined, 'http://example.com/a'],
    ['https://example.com:443/a', undefined, 'https://example.com/a'],
    ['http://example.com:443/a', undefined, 'http://example.com:443/a'],
    ['https://example.com:8080/a', undefined, 'https://example.com:8080/a'],
    ['https://café.example/', undefined, 'https://xn--caf-dma.example/'],
    ['http://[::1]:8080/a', undefined, 'http://[::1]:8080/a'],
    // fragments and empty paths
    ['https://example.com/a#section', undefined, 'https://example.com/a'],
    ['https://example.com/a?x=1#section', undefined, 'https://example.com/a?x=1'],
    ['https://example.com', undefined, 'https://example.com/'],
    ['https://example.com#top', undefined, 'https://example.com/'],
    ['https://example.com/a#', undefined, 'https://example.com/a'],
    ['', 'https://example.com/a#top', 'https://example.com/a'],
    ['#other', 'https://example.com/a#top', 'https://example.com/a'],
    // dot segments
    ['https://example.com/a/./b/../c', undefined, 'https://example.com/a/c'],
    ['https://example.com/a/%2e%2E/b', undefined, 'https://example.com/b'],
    ['https://example.com/../../a', undefined, 'https://example.com/a'],
    // percent-encoding
    ['https://example.com/%7euser/%41%5a%2D', undefined, 'https://example.com/~user/AZ-'],
    ['https://example.com/a%2fb', undefined, 'https://example.com/a%2Fb'],
    ['https://example.com/caf%c3%a9', undefined, 'https://example.com/caf%C3%A9'],
    ['https://example.com/café', undefined, 'https://example.com/caf%C3%A9'],
    ['https://example.com/a b', undefined, 'https://example.com/a%20b'],
    ['https://example.com/%zz', undefined, 'https://example.com/%zz'],
    // the query is kept as written
    ['https://example.com/a?b=2&a=1', undefined, 'https://example.com/a?b=2&a=1'],
    ['https://example.com/a?x=%7e', undefined, 'https://example.com/a?x=%7e'],
    ['https://example.com/a?', undefined, 'https://example.com/a?'],
    // trailing slash is significant
    ['https://example.com/a/', undefined, 'https://example.com/a/'],
    // credentials are dropped
    ['https://user:secret@example.com/a', undefined, 'https://example.com/a'],
    ['https://user@example.com/a', undefined, 'https://example.com/a'],
    ['https://:secret@example.com/a', undefined, 'https://example.com/a'],
    // relative links
    ['/x?y=1', 'https://example.com/a/b', 'https://example.com/x?y=1'],
    ['c', 'https://example.com/a/b', 'https://example.com/a/c'],
    ['../c', 'https://example.com/a/b/', 'https://example.com/a/c'],
    ['//other.com/p', 'https://example.com/', 'https://other.com/p'],
    ['?page=2', 'https://example.com/list?page=1', 'https://example.com/list?page=2'],
    ['#frag', 'https://example.com/a', 'https://example.com/a'],
    ['  https://example.com/a\n', undefined, 'https://example.com/a'],
    ['https://example.com/a', 'not a url', 'https://example.com/a'],
    // not crawlable
    ['mailto:a@example.com', undefined, undefined],
    ['javascript:void(0)', 'https://example.com/', undefined],
    ['ftp://example.com/file', undefined, undefined],
    ['data:text/html,hi', undefined, undefined],
    ['tel:+123', 'https://example.com/', undefined],
    ['/relative', undefined, undefined],
    ['relative', 'not a url', undefined],
    ['', undefined, undefined],
    ['http://', undefined, undefined],
    ['https://exa mple.com/', undefined, undefined],
  ];
  for (const [raw, base, expected] of cases) {
    it(`${JSON.stringify(raw)}${base ? ` on ${base}` : ''} -> ${expected ?? 'undefined'}`, () => {
      assert.equal(normalizeUrl(raw, base), expected);
    });
  }

  const samePage: Array<[string, string]> = [
    ['https://Example.com:443/a/./b/../c#x', 'https://example.com/a/c'],
    ['http://EXAMPLE.com:80', 'http://example.com/'],
    ['https://example.com/%7Efoo', 'https://example.com/~foo'],
  ];
  for (const [a, b] of samePage) it(`${a} and ${b} are one page`, () => assert.equal(normalizeUrl(a), normalizeUrl(b)));

  const differentPages: Array<[string, string]> = [
    ['https://example.com/a?x=1', 'https://example.com/a?x=2'],
    ['https://example.com/a?x=1&y=2', 'https://example.com/a?y=2&x=1'],
    ['https://example.com/a', 'https://example.com/a/'],
    ['http://example.com/a', 'https://example.com/a'],
    ['https://example.com/a', 'https://example.com:8443/a'],
    ['https://example.com/A', 'https://example.com/a'],
    ['https://example.com/a%2Fb', 'https://example.com/a/b'],
  ];
  for (const [a, b] of differentPages)
    it(`${a} and ${b} stay different`, () => assert.notEqual(normalizeUrl(a), normalizeUrl(b)));

  it('never throws on odd input', () => {
    const odd: unknown[] = [undefined, null, 42, {}, '\u0000', 'http://[::1', 'http://a.com/%', 'x'.repeat(100_000)];
    for (const input of odd) {
      // Deliberately outside the declared type: callers pass untrusted href attributes.
      assert.doesNotThrow(() => normalizeUrl(input as string, input as string));
    }
  });
});
