// The markdown side of OCR: which images are found (in linear time on hostile markdown), and the address guard on
// image URLs.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { OcrCache } from '../../src/ocr/cache.js';
import { OcrEngine } from '../../src/ocr/engine.js';
import { bundledLangPath } from '../../src/ocr/settings.js';
import { findImages, MarkdownOcr } from '../../src/ocr/markdown.js';
import { cpuTimed } from '../helpers/cpu-time.js';
import { drawText, startImageSite } from '../fixtures/text-images.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

describe('OCR settings', () => {
  it('refuses to start when a language of OCR_LANGS has no model in OCR_LANG_PATH, naming the file', () => {
    assert.throws(
      () => loadConfig({ API_KEYS: 'k', OCR_LANGS: 'eng+xyz' }),
      (error: unknown) =>
        error instanceof ConfigError && /xyz\.traineddata\.gz is not in .*OCR_LANG_PATH/.test(error.message),
    );
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'ocr-langs-'));
    assert.throws(() => loadConfig({ API_KEYS: 'k', OCR_LANG_PATH: empty }), /eng\.traineddata\.gz is not in/);
    // Off, nothing is looked for.
    assert.equal(loadConfig({ API_KEYS: 'k', OCR_LANGS: 'eng+xyz', OCR_ENABLED: 'false' }).ocr, undefined);
    assert.throws(() => loadConfig({ API_KEYS: 'k', OCR_LANGS: 'eng deu' }), /OCR_LANGS/);
  });

  it('reads the models from OCR_LANG_PATH', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ocr-langs-'));
    fs.copyFileSync(path.join(bundledLangPath(), 'eng.traineddata.gz'), path.join(dir, 'eng.traineddata.gz'));
    const config = loadConfig({ API_KEYS: 'k', OCR_LANG_PATH: dir });
    assert.equal(config.ocr?.langPath, dir);
    const engine = new OcrEngine({ threads: 1, langs: ['eng'], langPath: dir, timeoutMs: 10_000 });
    try {
      const png = await drawText({ font: 'DejaVu Sans', size: 30, lines: ['Model from elsewhere'] });
      assert.match(await engine.recognize(png), /Model from elsewhere/);
    } finally {
      await engine.close();
    }
  });
});

describe('OCR time limits', () => {
  it('skips an image whose recognition runs over its time limit, and reads the next with a new worker', async () => {
    const site = await startImageSite();
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i} of a long page of text that takes a while to read`);
    site.set('/dense.png', {
      type: 'image/png',
      body: await drawText({ font: 'DejaVu Sans', size: 12, lines, height: 1100 }),
    });
    site.set('/short.png', {
      type: 'image/png',
      body: await drawText({ font: 'DejaVu Sans', size: 40, lines: ['OK 42'] }),
    });
    // About 1.7 s of work against 500 ms; the short image needs about 0.1 s.
    const engine = new OcrEngine({ threads: 1, langs: ['eng'], langPath: bundledLangPath(), timeoutMs: 500 });
    const ocr = new MarkdownOcr(engine, new OcrCache(10), {
      maxImages: 10,
      maxBytes: MB,
      maxInputPixels: 10_000_000,
      maxPixels: 4_000_000,
      timeoutMs: 10_000,
      pageTimeoutMs: 60_000,
    });
    try {
      const md = `![dense](${site.url}/dense.png)\n\n![short](${site.url}/short.png)`;
      const { markdown, report } = await ocr.enhance(md, site.url, { userAgent: 'test', allowPrivateAddresses: true });
      assert.deepEqual(
        report.skipped.map((skip) => [new URL(skip.url).pathname, skip.reason]),
        [['/dense.png', 'ocr_timeout']],
      );
      assert.equal(report.recognized, 1);
      assert.match(markdown, /> OK 42/);
    } finally {
      await engine.close();
      await site.close();
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
