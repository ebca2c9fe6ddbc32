// Which requested features this deployment can serve; the rest are refused up front with a 400 that says why.
import type { ValidationIssue } from '../http/errors.js';
import type { PageOptions } from './schema.js';

export interface Capabilities {
  browser: boolean;
  structuredExtraction: boolean;
  ocr: boolean;
}

/** What the service offers today: the plain HTTP engine only. */
export const CURRENT_CAPABILITIES: Capabilities = { browser: false, structuredExtraction: false, ocr: false };

const NO_BROWSER = 'needs a browser engine (Playwright or Puppeteer), which this deployment does not offer yet';

/** Issues for every option that cannot be honoured; `prefix` is the field path of the options object. */
export function unsupportedOptions(options: PageOptions, caps: Capabilities, prefix = ''): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const at = (field: string) => (prefix ? `${prefix}.${field}` : field);
  const refuse = (field: string, message: string) => issues.push({ field: at(field), message, code: 'custom' });

  if (!caps.browser) {
    if (options.engine === 'playwright' || options.engine === 'puppeteer') {
      refuse('engine', `Engine '${options.engine}' ${NO_BROWSER}; use 'auto' or 'cheerio'`);
    }
    options.formats.forEach((format, i) => {
      if (format === 'screenshot' || format === 'screenshot@fullPage') refuse(`formats.${i}`, `Format '${format}' ${NO_BROWSER}`);
    });
    if (options.waitFor !== undefined) refuse('wait_for', `wait_for ${NO_BROWSER}`);
    if (options.waitUntil !== undefined) refuse('wait_until', `wait_until ${NO_BROWSER}`);
    if (options.waitForSelector !== undefined) refuse('wait_for_selector', `wait_for_selector ${NO_BROWSER}`);
  }
  if (!caps.structuredExtraction) {
    options.formats.forEach((format, i) => {
      if (format === 'json' || format === 'summary') {
        refuse(`formats.${i}`, `Format '${format}' needs an LLM provider for structured extraction, which is not available yet`);
      }
    });
    if (options.jsonOptions !== undefined) refuse('json_options', 'Structured JSON extraction is not available yet');
  }
  if (!caps.ocr && options.ocr) refuse('ocr_options', 'OCR of markdown images is not available yet');
  return issues;
}
