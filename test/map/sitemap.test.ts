// The streaming sitemap reader: what it takes from a document, however the body is cut, and where it stops.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { type SitemapSummary, SitemapReader, isReadable } from '../../src/map/sitemap.js';

async function read(
  body: Buffer | string,
  options: { chunk?: number; maxBytes?: number; budget?: number; maxEntries?: number; stopAfter?: number } = {},
): Promise<{ pages: string[]; sitemaps: string[]; summary: SitemapSummary; budgetLeft: number }> {
  const pages: string[] = [];
  const sitemaps: string[] = [];
  const budget = { remaining: options.budget ?? 1e9 };
  const reader = new SitemapReader(
    {
      page: (loc) => {
        pages.push(loc);
        return options.stopAfter === undefined || pages.length < options.stopAfter;
      },
      sitemap: (loc) => sitemaps.push(loc),
    },
    { maxBytes: options.maxBytes ?? 1e9, maxEntries: options.maxEntries ?? 1e9, budget },
  );
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const size = options.chunk ?? 65536;
  for (let i = 0; i < bytes.length; i += size) if (!(await reader.write(bytes.subarray(i, i + size)))) break;
  return { pages, sitemaps, summary: await reader.end(), budgetLeft: budget.remaining };
}

const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url><loc> https://example.com/a?x=1&amp;y=2 </loc><lastmod>2026-01-01</lastmod>
    <image:image><image:loc>https://cdn.example.com/a.png</image:loc></image:image>
    <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/a"/></url>
  <url><loc><![CDATA[https://example.com/é]]></loc></url>
  <sm:url xmlns:sm="x"><sm:loc>https://example.com/prefixed</sm:loc></sm:url>
  <url><lastmod>2026-01-01</lastmod></url>
</urlset>`;

describe('SitemapReader', () => {
  it('takes the <loc> of each <url>, entities and CDATA decoded, image and alternate links left out', async () => {
    const { pages, summary } = await read(URLSET);
    assert.deepEqual(pages, ['https://example.com/a?x=1&y=2', 'https://example.com/é', 'https://example.com/prefixed']);
    assert.equal(summary.kind, 'urlset');
    assert.equal(summary.entries, 3);
  });

  it('reads the same however the body is cut (one byte at a time, a character split), plain or gzipped', async () => {
    const whole = await read(URLSET);
    assert.deepEqual((await read(URLSET, { chunk: 1 })).pages, whole.pages);
    assert.deepEqual((await read(gzipSync(URLSET), { chunk: 1 })).pages, whole.pages);
    assert.deepEqual((await read(gzipSync(URLSET), { chunk: 7 })).pages, whole.pages);
  });

  it('an index gives sitemaps, not pages', async () => {
    const { pages, sitemaps, summary } = await read(
      '<sitemapindex><sitemap><loc>https://example.com/s1.xml</loc></sitemap><sitemap><loc>/s2.xml</loc></sitemap></sitemapindex>',
    );
    assert.deepEqual(pages, []);
    assert.deepEqual(sitemaps, ['https://example.com/s1.xml', '/s2.xml']);
    assert.equal(summary.kind, 'sitemapindex');
  });

  it('a text sitemap: one URL a line, other lines ignored', async () => {
    const { pages, summary } = await read('\uFEFFhttps://example.com/1\r\nnot a url\n\nhttp://example.com/2');
    assert.deepEqual(pages, ['https://example.com/1', 'http://example.com/2']);
    assert.equal(summary.kind, 'text');
    assert.ok(isReadable(summary));
  });

  it('what is not a sitemap is malformed and gives nothing', async () => {
    for (const body of [
      '<html><body><url><loc>https://example.com/x</loc></url></body></html>',
      '<rss><channel><item><link>https://example.com/x</link></item></channel></rss>',
      'no urls here',
      '',
    ]) {
      const { pages, summary } = await read(body);
      assert.deepEqual(pages, [], body);
      assert.ok(!isReadable(summary), body);
    }
    const corrupt = await read(Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8]));
    assert.deepEqual(corrupt.pages, []);
    assert.ok(!isReadable(corrupt.summary));
  });

  it('stops a gzip bomb at the byte cap, and spends the shared budget', async () => {
    const bomb = gzipSync(Buffer.concat([Buffer.from('<urlset>'), Buffer.alloc(16 * 1024 * 1024, ' ')]));
    assert.ok(bomb.length < 100 * 1024);
    const capped = await read(bomb, { maxBytes: 1024 * 1024 });
    assert.equal(capped.summary.stoppedBy, 'too_large');
    assert.ok(capped.summary.bytes <= 1024 * 1024);
    const budget = await read(bomb, { budget: 512 * 1024 });
    assert.equal(budget.summary.stoppedBy, 'budget');
    assert.equal(budget.budgetLeft, 0);
  });

  it('stops at the entry cap and when the handler has enough', async () => {
    const many = `<urlset>${Array.from({ length: 100 }, (_, i) => `<url><loc>https://example.com/${i}</loc></url>`).join('')}</urlset>`;
    const capped = await read(many, { maxEntries: 10 });
    assert.equal(capped.pages.length, 10);
    assert.equal(capped.summary.stoppedBy, 'entries');
    const enough = await read(many, { stopAfter: 5, chunk: 64 });
    assert.equal(enough.pages.length, 5);
    assert.equal(enough.summary.stoppedBy, 'handler');
  });
});
