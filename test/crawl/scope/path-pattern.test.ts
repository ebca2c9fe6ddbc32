// Tests of path rules: glob shapes, trailing slashes, decoding, whole-URL patterns, validation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isValidPathPattern } from '../../../src/crawl/scope/index.js';
import { matchesPathPatterns } from '../../../src/crawl/scope/path-pattern.js';

const site = 'https://example.com';

describe('path globs', () => {
  const cases: Array<[pattern: string, path: string, expected: boolean]> = [
    // single star stays inside one segment
    ['/blog/*', '/blog/a', true],
    ['/blog/*', '/blog/a-long_post.html', true],
    ['/blog/*', '/blog/a/b', false],
    ['/blog/*', '/blog/', false],
    ['/blog/*', '/blog', false],
    ['/blog/*', '/blogs/a', false],
    ['/blog/*', '/other/blog/a', false],
    ['/blog/*', '/blog/.hidden', true],
    ['/blog/*/comments', '/blog/a/comments', true],
    ['/blog/*/comments', '/blog/a/b/comments', false],
    ['/*', '/a', true],
    ['/*', '/', false],
    ['/*', '/a/b', false],
    // double star crosses segments
    ['/blog/**', '/blog/a/b', true],
    ['/blog/**', '/blog/a', true],
    ['/blog/**', '/blog/', true],
    ['/blog/**', '/blog', true],
    ['/blog/**', '/blogs/a', false],
    ['/**', '/', true],
    ['/**', '/any/thing/at/all', true],
    ['**', '/a/b', true],
    ['/docs/**/api', '/docs/api', true],
    ['/docs/**/api', '/docs/v1/x/api', true],
    ['/**/*.html', '/a/b/c.html', true],
    ['/**/*.html', '/c.html', true],
    ['/**/x', '/x', true],
    ['/**/x', '/a/b/x', true],
    ['/**/x', '/a/bx', false],
    ['**/x', '/x', true],
    ['/blog/**/*', '/blog/a/b', true],
    // trailing slash is not significant
    ['/blog/*', '/blog/a/', true],
    ['/blog', '/blog/', true],
    ['/blog/', '/blog', true],
    ['/blog/', '/blog/', true],
    ['/blog/*/', '/blog/a', true],
    ['/', '/', true],
    ['/', '/a', false],
    // exact paths and case
    ['/about', '/about', true],
    ['/about', '/about-us', false],
    ['/About', '/about', false],
    // other glob features through picomatch
    ['/a?c', '/abc', true],
    ['/a?c', '/ac', false],
    ['/a?c', '/a/c', false],
    ['/{blog,news}/*', '/news/x', true],
    ['/{blog,news}/*', '/press/x', false],
    ['/page/[0-9]', '/page/7', true],
    ['/page/[0-9]', '/page/x', false],
    ['/page/[!0-9]', '/page/x', true],
    ['/page/[!0-9]', '/page/1', false],
    ['/page/[^0-9]', '/page/x', true],
    ['/page/\\[!x\\]', '/page/[!x]', true],
    ['/v@(1|2)/*', '/v2/x', true],
    ['/wiki/Foo_(bar)', '/wiki/Foo_(bar)', true],
    ['/a/\\*', '/a/*', true],
    ['/a/\\*', '/a/b', false],
    // relative patterns are rooted
    ['blog/*', '/blog/a', true],
    ['blog/*', '/x/blog/a', false],
    ['*.html', '/a.html', true],
    ['*.html', '/x/a.html', false],
    ['**/*.html', '/x/a.html', true],
    // a leading ! is literal, not negation
    ['!/blog/*', '/blog/a', false],
    ['!/blog/*', '/x', false],
    // percent-encoding: rules match the path as written and decoded
    ['/café/*', '/caf%C3%A9/x', true],
    ['/caf%C3%A9/*', '/caf%C3%A9/x', true],
    ['/caf%c3%a9/*', '/caf%C3%A9/x', true],
    ['/my page', '/my%20page', true],
    ['/a/b', '/a%2Fb', false],
    ['/a%2Fb', '/a%2Fb', true],
    ['/*', '/a%2Fb', true],
  ];
  for (const [pattern, path, expected] of cases) {
    it(`${pattern} ${expected ? 'matches' : 'does not match'} ${path}`, () => {
      assert.equal(matchesPathPatterns(site + path, [pattern]), expected);
    });
  }
});

describe('path globs ignore the query and fragment', () => {
  const cases: Array<[pattern: string, url: string, expected: boolean]> = [
    ['/blog/*', `${site}/blog/a?page=2`, true],
    ['/blog/*', `${site}/blog/a?next=/x/y`, true],
    ['/search', `${site}/search?q=a`, true],
    ['/blog/*', `${site}/x?path=/blog/a`, false],
    ['/blog/*', `${site}/blog/a#c`, true],
  ];
  for (const [pattern, url, expected] of cases) {
    it(`${pattern} on ${url} -> ${expected}`, () => assert.equal(matchesPathPatterns(url, [pattern]), expected));
  }
});

describe('whole-URL patterns', () => {
  const cases: Array<[pattern: string, url: string, expected: boolean]> = [
    ['https://example.com/blog/*', 'https://example.com/blog/a', true],
    ['https://example.com/blog/*', 'https://example.com/blog/a/b', false],
    ['https://example.com/blog/**', 'https://example.com/blog/a/b', true],
    ['https://example.com/blog/*', 'http://example.com/blog/a', false],
    ['https://example.com/blog/*', 'https://www.example.com/blog/a', false],
    ['https://example.com/blog/*', 'https://example.com:8443/blog/a', false],
    ['https://*.example.com/**', 'https://docs.example.com/a/b', true],
    ['https://*.example.com/**', 'https://example.com/a', false],
    ['https://example.com/**/x', 'https://example.com/x', true],
    ['https://example.com/**/x', 'https://example.com/a/b/x', true],
    ['https://example.com/page/[!0-9]', 'https://example.com/page/x', true],
    ['https://example.com/*', 'https://example.com/a?x=1', true],
    ['https://example.com/page', 'https://example.com/page?ref=home', true],
    ['https://example.com/page?ref=*', 'https://example.com/page?ref=home', true],
    ['https://example.com/page?ref=*', 'https://example.com/page', false],
    ['https://example.com/page?ref=home', 'https://example.com/page?ref=away', false],
    ['https://example.com', 'https://example.com/', true],
    ['https://example.com', 'https://example.com/a', false],
    ['https://example.com/**', 'https://example.com/', true],
    ['https://example.com/docs/', 'https://example.com/docs', true],
    ['https://example.com/docs/*', 'https://example.com/docs/a/', true],
    // scheme, host and default port are normalized like URLs
    ['HTTPS://EXAMPLE.com/Blog/*', 'https://example.com/Blog/a', true],
    ['HTTPS://EXAMPLE.com/Blog/*', 'https://example.com/blog/a', false],
    ['https://example.com:443/*', 'https://example.com/a', true],
    ['http://example.com:80/*', 'http://example.com/a', true],
    ['https://example.com:8443/*', 'https://example.com:8443/a', true],
    ['https://café.example/*', 'https://xn--caf-dma.example/a', true],
    ['https://example.com/café/*', 'https://example.com/caf%C3%A9/a', true],
    // a whole-URL pattern is never read as a path
    ['https://example.com/blog/*', 'https://other.com/https://example.com/blog/a', false],
  ];
  for (const [pattern, url, expected] of cases) {
    it(`${pattern} ${expected ? 'matches' : 'does not match'} ${url}`, () => {
      assert.equal(matchesPathPatterns(url, [pattern]), expected);
    });
  }
});

describe('pattern lists', () => {
  it('match when any pattern matches', () => {
    assert.equal(matchesPathPatterns(`${site}/news/a`, ['/blog/*', '/news/*']), true);
    assert.equal(matchesPathPatterns(`${site}/press/a`, ['/blog/*', '/news/*']), false);
    assert.equal(matchesPathPatterns(`${site}/x`, ['/blog/*', 'https://example.com/x']), true);
  });
  it('an empty list matches nothing', () => assert.equal(matchesPathPatterns(`${site}/x`, []), false));
});

describe('isValidPathPattern', () => {
  const valid = [
    '/blog/*',
    '/blog/**',
    '/',
    '/**',
    '**',
    'blog/*',
    '*.html',
    '/a?c',
    '/{a,b}/*',
    '/[abc]',
    '/v@(1|2)',
    '/wiki/Foo_(bar)',
    '/café/*',
    '/caf%C3%A9',
    '/my page',
    '  /trimmed/*  ',
    '/a/\\[literal',
    '/a/b}',
    'https://example.com/blog/*',
    'http://example.com',
    'HTTPS://Example.com/*',
    'https://*.example.com/**',
    'https://example.com:8080/*',
    'https://example.com/page?ref=*',
    '/x'.repeat(1024),
  ];
  const invalid = [
    '',
    '   ',
    '/a\nb',
    '/a\tb',
    '/a\u0000',
    '/[abc',
    '/(abc',
    '/{a,b',
    '/abc]',
    '/abc)',
    'https://',
    'https:///path',
    'http://exa mple.com/*',
    'ftp://example.com/*',
    'file:///etc/passwd',
    'ws://example.com/*',
    'http*://example.com/*',
    '/x'.repeat(1025),
  ];
  for (const pattern of valid)
    it(`accepts ${JSON.stringify(pattern.slice(0, 40))}`, () => assert.equal(isValidPathPattern(pattern), true));
  for (const pattern of invalid)
    it(`refuses ${JSON.stringify(pattern.slice(0, 40))}`, () => assert.equal(isValidPathPattern(pattern), false));
  it('refuses non-strings', () => {
    // Deliberately outside the declared type: request bodies are untrusted JSON.
    for (const value of [undefined, null, 1, {}, ['/a']])
      assert.equal(isValidPathPattern(value as unknown as string), false);
  });
});
