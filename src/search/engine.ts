// What every search engine answers to: the query as the service understood it, and hits in rank order.
import type { ValidationIssue } from '../domain/errors.js';

export const SEARCH_SOURCES = ['web', 'images', 'news'] as const;
export type SearchSource = (typeof SEARCH_SOURCES)[number];

export const TIME_RANGES = ['day', 'week', 'month', 'year'] as const;
export type TimeRange = (typeof TIME_RANGES)[number];

/** A validated search request, engine-neutral (docs/api.md, "POST /v1/search"). */
export interface SearchQuery {
  /** Trimmed, 1–2000 characters. */
  query: string;
  /** Hits wanted after `offset` (1–100). */
  limit: number;
  /** Hits skipped from the top (0–1000). */
  offset: number;
  /** Result pages an engine that pages (SearXNG) may fetch at most (1–10). */
  pages: number;
  /** A language tag such as `en` or `de-CH`, or absent. */
  lang?: string;
  /** An ISO 3166-1 alpha-2 country code, upper case, or absent. */
  country?: string;
  timeRange?: TimeRange;
  source: SearchSource;
  /** 0 off, 1 moderate, 2 strict; absent: the engine's default. */
  safeSearch?: 0 | 1 | 2;
}

/** One result, in the engine's rank order. */
export interface SearchHit {
  title: string;
  url: string;
  /** A snippet of the page's text around the query's terms ('' when the engine has none). */
  description: string;
  /** The engine that answered: 'searxng' or 'index'. */
  source: string;
  /** Engine-specific facts (SearXNG's upstream engines, the index's job and time); JSON values only. */
  extra?: Record<string, unknown>;
}

/** Why an engine gave no answer: it is down or answered garbage (502), or it did not answer in time (504). */
export class SearchEngineError extends Error {
  constructor(
    readonly engine: string,
    readonly kind: 'unavailable' | 'timeout',
    message: string,
  ) {
    super(message);
    this.name = 'SearchEngineError';
  }
}

export interface SearchEngine {
  readonly name: string;
  /** What this engine cannot do with the query, checked before a job is made (400s); absent: it takes any. */
  check?(query: SearchQuery): ValidationIssue[];
  /** Hits offset..offset+limit of the query, in rank order; throws SearchEngineError when the engine fails. */
  search(ownerId: string, query: SearchQuery, signal?: AbortSignal): Promise<SearchHit[]>;
}
