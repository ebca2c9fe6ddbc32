// How a job on the crawl's frontier (a crawl, a batch scrape) reads through /v2: Firecrawl's status page with its
// documents and `next`, its errors, its cancel answer. Over the same services /v1 reads (docs/firecrawl.md).
import { RESULTS_PAGE_SIZE, ROBOTS_DISALLOWED_ERROR } from '../crawl/frontier-jobs.js';
import { toFirecrawlDocument } from './document.js';

/** A results page of a job, as the crawl and batch services give it. */
interface ResultsPage {
  status: string;
  total: number;
  completed: number;
  credits_used: number;
  next?: string;
  data: Array<Record<string, unknown>>;
}

/** What a /v2 view needs of the crawl and batch services (both have these). */
export interface FrontierJobReader {
  results(ownerId: string, id: string, skip: number, baseUrl: string): Promise<ResultsPage>;
  statusAndResults(
    ownerId: string,
    id: string,
    skip: number,
    baseUrl: string,
  ): Promise<{ status: { expires_at: string; error?: { code: string; message: string } }; results: ResultsPage }>;
  failures(ownerId: string, id: string, max: number): Promise<Array<{ id: number; url: string; error: string | null }>>;
}

/** Failed pages listed by GET …/errors at most (the rest are counted in the status). */
export const MAX_ERRORS_LISTED = 1000;

/** This service's job states in Firecrawl's words: a running job is `scraping`. */
export function firecrawlStatus(status: string): 'scraping' | 'completed' | 'failed' | 'cancelled' {
  return status === 'completed' || status === 'failed' || status === 'cancelled' ? status : 'scraping';
}

/** GET /v2/crawl/:id and /v2/batch/scrape/:id: the status and one page of documents (100), `next` while more exist. */
export async function statusPage(
  reader: FrontierJobReader,
  ownerId: string,
  id: string,
  skip: number,
  baseUrl: string,
  path: string,
): Promise<Record<string, unknown>> {
  const { status, results: page } = await reader.statusAndResults(ownerId, id, skip, baseUrl);
  const more = page.next !== undefined;
  return {
    success: true,
    status: firecrawlStatus(page.status),
    completed: page.completed,
    total: page.total,
    creditsUsed: page.credits_used,
    expiresAt: status.expires_at,
    ...(more ? { next: `${baseUrl}${path}/${id}?skip=${skip + page.data.length}` } : {}),
    data: page.data.map((item) => toFirecrawlDocument(item, baseUrl, id)),
    ...(status.error !== undefined ? { error: status.error.message } : {}),
  };
}

/** GET …/:id/errors: failed pages, and those robots.txt kept out (a seed; disallowed links are never visited). */
export async function errorsOf(reader: FrontierJobReader, ownerId: string, id: string) {
  const failed = await reader.failures(ownerId, id, MAX_ERRORS_LISTED);
  return {
    success: true,
    errors: failed
      .filter((page) => page.error !== ROBOTS_DISALLOWED_ERROR)
      .map((page) => ({ id: `${id}:${page.id}`, url: page.url, error: page.error ?? 'The page failed' })),
    robotsBlocked: failed.filter((page) => page.error === ROBOTS_DISALLOWED_ERROR).map((page) => page.url),
  };
}

export { RESULTS_PAGE_SIZE };
