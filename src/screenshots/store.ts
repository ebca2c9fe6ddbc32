// Screenshots of browser renders: kept in the data store beside their job and deleted with it.
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../store/schema.js';
import { pngSize } from './png.js';

/** Path of the authenticated route that serves a screenshot; result items carry it made absolute. */
export const SCREENSHOT_ROUTE = '/v1/screenshots';

export interface StoredScreenshot {
  id: string;
  /** `/v1/screenshots/<id>`: relative until a response adds the service's base URL. */
  path: string;
}

export interface ScreenshotFile {
  content: Buffer;
  bytes: number;
  width: number;
  height: number;
  createdAt: string;
}

export class ScreenshotStore {
  constructor(private readonly db: Kysely<Database>) {}

  async save(input: { ownerId: string; jobId: string; png: Buffer; now: string }): Promise<StoredScreenshot> {
    const size = pngSize(input.png);
    if (!size) throw new Error('The browser returned a screenshot that is not a PNG');
    const id = randomUUID();
    await this.db
      .insertInto('screenshots')
      .values({
        id,
        owner_id: input.ownerId,
        job_id: input.jobId,
        width: size.width,
        height: size.height,
        bytes: input.png.length,
        content: input.png,
        created_at: input.now,
      })
      .execute();
    return { id, path: `${SCREENSHOT_ROUTE}/${id}` };
  }

  /** The screenshot when it exists and belongs to the owner; another key's screenshot is as absent as a missing one. */
  async read(ownerId: string, id: string): Promise<ScreenshotFile | undefined> {
    const row = await this.db
      .selectFrom('screenshots')
      .select(['content', 'bytes', 'width', 'height', 'created_at'])
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      content: Buffer.from(row.content),
      bytes: row.bytes,
      width: row.width,
      height: row.height,
      createdAt: row.created_at,
    };
  }
}

/**
 * Deletes the screenshots of these jobs (ids, or a query selecting them), inside the caller's
 * transaction that deletes the jobs themselves.
 */
export async function deleteScreenshotsOfJobs(trx: Transaction<Database>, jobIds: readonly string[]): Promise<void> {
  if (jobIds.length === 0) return;
  await trx
    .deleteFrom('screenshots')
    .where('job_id', 'in', [...jobIds])
    .execute();
}

/**
 * Turns a stored relative screenshot path into the absolute URL a client can fetch; anything else is returned as is.
 */
export function absoluteScreenshotUrl(value: string, baseUrl: string): string;
export function absoluteScreenshotUrl(value: unknown, baseUrl: string): unknown;
export function absoluteScreenshotUrl(value: unknown, baseUrl: string): unknown {
  return typeof value === 'string' && value.startsWith(`${SCREENSHOT_ROUTE}/`) ? `${baseUrl}${value}` : value;
}

/**
 * A page result whose screenshot routes (the `screenshot` format's and those of screenshot actions) are absolute URLs;
 * a copy, the stored result is left as it is.
 */
export function withAbsoluteScreenshots<T extends object>(item: T, baseUrl: string): T {
  const fields = item as { screenshot?: unknown; actions?: unknown };
  const copy: Record<string, unknown> = { ...(item as Record<string, unknown>) };
  if (fields.screenshot !== undefined) copy.screenshot = absoluteScreenshotUrl(fields.screenshot, baseUrl);
  const actions = fields.actions as { screenshots?: unknown } | undefined;
  if (actions !== null && typeof actions === 'object' && Array.isArray(actions.screenshots)) {
    copy.actions = {
      ...actions,
      screenshots: actions.screenshots.map((path: unknown) => absoluteScreenshotUrl(path, baseUrl)),
    };
  }
  return copy as T;
}
