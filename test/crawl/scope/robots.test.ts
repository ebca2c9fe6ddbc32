// Tests of robots.txt handling: groups by product token, rule precedence, wildcards, delay, sitemaps.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allowAllRobots, disallowAllRobots, parseRobots, robotsUrlFor } from '../../../src/crawl/scope/index.js';
import { MAX_ROBOTS_CHARS, productToken } from '../../../src/crawl/scope/robots.js';

const ROBOTS_URL = 'https://example.com/robots.txt';
const UA = 'CrawlService/0.1 (+https://github.com/crawlservice)';

function allowed(body: string, path: string, userAgent = UA): boolean {
  return parseRobots(ROBOTS_URL, body, userAgent).isAllowed(`https://example.com${path}`);
}

describe('robots.txt rules', () => {
  const cases: Array<[name: string, body: string, path: string, expected: boolean]> = [
    ['empty file allows all', '', '/a', true],
    ['no rule for the path', 'User-agent: *\nDisallow: /private', '/public', true],
    ['disallow prefix', 'User-agent: *\nDisallow: /private', '/private/x', false],
    ['disallow is a prefix, not a segment', 'User-agent: *\nDisallow: /private', '/private-notes', false],
    ['disallow all', 'User-agent: *\nDisallow: /', '/', false],
    ['empty disallow allows all', 'User-agent: *\nDisallow:', '/a', true],
    [
      'allow overrides a shorter disallow',
      'User-agent: *\nDisallow: /shop/\nAllow: /shop/public/',
      '/shop/public/x',
      true,
    ],
    [
      'longer disallow beats shorter allow',
      'User-agent: *\nAllow: /shop/\nDisallow: /shop/cart',
      '/shop/cart/1',
      false,
    ],
    ['allow wins a tie', 'User-agent: *\nDisallow: /page\nAllow: /page', '/page', true],
    ['order of lines does not matter', 'User-agent: *\nAllow: /shop/public/\nDisallow: /shop/', '/shop/public/x', true],
    ['wildcard in the middle', 'User-agent: *\nDisallow: /*/edit', '/wiki/edit', false],
    ['wildcard in the middle, no match', 'User-agent: *\nDisallow: /*/edit', '/wiki/view', true],
    ['wildcard matches the query', 'User-agent: *\nDisallow: /*?sessionid=', '/a/b?sessionid=1', false],
    ['query without the parameter', 'User-agent: *\nDisallow: /*?sessionid=', '/a/b?page=1', true],
    ['$ anchors the end', 'User-agent: *\nDisallow: /*.pdf$', '/docs/a.pdf', false],
    ['$ anchors the end, longer path', 'User-agent: *\nDisallow: /*.pdf$', '/docs/a.pdf?x=1', true],
    ['exact path with $', 'User-agent: *\nDisallow: /$', '/', false],
    ['exact path with $, other path', 'User-agent: *\nDisallow: /$', '/a', true],
    ['paths are case-sensitive', 'User-agent: *\nDisallow: /Private', '/private', true],
    ['comments are ignored', '# hello\nUser-agent: * # all\nDisallow: /x # not x', '/x', false],
    ['percent-encoded rule matches a decoded link', 'User-agent: *\nDisallow: /caf%C3%A9', '/caf%C3%A9/menu', false],
    ['unicode rule matches an encoded link', 'User-agent: *\nDisallow: /café', '/caf%C3%A9/menu', false],
    ['CRLF line endings', 'User-agent: *\r\nDisallow: /x\r\n', '/x', false],
    ['byte-order mark', '\uFEFFUser-agent: *\nDisallow: /x', '/x', false],
    ['field names are case-insensitive', 'USER-AGENT: *\nDISALLOW: /x', '/x', false],
    // groups
    [
      'our group is chosen over *',
      'User-agent: *\nDisallow: /\n\nUser-agent: CrawlService\nDisallow: /private',
      '/a',
      true,
    ],
    [
      'our group applies its own rules',
      'User-agent: *\nDisallow: /\n\nUser-agent: CrawlService\nDisallow: /private',
      '/private',
      false,
    ],
    [
      'our group with empty disallow allows all',
      'User-agent: crawlservice\nDisallow:\n\nUser-agent: *\nDisallow: /',
      '/a',
      true,
    ],
    [
      'group name is case-insensitive',
      'User-agent: CRAWLSERVICE\nDisallow: /x\n\nUser-agent: *\nDisallow:',
      '/x',
      false,
    ],
    ['group name with a version', 'User-agent: CrawlService/2.0\nDisallow: /x', '/x', false],
    [
      'another bot group does not apply',
      'User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nDisallow: /nope',
      '/a',
      true,
    ],
    ['no group for us and no * group', 'User-agent: Googlebot\nDisallow: /', '/a', true],
    ['a group may list several agents', 'User-agent: Googlebot\nUser-agent: CrawlService\nDisallow: /x', '/x', false],
    [
      'repeated groups are merged',
      'User-agent: CrawlService\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n\nUser-agent: CrawlService\nDisallow: /b',
      '/b',
      false,
    ],
    ['rules before any user-agent are ignored', 'Disallow: /x\nUser-agent: *\nDisallow: /y', '/x', true],
  ];
  for (const [name, body, path, expected] of cases) {
    it(`${name}: ${path} ${expected ? 'allowed' : 'disallowed'}`, () => assert.equal(allowed(body, path), expected));
  }

  it('matches the product token inside a browser-like user agent', () => {
    const body = 'User-agent: *\nDisallow:\n\nUser-agent: crawlservice\nDisallow: /';
    assert.equal(allowed(body, '/a', 'Mozilla/5.0 (compatible; CrawlService/0.1; +https://example.org/bot)'), false);
    assert.equal(
      allowed(
        body,
        '/a',
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Safari/537.36',
      ),
      true,
    );
  });

  it('allows URLs of other origins: their own robots.txt governs them', () => {
    const rules = parseRobots(ROBOTS_URL, 'User-agent: *\nDisallow: /', UA);
    assert.equal(rules.isAllowed('https://example.com/a'), false);
    assert.equal(rules.isAllowed('https://example.com:443/a'), false);
    assert.equal(rules.isAllowed('https://EXAMPLE.com/a'), false);
    assert.equal(rules.isAllowed('http://example.com/a'), true);
    assert.equal(rules.isAllowed('https://www.example.com/a'), true);
    assert.equal(rules.isAllowed('https://example.com:8443/a'), true);
  });

  it('reads only the first 500 KiB', () => {
    const padding = `# ${'x'.repeat(MAX_ROBOTS_CHARS)}\n`;
    const rules = parseRobots(ROBOTS_URL, `User-agent: *\nDisallow: /a\n${padding}Disallow: /b`, UA);
    assert.equal(rules.isAllowed('https://example.com/a'), false);
    assert.equal(rules.isAllowed('https://example.com/b'), true);
  });
});

describe('Crawl-delay', () => {
  const cases: Array<[name: string, body: string, expected: number | undefined]> = [
    ['none', 'User-agent: *\nDisallow: /x', undefined],
    ['seconds to ms', 'User-agent: *\nCrawl-delay: 2', 2000],
    ['fractional seconds', 'User-agent: *\nCrawl-delay: 0.5', 500],
    ['zero', 'User-agent: *\nCrawl-delay: 0', 0],
    ['not a number', 'User-agent: *\nCrawl-delay: soon', undefined],
    ['negative', 'User-agent: *\nCrawl-delay: -3', undefined],
    ['our group wins', 'User-agent: *\nCrawl-delay: 10\n\nUser-agent: CrawlService\nCrawl-delay: 1', 1000],
    [
      'our group without a delay has none',
      'User-agent: *\nCrawl-delay: 10\n\nUser-agent: CrawlService\nDisallow: /x',
      undefined,
    ],
    ['another bot delay does not apply', 'User-agent: Googlebot\nCrawl-delay: 10', undefined],
  ];
  for (const [name, body, expected] of cases) {
    it(`${name} -> ${expected}`, () => assert.equal(parseRobots(ROBOTS_URL, body, UA).crawlDelayMs(), expected));
  }
});

describe('Sitemap lines', () => {
  it('are listed, absolute, once each, whatever group they appear in', () => {
    const body = [
      'Sitemap: https://example.com/sitemap.xml',
      'User-agent: Googlebot',
      'Sitemap: /news-sitemap.xml',
      'Disallow: /',
      'sitemap: https://cdn.example.net/s.xml',
      'Sitemap: https://example.com/sitemap.xml',
      'Sitemap: ftp://example.com/x.xml',
    ].join('\n');
    assert.deepEqual(parseRobots(ROBOTS_URL, body, UA).sitemaps(), [
      'https://example.com/sitemap.xml',
      'https://example.com/news-sitemap.xml',
      'https://cdn.example.net/s.xml',
    ]);
  });
  it('none -> empty list', () =>
    assert.deepEqual(parseRobots(ROBOTS_URL, 'User-agent: *\nDisallow:', UA).sitemaps(), []));
  it('callers cannot change the stored list', () => {
    const rules = parseRobots(ROBOTS_URL, 'Sitemap: /s.xml', UA);
    rules.sitemaps().push('x');
    assert.deepEqual(rules.sitemaps(), ['https://example.com/s.xml']);
  });
});

describe('robots.txt that could not be read', () => {
  it('4xx (including 404): allow all', () => {
    const rules = allowAllRobots();
    assert.equal(rules.isAllowed('https://example.com/anything'), true);
    assert.equal(rules.crawlDelayMs(), undefined);
    assert.deepEqual(rules.sitemaps(), []);
  });
  it('5xx or unreachable: disallow all', () => {
    const rules = disallowAllRobots();
    assert.equal(rules.isAllowed('https://example.com/'), false);
    assert.equal(rules.isAllowed('https://example.com/anything'), false);
    assert.equal(rules.crawlDelayMs(), undefined);
    assert.deepEqual(rules.sitemaps(), []);
  });
});

describe('robotsUrlFor', () => {
  const cases: Array<[string, string]> = [
    ['https://example.com/a/b?c=1#d', 'https://example.com/robots.txt'],
    ['http://Example.COM:80/x', 'http://example.com/robots.txt'],
    ['https://example.com:8443/x', 'https://example.com:8443/robots.txt'],
    ['https://user:pw@example.com/x', 'https://example.com/robots.txt'],
    ['http://[::1]:3000/x', 'http://[::1]:3000/robots.txt'],
    ['https://café.example/', 'https://xn--caf-dma.example/robots.txt'],
  ];
  for (const [url, expected] of cases) it(`${url} -> ${expected}`, () => assert.equal(robotsUrlFor(url), expected));
  for (const url of ['ftp://example.com/', 'not a url', '']) {
    it(`throws for ${JSON.stringify(url)}`, () => assert.throws(() => robotsUrlFor(url), TypeError));
  }
});

describe('productToken', () => {
  const cases: Array<[string, string]> = [
    ['CrawlService/0.1 (+https://github.com/crawlservice)', 'crawlservice'],
    ['CrawlService', 'crawlservice'],
    ['my_bot-2/1.0', 'my_bot-2'],
    ['  SpaceBot 1.0', 'spacebot'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36', '*'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'googlebot'],
    ['Mozilla/5.0 (compatible; CrawlService/0.1)', 'crawlservice'],
    ['', '*'],
    ['1234', '*'],
  ];
  for (const [ua, expected] of cases)
    it(`${JSON.stringify(ua)} -> ${expected}`, () => assert.equal(productToken(ua), expected));
});
