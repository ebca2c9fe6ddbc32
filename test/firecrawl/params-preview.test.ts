// The rules that read crawl options from a sentence (POST /v2/crawl/params-preview, docs/firecrawl.md).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { previewCrawlOptions } from '../../src/firecrawl/params-preview.js';

it('reads sections to keep and leave out, limits, depth and scope words', () => {
  assert.deepEqual(previewCrawlOptions('Only the blog posts, at most 50 pages'), {
    limit: 50,
    includePaths: ['^/blog(?:/|$)'],
    crawlEntireDomain: true,
  });
  assert.deepEqual(previewCrawlOptions('crawl /docs/api and skip /docs/legacy, 3 levels deep'), {
    maxDiscoveryDepth: 3,
    includePaths: ['^/docs/api(?:/|$)'],
    excludePaths: ['^/docs/legacy(?:/|$)'],
    crawlEntireDomain: true,
  });
  assert.deepEqual(previewCrawlOptions('everything on the whole site including subdomains but not the careers pages'), {
    crawlEntireDomain: true,
    allowSubdomains: true,
    excludePaths: ['^/careers(?:/|$)'],
  });
  assert.deepEqual(previewCrawlOptions('no more than 10 pages, follow external links'), {
    limit: 10,
    allowExternalLinks: true,
  });
});

it('finds nothing it does not know, caps numbers at the limits, and escapes paths for the regex rules', () => {
  assert.deepEqual(previewCrawlOptions('pages in English please'), {});
  assert.deepEqual(previewCrawlOptions('up to 9999999 pages, depth 500'), { limit: 100_000, maxDiscoveryDepth: 100 });
  assert.deepEqual(previewCrawlOptions('only /v1.2/docs'), {
    includePaths: ['^/v1\\.2/docs(?:/|$)'],
    crawlEntireDomain: true,
  });
  // A long hostile prompt is read in one pass, and cut at 10,000 characters.
  const long = `${'only '.repeat(50_000)}/x`;
  assert.deepEqual(previewCrawlOptions(long), {});
});

it('suggests only rules a crawl accepts: no empty path, at most 100 rules, none too long', () => {
  assert.deepEqual(previewCrawlOptions('only crawl // pages'), {});
  const many = Array.from({ length: 300 }, (_, i) => `/p${i}`).join(' ');
  const options = previewCrawlOptions(`only ${many}`);
  assert.equal(options.includePaths?.length, 100);
  const long = previewCrawlOptions(`only /${'a'.repeat(3000)}`);
  assert.equal(long.includePaths, undefined);
});
