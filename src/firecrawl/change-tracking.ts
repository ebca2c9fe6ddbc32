// Firecrawl's changeTracking format (docs/firecrawl.md, "Change tracking"): a page's markdown compared with the last
// time this key scraped the same URL under the same tag, normalized as monitors compare pages (clocks, counters and
// tokens masked), with a unified diff and, in json mode, the fields that changed. Owner of the `change_tracking` table.
import type { Kysely } from 'kysely';
import { diffJson, leavesOf } from '../monitors/json-diff.js';
import { normalizeText } from '../monitors/normalize.js';
import { diffTexts } from '../monitors/text-diff.js';
import type { Database } from '../store/schema.js';

export type ChangeStatus = 'new' | 'same' | 'changed' | 'removed';

export interface ChangeTracking {
  previousScrapeAt: string | null;
  changeStatus: ChangeStatus;
  visibility: 'visible';
  /** git-diff mode, when changed: the unified diff of the normalized markdown. */
  diff?: { text: string; truncated?: boolean };
  /** json mode, when changed: each field that differs, `{ previous, current }`. */
  json?: Record<string, { previous: unknown; current: unknown }>;
}

export interface TrackInput {
  ownerId: string;
  url: string;
  tag: string;
  markdown: string;
  /** The json extraction of this scrape (json mode). */
  json?: unknown;
  statusCode: number;
  scrapeId: string;
  now: string;
  modes: ReadonlyArray<'git-diff' | 'json'>;
}

/** Whether an extraction holds at least one value (not null, not only nulls). */
function hasValue(json: unknown): boolean {
  if (json === null || json === undefined) return false;
  for (const value of leavesOf(json).values()) if (value !== null) return true;
  return false;
}

export class ChangeTrackingStore {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Compares the page with the last one seen and keeps this one as the new reference. A page answering 4xx/5xx is
   * `removed` and changes nothing stored, so its return is compared with what it was before.
   */
  async track(input: TrackInput): Promise<ChangeTracking> {
    const previous = await this.db
      .selectFrom('change_tracking')
      .select(['content', 'json', 'scraped_at'])
      .where('owner_id', '=', input.ownerId)
      .where('url', '=', input.url)
      .where('tag', '=', input.tag)
      .executeTakeFirst();
    const previousScrapeAt = previous?.scraped_at ?? null;
    if (input.statusCode >= 400) return { previousScrapeAt, changeStatus: 'removed', visibility: 'visible' };
    const lines = normalizeText(input.markdown).lines;
    const content = lines.join('\n');
    // Fields that could not be read this time (the extraction failed, or found none of them) are no change of them:
    // the last good reading stays the reference.
    const readJson = input.modes.includes('json') && hasValue(input.json);
    const json = readJson ? JSON.stringify(input.json) : (previous?.json ?? null);
    await this.db
      .insertInto('change_tracking')
      .values({
        owner_id: input.ownerId,
        url: input.url,
        tag: input.tag,
        content,
        json,
        scrape_id: input.scrapeId,
        scraped_at: input.now,
      })
      .onConflict((oc) =>
        oc
          .columns(['owner_id', 'url', 'tag'])
          .doUpdateSet({ content, json, scrape_id: input.scrapeId, scraped_at: input.now }),
      )
      .execute();
    if (previous === undefined) return { previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' };

    const out: ChangeTracking = { previousScrapeAt, changeStatus: 'same', visibility: 'visible' };
    if (previous.content !== content) {
      out.changeStatus = 'changed';
      if (input.modes.includes('git-diff')) {
        const diff = diffTexts(previous.content === '' ? [] : previous.content.split('\n'), lines, input.url);
        out.diff = { text: diff.diffText, ...(diff.diffTextTruncated ? { truncated: true } : {}) };
      }
    }
    if (readJson && previous.json !== null) {
      const entries = diffJson(JSON.parse(previous.json) as unknown, input.json);
      if (entries.length > 0) {
        out.changeStatus = 'changed';
        out.json = Object.fromEntries(
          entries.map((e) => [e.path, { previous: e.from ?? null, current: e.to ?? null }]),
        );
      }
    }
    return out;
  }
}
