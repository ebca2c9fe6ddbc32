// OCR of a page's markdown images: each image's text goes into the markdown right after the line that shows it, as a
// quote block (docs/ocr.md). A page never fails because of an image: what was skipped, and why, is in its metadata.
import { OcrCache } from './cache.js';
import { OcrEngine, OcrTimeoutError } from './engine.js';
import { fetchImage, type ImageFetchContext, type ImageLimits, ImageSkipped, prepareImage } from './image.js';

export interface OcrSettings extends ImageLimits {
  /** Images read per page at most (OCR_MAX_IMAGES); the others are skipped as `image_limit`. */
  maxImages: number;
  /** Time for all of a page's images (OCR_PAGE_TIMEOUT_MS); images not done by then are skipped as `page_timeout`. */
  pageTimeoutMs: number;
}

export interface SkippedImage {
  url: string;
  reason: string;
  message: string;
}

/** `metadata.ocr` of a page. */
export interface OcrReport {
  images: number;
  recognized: number;
  /** Of the recognized, those whose text came from the cache (an image seen before, by its content). */
  cached: number;
  skipped: SkippedImage[];
  ms: number;
}

/** Labels the text of an image in the markdown. */
export const OCR_LABEL = 'Text in image:';

// Linear on hostile markdown (a line of a million '!['): no run may cross the next bracket, and every run is bounded.
// Alt text with brackets and URLs with parentheses (rare) are not read.
const IMAGE =
  /!\[([^[\]\n]{0,1000})\]\(\s{0,8}(<[^<>\n]{1,4096}>|[^\s()<>]{1,4096})(?:\s{1,8}"[^"\n]{0,1000}")?\s{0,8}\)/g;

export interface Found {
  url: string;
  alt: string;
  /** Index of the end of the line that shows it. */
  lineEnd: number;
}

export function findImages(markdown: string, baseUrl: string): Found[] {
  const found: Found[] = [];
  for (const match of markdown.matchAll(IMAGE)) {
    const raw = (match[2] as string).replace(/^<|>$/g, '');
    let url: string;
    try {
      url = new URL(raw, baseUrl).href;
    } catch {
      continue;
    }
    const end = markdown.indexOf('\n', match.index);
    found.push({ url, alt: match[1] as string, lineEnd: end < 0 ? markdown.length : end });
  }
  return found;
}

function quoteBlock(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.length === 0 ? '' : `\n\n> ${OCR_LABEL}\n${lines.map((l) => `> ${l}`).join('\n')}`;
}

export class MarkdownOcr {
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(
    private readonly engine: OcrEngine,
    private readonly cache: OcrCache,
    private readonly settings: OcrSettings,
  ) {}

  async enhance(
    markdown: string,
    baseUrl: string,
    ctx: ImageFetchContext,
  ): Promise<{ markdown: string; report: OcrReport }> {
    const started = performance.now();
    const images = findImages(markdown, baseUrl);
    const report: OcrReport = { images: images.length, recognized: 0, cached: 0, skipped: [], ms: 0 };
    const deadline = AbortSignal.timeout(this.settings.pageTimeoutMs);
    const texts = new Map<Found, string>();
    const chosen = images.slice(0, this.settings.maxImages);
    for (const image of images.slice(this.settings.maxImages))
      report.skipped.push({
        url: image.url,
        reason: 'image_limit',
        message: `Over ${this.settings.maxImages} images on the page (OCR_MAX_IMAGES)`,
      });
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, deadline]) : deadline;
    // Images one after another: the engine's workers are shared by every page, and one page must not take them all.
    for (const image of chosen) {
      if (ctx.signal?.aborted) break;
      if (deadline.aborted) {
        report.skipped.push({
          url: image.url,
          reason: 'page_timeout',
          message: `The page's images took over ${this.settings.pageTimeoutMs} ms (OCR_PAGE_TIMEOUT_MS)`,
        });
        continue;
      }
      try {
        const { text, cached } = await this.read(image.url, { ...ctx, signal });
        if (cached) report.cached++;
        report.recognized++;
        texts.set(image, text);
      } catch (error) {
        report.skipped.push(this.skipOf(image.url, error, deadline.aborted));
      }
    }
    report.ms = Math.round(performance.now() - started);
    return { markdown: insertTexts(markdown, texts), report };
  }

  private async read(url: string, ctx: ImageFetchContext): Promise<{ text: string; cached: boolean }> {
    if (!/^https?:/i.test(url)) throw new ImageSkipped('unsupported_type', 'Only http(s) images are read');
    const bytes = await fetchImage(url, this.settings, ctx);
    const key = OcrCache.keyOf(bytes);
    const known = this.cache.get(key);
    if (known !== undefined) return { text: known, cached: true };
    // Pages of a crawl read at once often show the same image: the first recognition is shared, not repeated.
    const pending = this.inFlight.get(key);
    if (pending) return { text: await pending, cached: true };
    const recognition = (async () => {
      const png = await prepareImage(bytes, this.settings);
      return (await this.engine.recognize(png, ctx.signal)).trim();
    })();
    this.inFlight.set(key, recognition);
    try {
      const text = await recognition;
      this.cache.set(key, text);
      return { text, cached: false };
    } finally {
      this.inFlight.delete(key);
    }
  }

  private skipOf(url: string, error: unknown, pastDeadline: boolean): SkippedImage {
    if (error instanceof ImageSkipped) return { url, reason: error.reason, message: error.message };
    if (error instanceof OcrTimeoutError) return { url, reason: 'ocr_timeout', message: error.message };
    if (pastDeadline)
      return {
        url,
        reason: 'page_timeout',
        message: `The page's images took over ${this.settings.pageTimeoutMs} ms (OCR_PAGE_TIMEOUT_MS)`,
      };
    return { url, reason: 'ocr_failed', message: error instanceof Error ? error.message : String(error) };
  }
}

/** The markdown with each image's text after the line that shows it (in the images' order on that line). */
function insertTexts(markdown: string, texts: Map<Found, string>): string {
  const byLine = new Map<number, string>();
  for (const [image, text] of texts) {
    const block = quoteBlock(text);
    if (block) byLine.set(image.lineEnd, (byLine.get(image.lineEnd) ?? '') + block);
  }
  if (byLine.size === 0) return markdown;
  let out = '';
  let from = 0;
  for (const at of [...byLine.keys()].sort((a, b) => a - b)) {
    out += `${markdown.slice(from, at)}${byLine.get(at) ?? ''}${at < markdown.length ? '\n' : ''}`;
    from = at;
  }
  return out + markdown.slice(from);
}
