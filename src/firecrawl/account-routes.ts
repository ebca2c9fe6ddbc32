// Firecrawl's v2 account routes answered from this service's own counters, and the Firecrawl features it does not
// offer, each answered with a 501 in Firecrawl's error shape that names it (docs/firecrawl.md).
import type { FastifyInstance } from 'fastify';
import { ownerOf } from '../http/auth.js';
import { notOffered } from './errors.js';

const tags = ['firecrawl'];

/** What the account routes read: the key's usage from its jobs, and the server's page concurrency. */
export interface AccountRouteDeps {
  usage: (ownerId: string) => Promise<{ creditsUsed: number; pending: number; lastCompletedAt: string | null }>;
  /** Pages the worker runs at once (CRAWL_CONCURRENCY): the nearest thing to a plan's concurrency here. */
  maxConcurrency: number;
}

/**
 * This server has no plan and no credit balance: `remainingCredits` says how many are left before a limit stops
 * work, and there is none. A number, so clients that compare it work; the largest exact integer of JSON readers.
 */
const UNLIMITED = Number.MAX_SAFE_INTEGER;

/** Firecrawl paths (method and route) of features with no equivalent here, and how each is named in the answer. */
const NOT_OFFERED: Array<[method: 'GET' | 'POST' | 'DELETE' | 'PATCH' | 'PUT', path: string, feature: string]> = [
  ['POST', '/agent', 'The agent'],
  ['GET', '/agent', 'The agent'],
  ['GET', '/agent/*', 'The agent'],
  ['DELETE', '/agent/*', 'The agent'],
  ['POST', '/browser', 'Browser sessions'],
  ['GET', '/browser', 'Browser sessions'],
  ['POST', '/browser/*', 'Browser sessions'],
  ['DELETE', '/browser/*', 'Browser sessions'],
  ['POST', '/scrape/:jobId/interact', 'Interacting with a scraped page'],
  ['DELETE', '/scrape/:jobId/interact', 'Interacting with a scraped page'],
  ['GET', '/scrape/:jobId', 'Reading a scrape back by id'],
  ['POST', '/search/research', 'Research paper search'],
  ['GET', '/search/research/*', 'Research paper search'],
  ['POST', '/search/research/*', 'Research paper search'],
  ['POST', '/search/developer', 'Developer search'],
  ['POST', '/search/:jobId/feedback', 'Search feedback'],
  ['POST', '/feedback', 'Feedback'],
  ['POST', '/deep-research', 'Deep research'],
  ['GET', '/deep-research/:jobId', 'Deep research'],
  ['POST', '/llmstxt', 'llms.txt generation'],
  ['GET', '/llmstxt/:jobId', 'llms.txt generation'],
];

export function registerAccountRoutes(app: FastifyInstance, deps: AccountRouteDeps): void {
  app.get('/concurrency-check', { schema: { tags, summary: 'Jobs running now (Firecrawl v2)' } }, async (request) => {
    const usage = await deps.usage(ownerOf(request));
    return { success: true, concurrency: usage.pending, maxConcurrency: deps.maxConcurrency };
  });

  app.get('/team/queue-status', { schema: { tags, summary: 'Queue of this key (Firecrawl v2)' } }, async (request) => {
    const usage = await deps.usage(ownerOf(request));
    return {
      success: true,
      jobsInQueue: usage.pending,
      activeJobsInQueue: usage.pending,
      waitingJobsInQueue: 0,
      maxConcurrency: deps.maxConcurrency,
      mostRecentSuccess: usage.lastCompletedAt,
    };
  });

  const creditUsage = async (ownerId: string) => {
    const usage = await deps.usage(ownerId);
    return {
      remainingCredits: UNLIMITED,
      planCredits: UNLIMITED,
      billingPeriodStart: null,
      billingPeriodEnd: null,
      creditsUsed: usage.creditsUsed,
    };
  };
  app.get(
    '/team/credit-usage',
    { schema: { tags, summary: 'Credits of this key (Firecrawl v2)' } },
    async (request) => ({
      success: true,
      data: await creditUsage(ownerOf(request)),
    }),
  );
  app.get('/team/token-usage', { schema: { tags, summary: 'Tokens of this key (Firecrawl v2)' } }, async (request) => {
    const credits = await creditUsage(ownerOf(request));
    return {
      success: true,
      data: {
        remainingTokens: UNLIMITED,
        planTokens: UNLIMITED,
        billingPeriodStart: null,
        billingPeriodEnd: null,
        tokensUsed: 0,
        creditsUsed: credits.creditsUsed,
      },
    };
  });
  for (const kind of ['credit', 'token'] as const) {
    app.get(
      `/team/${kind}-usage/historical`,
      { schema: { tags, summary: `${kind === 'credit' ? 'Credits' : 'Tokens'} by period (Firecrawl v2)` } },
      async (request) => {
        const usage = await deps.usage(ownerOf(request));
        return {
          success: true,
          periods: [
            {
              startDate: null,
              endDate: null,
              apiKey: null,
              ...(kind === 'credit' ? { creditsUsed: usage.creditsUsed } : { tokensUsed: 0 }),
            },
          ],
        };
      },
    );
  }

  for (const [method, path, feature] of NOT_OFFERED) {
    app.route({
      method,
      url: path,
      schema: { tags, summary: `${feature}: not offered by this server (501)` },
      handler: async (request) => {
        ownerOf(request);
        throw notOffered(feature);
      },
    });
  }
}
