// OCR of markdown images through the API: images of text drawn by the test in several fonts, sizes and formats are
// read into the markdown (html and rawHtml untouched); broken, huge, non-image and missing images are skipped with a
// reason and never fail the page; an image seen before is read from the cache; crawls read their pages' images too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { drawText, type ImageSite, startImageSite, type TextImage } from '../fixtures/text-images.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';
import { waitForCrawl } from '../fixtures/crawl-site.js';
import { until } from '../helpers/until.js';
import { allResults, createBatch, waitForBatch } from '../batch/helpers.js';

const LABEL = '> Text in image:';

/** Levenshtein distance over characters, for the character error rate. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length] as number;
}
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const errorRate = (read: string, truth: string) => distance(squash(read), squash(truth)) / squash(truth).length;

/** The quoted texts of the markdown's images, in order. */
function imageTexts(markdown: string): string[] {
  return markdown
    .split(`${LABEL}\n`)
    .slice(1)
    .map((block) =>
      block
        .split('\n')
        .filter((l) => l.startsWith('> '))
        .map((l) => l.slice(2))
        .join('\n'),
    );
}

const IMAGES: Record<string, TextImage> = {
  '/sans.png': { font: 'DejaVu Sans', size: 28, lines: ['Invoice 4711 total 129.50 EUR', 'Due on Monday 3 April'] },
  '/serif.jpg': {
    font: 'Liberation Serif',
    size: 24,
    lines: ['The river station reports', 'high water north of the bridge'],
    format: 'jpeg',
  },
  '/mono.webp': { font: 'Liberation Mono', size: 20, lines: ['order_id = 88213', 'status: shipped'], format: 'webp' },
  '/beige.gif': {
    font: 'DejaVu Serif',
    size: 32,
    lines: ['Garden opening hours'],
    background: '#f2ecd8',
    format: 'gif',
  },
};
const TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' };

let site: ImageSite;
let t: TestApp;
/** The app's clock runs at real speed; moving this fires scheduled tasks. */
let clockOffsetMs = 0;
before(async () => {
  site = await startImageSite();
  for (const [path, image] of Object.entries(IMAGES))
    site.set(path, { type: TYPES[image.format ?? 'png'], body: await drawText(image) });
  const tags = Object.keys(IMAGES)
    .map((src, i) => `<p>Figure ${i + 1}</p><img src="${src}" alt="figure ${i + 1}">`)
    .join('\n');
  site.set('/receipts', {
    type: 'text/html',
    body: `<html><head><title>Receipts</title></head><body><h1>Receipts</h1><p>Scanned papers of the month.</p>${tags}</body></html>`,
  });
  t = await startTestApp({
    clock: () => new Date(Date.now() + clockOffsetMs),
    env: { OCR_MAX_INPUT_PIXELS: '2000000', OCR_MAX_IMAGE_BYTES: '400000', OCR_MAX_IMAGES: '7' },
  });
});
after(async () => {
  await t.close();
  await site.close();
});

const scrape = (path: string, extra: Record<string, unknown> = {}) =>
  t.request('POST', '/v1/scrape', {
    body: { url: `${site.url}${path}`, max_age: 0, only_main_content: false, ocr_options: true, ...extra },
  });

describe('ocr_options', () => {
  it('reads the text of every markdown image, in four fonts and formats, and leaves html and rawHtml alone', async () => {
    const res = await scrape('/receipts', { formats: ['markdown', 'html', 'rawHtml'] });
    assert.equal(res.statusCode, 200, res.body.slice(0, 400));
    const { data } = res.json();
    const texts = imageTexts(data.markdown);
    assert.equal(texts.length, 4, data.markdown);
    Object.values(IMAGES).forEach((image, i) => {
      const rate = errorRate(texts[i] as string, image.lines.join('\n'));
      assert.ok(rate <= 0.05, `image ${i + 1}: "${texts[i]}" against "${image.lines.join(' / ')}" (CER ${rate})`);
    });
    // Each text follows the line of its image.
    assert.match(data.markdown, /!\[figure 1\]\([^)]*sans\.png\)\n\n> Text in image:\n> Invoice 4711/);
    assert.ok(!data.html.includes('Invoice 4711'));
    assert.ok(!data.rawHtml.includes('Invoice 4711'));
    assert.equal(data.metadata.ocr.images, 4);
    assert.equal(data.metadata.ocr.recognized, 4);
    assert.deepEqual(data.metadata.ocr.skipped, []);
  });

  it('reads an image seen before from the cache, by its content', async () => {
    site.set('/logo-copy.png', { type: 'image/png', body: await drawText(IMAGES['/sans.png'] as TextImage) });
    site.set('/second', {
      type: 'text/html',
      body: '<html><body><h1>Again</h1><img src="/logo-copy.png" alt="copy"></body></html>',
    });
    const res = await scrape('/second');
    assert.equal(res.statusCode, 200, res.body.slice(0, 400));
    const { data } = res.json();
    assert.deepEqual(
      { recognized: data.metadata.ocr.recognized, cached: data.metadata.ocr.cached },
      { recognized: 1, cached: 1 },
    );
    assert.match(imageTexts(data.markdown)[0] as string, /Invoice 4711/);
  });

  it('skips broken, huge, oversized, non-image and missing images with a reason, and still answers the page', async () => {
    const noise = await sharp(Buffer.from(Array.from({ length: 400 * 400 * 3 }, (_, i) => (i * 7919) % 251)), {
      raw: { width: 400, height: 400, channels: 3 },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const wide = await sharp({ create: { width: 2000, height: 1500, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    site.set('/broken.png', { type: 'image/png', body: Buffer.from('this is not a png at all') });
    site.set('/wide.png', { type: 'image/png', body: wide });
    site.set('/noise.png', { type: 'image/png', body: noise });
    site.set('/page.html', { type: 'text/html', body: '<html><body>a page</body></html>' });
    site.set('/svg.svg', { type: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg"/>' });
    site.set('/bad', {
      type: 'text/html',
      body: `<html><body><h1>Bad images</h1>${[
        '/sans.png',
        '/broken.png',
        '/wide.png',
        '/noise.png',
        '/page.html',
        '/svg.svg',
        '/missing.png',
        '/serif.jpg',
      ]
        .map((src) => `<p><img src="${src}" alt="${src}"></p>`)
        .join('')}</body></html>`,
    });
    const res = await scrape('/bad');
    assert.equal(res.statusCode, 200, res.body.slice(0, 400));
    const { ocr } = res.json().data.metadata;
    const reasons = Object.fromEntries(
      ocr.skipped.map((s: { url: string; reason: string }) => [new URL(s.url).pathname, s.reason]),
    );
    assert.deepEqual(reasons, {
      '/broken.png': 'undecodable',
      '/wide.png': 'too_large',
      '/noise.png': 'too_large',
      '/page.html': 'unsupported_type',
      '/svg.svg': 'unsupported_type',
      '/missing.png': 'http_status',
      '/serif.jpg': 'image_limit',
    });
    assert.equal(ocr.images, 8);
    assert.equal(ocr.recognized, 1);
    assert.equal(imageTexts(res.json().data.markdown).length, 1);
  });

  it('reads the images of every page of a crawl (scrape_options)', async () => {
    const res = await t.request('POST', '/v1/crawl', {
      body: { url: `${site.url}/receipts`, limit: 1, scrape_options: { only_main_content: false, ocr_options: true } },
    });
    assert.equal(res.statusCode, 200, res.body.slice(0, 400));
    const id = res.json().data.job_id;
    const status = await waitForCrawl((url) => t.request('GET', url), id, 60_000);
    assert.equal(status.status, 'completed', JSON.stringify(status));
    const pages = (await t.request('GET', `/v1/crawl/${id}?skip=0`)).json().data;
    assert.equal(pages.length, 1);
    assert.equal(imageTexts(pages[0].markdown).length, 4);
  });
});

describe('ocr_options on pages read at once', () => {
  it('reads an image shown by two pages scraped at the same time once', async () => {
    site.set('/fresh.png', {
      type: 'image/png',
      body: await drawText({ font: 'Liberation Sans', size: 30, lines: ['Shared banner 2026'] }),
    });
    for (const path of ['/shared-a', '/shared-b'])
      site.set(path, {
        type: 'text/html',
        body: `<html><body><h1>${path}</h1><img src="/fresh.png" alt="banner"></body></html>`,
      });
    const answers = await Promise.all([scrape('/shared-a'), scrape('/shared-b')]);
    const reports = answers.map((res) => {
      assert.equal(res.statusCode, 200, res.body.slice(0, 400));
      assert.match(imageTexts(res.json().data.markdown)[0] as string, /Shared banner 2026/);
      return res.json().data.metadata.ocr;
    });
    assert.deepEqual(
      reports.map((r) => r.recognized),
      [1, 1],
    );
    assert.equal(reports[0].cached + reports[1].cached, 1, 'one recognition, shared');
  });
});

describe('ocr_options in scheduled tasks', () => {
  it("reads the images of a crawl task's pages", async () => {
    const created = await t.request('POST', '/v1/scheduled-tasks', {
      body: {
        name: 'receipts with OCR',
        cron_expression: '* * * * *',
        task_type: 'crawl',
        task_payload: {
          url: `${site.url}/receipts`,
          options: { limit: 1, scrape_options: { only_main_content: false, ocr_options: true } },
        },
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    const taskId = created.json().data.task_id as string;
    clockOffsetMs += 61_000;
    const scheduler = t.app.scheduler as NonNullable<typeof t.app.scheduler>;
    const execution = await until(
      'the execution to end',
      async () => {
        await scheduler.tick();
        const list = (await t.request('GET', `/v1/scheduled-tasks/${taskId}/executions`)).json().data as Array<
          Record<string, unknown>
        >;
        const first = list[0];
        return first && first.status !== 'running' && first.status !== 'pending' ? first : undefined;
      },
      60_000,
    );
    assert.equal(execution.status, 'completed', JSON.stringify(execution));
    const pages = (await t.request('GET', `/v1/crawl/${String(execution.job_uuid)}?skip=0`)).json().data;
    assert.equal(imageTexts(pages[0].markdown).length, 4);
  });
});

describe('ocr_options in batches', () => {
  it('reads the images of every page of a batch scrape', async () => {
    const created = await createBatch(t, {
      urls: [`${site.url}/receipts`, `${site.url}/second`],
      only_main_content: false,
      ocr_options: true,
    });
    const status = await waitForBatch(t, created.job_id, 60_000);
    assert.equal(status.status, 'completed', JSON.stringify(status));
    const { items } = await allResults(t, created.job_id);
    const counts = Object.fromEntries(
      items.map((item) => [new URL(item.url).pathname, imageTexts(String(item.markdown)).length]),
    );
    assert.deepEqual(counts, { '/receipts': 4, '/second': 1 });
  });
});

describe('ocr_options turned off', () => {
  it('is refused with the validation shape when OCR_ENABLED=false', async () => {
    const off = await startTestApp({ env: { OCR_ENABLED: 'false' } });
    try {
      const res = await off.request('POST', '/v1/scrape', { body: { url: `${site.url}/receipts`, ocr_options: true } });
      assert.equal(res.statusCode, 400);
      assert.match(res.body, /OCR_ENABLED=false/);
      assert.equal(
        res.json().details?.issues?.[0]?.field ?? res.json().details?.[0]?.field ?? 'ocr_options',
        'ocr_options',
      );
    } finally {
      await off.close();
    }
  });
});
