// The OCR settings (OCR_*, docs/configuration.md), as config.ts reads them.
export interface OcrConfig {
  threads: number;
  langs: string[];
  /** Undefined: the English model of the npm package @tesseract.js-data/eng. */
  langPath?: string;
  maxImages: number;
  maxBytes: number;
  maxInputPixels: number;
  maxPixels: number;
  timeoutMs: number;
  pageTimeoutMs: number;
  cacheEntries: number;
}
