// The `index` engine: the key's own saved pages, searched in the database (works with no network at all).
import type { ValidationIssue } from '../domain/errors.js';
import type { Clock } from '../util/time.js';
import type { SearchEngine, SearchHit, SearchQuery, TimeRange } from './engine.js';
import type { SearchIndex } from '../search-index/index-store.js';
import { parseQuery } from '../search-index/query-terms.js';

const RANGE_MS: Record<TimeRange, number> = {
  day: 24 * 3600_000,
  week: 7 * 24 * 3600_000,
  month: 31 * 24 * 3600_000,
  year: 366 * 24 * 3600_000,
};

export function createIndexEngine(index: SearchIndex, clock: Clock): SearchEngine {
  return {
    name: 'index',
    check(query: SearchQuery): ValidationIssue[] {
      // The index holds web pages only; asking it for images or news gets a clear no, not web pages.
      if (query.source !== 'web')
        return [
          {
            field: 'sources',
            code: 'custom',
            message: `The index engine searches saved web pages only; sources '${query.source}' needs the searxng engine`,
          },
        ];
      if (parseQuery(query.query).required.length === 0)
        return [
          {
            field: 'query',
            code: 'custom',
            message: 'The query needs at least one word to look for (letters or digits, not only -exclusions or site:)',
          },
        ];
      return [];
    },
    async search(ownerId: string, query: SearchQuery): Promise<SearchHit[]> {
      const terms = parseQuery(query.query);
      const since =
        query.timeRange !== undefined
          ? new Date(clock().getTime() - RANGE_MS[query.timeRange]).toISOString()
          : undefined;
      const hits = await index.search(ownerId, {
        terms,
        limit: query.limit,
        offset: query.offset,
        ...(since !== undefined ? { since } : {}),
        ...(query.lang !== undefined ? { language: query.lang } : {}),
      });
      return hits.map((hit) => ({
        title: hit.title,
        url: hit.url,
        description: hit.snippet,
        source: 'index',
        extra: { indexed_at: hit.indexedAt, indexed_by_job: hit.jobId },
      }));
    },
  };
}
