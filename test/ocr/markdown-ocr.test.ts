// The markdown side of OCR: which images are found (in linear time on hostile markdown), and the address guard on
// image URLs.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { OcrCache } from '../../src/ocr/cache.js';
import { bundledLangPath, OcrEngine } from '../../src/ocr/engine.js';
import { findImages, MarkdownOcr } from '../../src/ocr/markdown.js';
import { cpuTimed } from '../helpers/cpu-time.js';

const MB = 1024 * 1024;

describe('findImages', () => {
  it('finds images with titles and angle-bracket URLs, relative to the page, and not links', () => {
    const markdown = [
      '# Title',
      'Text ![logo](/img/logo.png "The logo") more ![](<chart 1.png>)',
      '[a link](/page) and [![badge](https://ci.example/badge.svg)](https://ci.example)',
    ].join('\n');
    const found = findImages(markdown, 'https://site.example/docs/page');
    assert.deepEqual(
      found.map((f) => [f.url, f.alt]),
      [
        ['https://site.example/img/logo.png', 'logo'],
        ['https://site.example/docs/chart%201.png', ''],
        ['https://ci.example/badge.svg', 'badge'],
      ],
    );
  });

  it('scans hostile markdown in time linear in its size', () => {
    const inputs = {
      'unclosed image starts': '!['.repeat(MB / 2),
      'alt without a URL': `![${'a'.repeat(999)}]`.repeat(1024),
      'URL without an end': `![a](${'u'.repeat(MB)}`,
      'titles without an end': '![a](u "'.repeat(MB / 8),
      'empty images without an end': '![]('.repeat(MB / 4),
    };
    for (const [name, markdown] of Object.entries(inputs)) {
      const { ms } = cpuTimed(() => findImages(markdown, 'https://site.example/'));
      assert.ok(ms < 1000, `${name}: ${Math.round(ms)} ms of CPU`);
    }
  });
});

describe('MarkdownOcr and the address guard', () => {
  const engine = new OcrEngine({ threads: 1, langs: ['eng'], langPath: bundledLangPath(), timeoutMs: 10_000 });
  after(() => engine.close());

  it('refuses images on private and local addresses, before any byte is read', async () => {
    const ocr = new MarkdownOcr(engine, new OcrCache(10), {
      maxImages: 10,
      maxBytes: MB,
      maxInputPixels: 10_000_000,
      maxPixels: 4_000_000,
      timeoutMs: 5000,
      pageTimeoutMs: 10_000,
    });
    const markdown =
      '![a](http://127.0.0.1:9/a.png)\n![b](http://10.1.2.3/b.png)\n![c](http://[::1]/c.png)\n![d](http://metadata.internal/d.png)';
    const { markdown: out, report } = await ocr.enhance(markdown, 'https://site.example/', {
      userAgent: 'test',
      allowPrivateAddresses: false,
      // Every name leads to the cloud metadata address.
      resolve: async () => [{ address: '169.254.169.254', family: 4 }],
    });
    assert.equal(out, markdown);
    assert.deepEqual(
      report.skipped.map((s) => s.reason),
      ['blocked', 'blocked', 'blocked', 'blocked'],
    );
    assert.equal(report.recognized, 0);
  });
});
