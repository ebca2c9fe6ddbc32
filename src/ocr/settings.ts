// The OCR settings (OCR_*, docs/configuration.md), as config.ts reads them, and where the models are.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The English model shipped with the npm package @tesseract.js-data/eng (the accurate "best_int" LSTM model). */
export function bundledLangPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

/** What is wrong when a language's model is not in `langPath`, else undefined. */
export function missingLanguageFiles(langs: readonly string[], langPath: string): string | undefined {
  const missing = langs.filter((lang) => !fs.existsSync(path.join(langPath, `${lang}.traineddata.gz`)));
  if (missing.length === 0) return undefined;
  return `OCR_LANGS names ${missing.join(', ')}, but ${missing.map((l) => `${l}.traineddata.gz`).join(', ')} is not in ${langPath} (OCR_LANG_PATH); see docs/ocr.md`;
}
export interface OcrConfig {
  threads: number;
  langs: string[];
  /** OCR_LANG_PATH, by default the English model of the npm package @tesseract.js-data/eng. */
  langPath: string;
  maxImages: number;
  maxBytes: number;
  maxInputPixels: number;
  maxPixels: number;
  timeoutMs: number;
  pageTimeoutMs: number;
  cacheEntries: number;
}
