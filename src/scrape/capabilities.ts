// Which requested features this deployment can serve; the rest are refused up front with a 400 that says why.
import type { ValidationIssue } from '../domain/errors.js';
import { requestProxyRefusal, type ProxyPolicy } from '../net/proxy-policy.js';
import type { PageOptions } from './schema.js';

export interface Capabilities {
  browser: boolean;
  structuredExtraction: boolean;
  ocr: boolean;
  /** Which proxies requests may name (OUTBOUND_PROXY, REQUEST_PROXY_ALLOWLIST, ALLOW_LOCAL_TARGETS). */
  proxyPolicy: ProxyPolicy;
}

/** The guard's defaults: no operator proxy, no allow-list, private proxies refused. */
export const GUARDED_PROXY_POLICY: ProxyPolicy = { allowlist: [], allowPrivate: false };

/** What a deployment offers; `browser` is whether Chromium was found at CHROMIUM_PATH. */
export function deploymentCapabilities(
  browser: boolean,
  proxyPolicy: ProxyPolicy = GUARDED_PROXY_POLICY,
): Capabilities {
  return { browser, structuredExtraction: false, ocr: false, proxyPolicy };
}

const NO_BROWSER =
  'needs a browser engine (Playwright or Puppeteer), and no Chromium is installed for this service: install it (apt-get install -y chromium) or set CHROMIUM_PATH, then restart';
const NOT_CHEERIO = "needs a browser engine: use engine 'auto', 'playwright' or 'puppeteer' instead of 'cheerio'";

/** Issues for every option that cannot be honoured; `prefix` is the field path of the options object. */
export function unsupportedOptions(options: PageOptions, caps: Capabilities, prefix = ''): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const at = (field: string) => (prefix ? `${prefix}.${field}` : field);
  const refuse = (field: string, message: string) => issues.push({ field: at(field), message, code: 'custom' });

  // Without Chromium nothing browser-only can run; with it, only the explicit HTTP engine cannot.
  const why = !caps.browser ? NO_BROWSER : options.engine === 'cheerio' ? NOT_CHEERIO : undefined;
  if (why !== undefined) {
    if (!caps.browser && (options.engine === 'playwright' || options.engine === 'puppeteer')) {
      refuse('engine', `Engine '${options.engine}' ${NO_BROWSER}; or use 'auto' or 'cheerio'`);
    }
    options.formats.forEach((format, i) => {
      if (format === 'screenshot' || format === 'screenshot@fullPage')
        refuse(`formats.${i}`, `Format '${format}' ${why}`);
    });
    if (options.waitFor !== undefined) refuse('wait_for', `wait_for ${why}`);
    if (options.waitUntil !== undefined) refuse('wait_until', `wait_until ${why}`);
    if (options.waitForSelector !== undefined) refuse('wait_for_selector', `wait_for_selector ${why}`);
  }
  if (!caps.structuredExtraction) {
    options.formats.forEach((format, i) => {
      if (format === 'json' || format === 'summary') {
        refuse(
          `formats.${i}`,
          `Format '${format}' needs an LLM provider for structured extraction, which is not available yet`,
        );
      }
    });
    if (options.jsonOptions !== undefined) refuse('json_options', 'Structured JSON extraction is not available yet');
  }
  if (!caps.ocr && options.ocr) refuse('ocr_options', 'OCR of markdown images is not available yet');
  // A private proxy is refused up front, as webhooks refuse private URLs (names are checked at connect time).
  const proxyRefused = options.proxy === undefined ? undefined : requestProxyRefusal(options.proxy, caps.proxyPolicy);
  if (proxyRefused !== undefined) refuse('proxy', proxyRefused);
  return issues;
}
