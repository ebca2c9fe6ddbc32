// What the scrape and crawl services would refuse in a task's payload, found when the task is saved rather than when it first runs.
import { resolveCrawlOptions, type CrawlRequest } from '../crawl/schema.js';
import type { ValidationIssue } from '../http/errors.js';
import { type Capabilities, unsupportedOptions } from '../scrape/capabilities.js';
import { resolvePageOptions, type ScrapeRequest } from '../scrape/schema.js';
import type { TaskType } from './schema.js';

/**
 * Issues for options this deployment cannot serve (a browser-only option without Chromium, a
 * structured-extraction format) and for unknown templates, under `task_payload`. The payload
 * has already passed its schema. Field paths follow the crawl route's: a page option of a crawl
 * is reported under `task_payload.options.<field>` whether it was given at the top of the
 * options or in `scrape_options`.
 */
export function payloadRefusals(type: TaskType, payload: Record<string, unknown>, caps: Capabilities): ValidationIssue[] {
  if (type === 'scrape') {
    return unsupportedOptions(resolvePageOptions(payload as ScrapeRequest), caps, 'task_payload');
  }
  if (type === 'crawl') {
    const { url, engine, options } = payload as { url: string; engine?: CrawlRequest['engine']; options?: Partial<CrawlRequest> };
    if (options?.template_id !== undefined) {
      return [{ field: 'task_payload.options.template_id', code: 'custom', message: `Template '${options.template_id}' not found` }];
    }
    const request = { ...options, url, ...(engine ? { engine } : {}) } as CrawlRequest;
    return unsupportedOptions(resolveCrawlOptions(request).page, caps).map((issue) => ({
      ...issue,
      field: issue.field === 'engine' ? 'task_payload.engine' : `task_payload.options.${issue.field}`,
    }));
  }
  return [];
}
