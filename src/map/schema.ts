// The request schema of POST /v1/map and the caps a map works under (docs/api.md, "POST /v1/map").
import { z } from 'zod';
import { httpUrl, MAX_TIMEOUT_MS } from '../scrape/schema.js';

const MIB = 1024 * 1024;

export const MAP_LIMITS = {
  /** Links answered when the request names no `limit`. */
  defaultLimit: 5000,
  /** The largest `limit` accepted (400 above). */
  maxLimit: 50_000,
  /** The whole call's time when the request names no `timeout`. */
  defaultTimeoutMs: 60_000,
  /** Decompressed bytes of one sitemap: the sitemaps protocol's own maximum (50 MB). */
  sitemapBytes: 50 * MIB,
  /** Decompressed bytes of all the sitemaps of one call. */
  totalSitemapBytes: 100 * MIB,
  /** <loc> entries read from one sitemap: the protocol's maximum (50,000). */
  sitemapEntries: 50_000,
  /** <loc> entries read from all the sitemaps of one call (duplicates and links of other sites included). */
  sitemapEntriesPerCall: 500_000,
  /** Sitemaps fetched by one call, robots.txt's and /sitemap.xml included. */
  sitemapsPerCall: 100,
  /** How deep indexes are followed: a sitemap named by robots.txt is depth 0, one its index names depth 1. */
  sitemapDepth: 5,
  /** Sitemaps fetched at once by one call. */
  sitemapConcurrency: 4,
} as const;

export const mapRequestSchema = z
  .strictObject({
    url: httpUrl,
    limit: z.number().int().min(1).max(MAP_LIMITS.maxLimit).optional(),
    include_subdomains: z.boolean().optional(),
    ignore_sitemap: z.boolean().optional(),
    /** The start page may come from the page cache when at most this old (ms); 0 always fetches. */
    max_age: z.number().int().min(0).optional(),
    use_index: z.boolean().optional(),
    /** The whole map's time (ms): robots.txt, sitemaps and the start page. */
    timeout: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional(),
  })
  .meta({ id: 'MapRequest' });
export type MapRequest = z.infer<typeof mapRequestSchema>;
