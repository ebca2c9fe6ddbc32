// OCR of markdown images, built from the settings (docs/ocr.md).
import type { OcrConfig } from './settings.js';
import { OcrCache } from './cache.js';
import { OcrEngine } from './engine.js';
import { MarkdownOcr } from './markdown.js';

export { MarkdownOcr } from './markdown.js';
export type { OcrReport } from './markdown.js';

export function createMarkdownOcr(config: OcrConfig): { engine: OcrEngine; markdown: MarkdownOcr } {
  const engine = new OcrEngine({
    threads: config.threads,
    langs: config.langs,
    langPath: config.langPath,
    timeoutMs: config.timeoutMs,
  });
  const markdown = new MarkdownOcr(engine, new OcrCache(config.cacheEntries), {
    maxImages: config.maxImages,
    maxBytes: config.maxBytes,
    maxInputPixels: config.maxInputPixels,
    maxPixels: config.maxPixels,
    timeoutMs: config.timeoutMs,
    pageTimeoutMs: config.pageTimeoutMs,
  });
  return { engine, markdown };
}
