// Which requested features this deployment can serve; the rest are refused up front with a 400 that says why.
import type { ValidationIssue } from '../domain/errors.js';
import { requestProxyRefusal, type ProxyPolicy } from '../net/proxy-policy.js';
import type { PageOptions } from './schema.js';
import { totalWaitMs } from './actions-schema.js';
import { checkJsonSchema } from './structured/schema.js';

export interface Capabilities {
  browser: boolean;
  /** A model is configured for `json` and `summary` (else the built-in rules answer them). */
  model: boolean;
  /** STRUCTURED_REQUIRE_MODEL: without a model, `json` and `summary` are refused rather than answered by rules. */
  requireModel: boolean;
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
  structured: { model: boolean; requireModel: boolean } = { model: false, requireModel: false },
  ocr = false,
): Capabilities {
  return { browser, ...structured, ocr, proxyPolicy };
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
    if (options.actions.length > 0) refuse('actions', `Browser actions ${why.replace(/^needs/, 'need')}`);
  }
  const waits = totalWaitMs(options.actions);
  if (waits > options.timeoutMs) {
    refuse(
      'actions',
      `The actions' waits add up to ${waits} ms, more than the page's timeout of ${options.timeoutMs} ms: raise timeout or wait less`,
    );
  }
  for (const issue of structuredRefusals(options, caps)) refuse(issue.field, issue.message);
  if (!caps.ocr && options.ocr) refuse('ocr_options', 'OCR of markdown images is turned off here (OCR_ENABLED=false)');
  // A private proxy is refused up front, as webhooks refuse private URLs (names are checked at connect time).
  const proxyRefused = options.proxy === undefined ? undefined : requestProxyRefusal(options.proxy, caps.proxyPolicy);
  if (proxyRefused !== undefined) refuse('proxy', proxyRefused);
  return issues;
}

/** The `json` format and its json_options, which need each other; the schema must compile (docs/structured.md). */
function structuredRefusals(options: PageOptions, caps: Capabilities): Array<{ field: string; message: string }> {
  const issues: Array<{ field: string; message: string }> = [];
  const jsonAt = options.formats.indexOf('json');
  const json = options.jsonOptions;
  if (jsonAt >= 0 && json === undefined) {
    issues.push({
      field: 'json_options',
      message: "Format 'json' needs json_options with a schema, a user_prompt or both",
    });
  }
  if (jsonAt < 0 && json !== undefined) {
    issues.push({ field: 'json_options', message: "json_options applies to the 'json' format: add 'json' to formats" });
  }
  if (json !== undefined && json.schema === undefined && (json.user_prompt ?? '').trim() === '') {
    issues.push({ field: 'json_options', message: 'json_options needs a schema, a user_prompt or both' });
  }
  if (json?.schema !== undefined) {
    const check = checkJsonSchema(json.schema);
    if (!check.ok) {
      for (const issue of check.issues) {
        issues.push({
          field: issue.path ? `json_options.schema.${issue.path}` : 'json_options.schema',
          message: issue.message,
        });
      }
    }
  }
  if (caps.requireModel && !caps.model) {
    options.formats.forEach((format, i) => {
      if (format === 'json' || format === 'summary') {
        issues.push({
          field: `formats.${i}`,
          message: `Format '${format}' needs a model here (STRUCTURED_REQUIRE_MODEL), and none is configured: set LLM_BASE_URL and LLM_MODEL`,
        });
      }
    });
  }
  return issues;
}
