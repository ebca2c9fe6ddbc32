// The page cache: fetched pages keyed by URL and the options that change what is fetched.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

export interface CachedPage {
  url: string;
  finalUrl: string;
  statusCode: number;
  contentType: string;
  headers: Record<string, string>;
  body: string;
  engine: string;
  cachedAt: string;
}

/**
 * The cache holds the fetched page, not its extraction: extraction options (formats,
 * main content, tags) are applied per request, so entries can never leak one request's
 * options into another's answer. What changes the fetched bytes is in the key.
 */
export function cacheKey(url: string, fetchOptions: { engine: string; proxy?: string }): string {
  const u = new URL(url);
  u.hash = '';
  return createHash('sha256')
    .update(JSON.stringify([u.href, fetchOptions.engine, fetchOptions.proxy ?? '']))
    .digest('hex');
}

export class PageCache {
  constructor(private readonly db: Kysely<Database>) {}

  /** The entry if it is at most `maxAgeMs` old at `now`. */
  async read(key: string, maxAgeMs: number, now: Date): Promise<CachedPage | undefined> {
    const oldest = new Date(now.getTime() - maxAgeMs).toISOString();
    const row = await this.db
      .selectFrom('page_cache')
      .selectAll()
      .where('cache_key', '=', key)
      .where('created_at', '>=', oldest)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      url: row.url,
      finalUrl: row.final_url,
      statusCode: row.status_code,
      contentType: row.content_type,
      headers: JSON.parse(row.headers) as Record<string, string>,
      body: row.body,
      engine: row.engine,
      cachedAt: row.created_at,
    };
  }

  async write(key: string, page: CachedPage): Promise<void> {
    const values = {
      cache_key: key,
      url: page.url,
      final_url: page.finalUrl,
      status_code: page.statusCode,
      content_type: page.contentType,
      headers: JSON.stringify(page.headers),
      body: page.body,
      engine: page.engine,
      created_at: page.cachedAt,
    };
    await this.db
      .insertInto('page_cache')
      .values(values)
      .onConflict((oc) => oc.column('cache_key').doUpdateSet(values))
      .execute();
  }

  /** Drops entries older than `before`; returns how many. */
  async sweep(before: Date): Promise<number> {
    const result = await this.db
      .deleteFrom('page_cache')
      .where('created_at', '<', before.toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
