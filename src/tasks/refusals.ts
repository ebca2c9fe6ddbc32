// What the scrape and crawl services would refuse in a task's payload, found when the task is saved rather than when it
// first runs.
import { type CrawlRequest, crawlRefusals, resolveCrawlOptions } from '../crawl/schema.js';
import { blockedTarget, type TargetGuard } from '../crawl/seed-guard.js';
import type { ValidationIssue } from '../domain/errors.js';
import { type Capabilities, unsupportedOptions } from '../scrape/capabilities.js';
import { resolvePageOptions, type ScrapeRequest } from '../scrape/schema.js';
import type { SearchRequest } from '../search/schema.js';
import type { TaskType } from './schema.js';

/**
 * Issues for what the scrape or crawl would refuse when the task runs (a browser-only option
 * without Chromium, a structured-extraction format, an unknown template), under `task_payload`.
 * The payload has already passed its schema. Field paths follow the crawl route's: a page option
 * of a crawl is reported under `task_payload.options.<field>` whether it was given at the top of
 * the options or in `scrape_options`.
 */
export function payloadRefusals(
  type: TaskType,
  payload: Record<string, unknown>,
  caps: Capabilities,
  searchRefusals: (request: SearchRequest) => ValidationIssue[],
): ValidationIssue[] {
  if (type === 'search') {
    return searchRefusals(payload as SearchRequest).map((issue) => ({
      ...issue,
      field: `task_payload.${issue.field}`,
    }));
  }
  if (type === 'scrape') {
    return unsupportedOptions(resolvePageOptions(payload as ScrapeRequest), caps, 'task_payload');
  }
  if (type === 'crawl') {
    const { url, engine, options } = payload as {
      url: string;
      engine?: CrawlRequest['engine'];
      options?: Partial<CrawlRequest>;
    };
    const request = { ...options, url, ...(engine ? { engine } : {}) } as CrawlRequest;
    return crawlRefusals(request, resolveCrawlOptions(request), caps).map((issue) => ({
      ...issue,
      field: issue.field === 'engine' ? 'task_payload.engine' : `task_payload.options.${issue.field}`,
    }));
  }
  return [];
}

/**
 * The address guard's refusal of the URL a scrape, crawl or template task would fetch, under
 * `task_payload.url`: the same check as a crawl's seed at creation (a private literal, or a name
 * resolving to a private address), so a task cannot be saved to fetch an internal address every
 * minute. A name that does not resolve now is accepted; its executions fail with the reason.
 */
export async function payloadTargetRefusals(
  payload: Record<string, unknown>,
  guard: TargetGuard,
): Promise<ValidationIssue[]> {
  if (typeof payload.url !== 'string') return [];
  const blocked = await blockedTarget(payload.url, guard);
  return blocked ? [{ field: 'task_payload.url', code: 'custom', message: blocked.message }] : [];
}
