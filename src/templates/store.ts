// Templates and their versions in the store: the one module that reads and writes templates and template_versions.
import type { Kysely } from 'kysely';
import type { Database, TemplateTable } from '../store/schema.js';
import type { TemplateContent } from './schema.js';

/** A template as read: its row and the content of the version asked for (the current one by default). */
export interface TemplateRecord {
  id: string;
  ownerId: string;
  version: number;
  currentVersion: number;
  createdAt: string;
  updatedAt: string;
  /** When this version was made. */
  versionCreatedAt: string;
  content: TemplateContent;
}

/** A slug taken by another template of the key. */
export class SlugTakenError extends Error {}

function isUniqueViolation(error: unknown): boolean {
  const text = error instanceof Error ? `${(error as { code?: unknown }).code ?? ''} ${error.message}` : '';
  return /SQLITE_CONSTRAINT_UNIQUE|UNIQUE constraint failed|23505|duplicate key/i.test(text);
}

export class TemplateStore {
  constructor(private readonly db: Kysely<Database>) {}

  async countOwned(ownerId: string): Promise<number> {
    const row = await this.db
      .selectFrom('templates')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Saves a new template as its version 1. Throws SlugTakenError. */
  async insert(id: string, ownerId: string, content: TemplateContent, now: string): Promise<void> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('templates')
          .values({
            id,
            owner_id: ownerId,
            slug: content.slug,
            name: content.name,
            template_type: content.template_type,
            current_version: 1,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await trx
          .insertInto('template_versions')
          .values({ template_id: id, version: 1, content: JSON.stringify(content), created_at: now })
          .execute();
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new SlugTakenError();
      throw error;
    }
  }

  /**
   * Saves `content` as the next version of a template, if its current version is still `expected` (an update that
   * raced another is refused: false). Throws SlugTakenError.
   */
  async addVersion(id: string, expected: number, content: TemplateContent, now: string): Promise<boolean> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const next = expected + 1;
        const moved = await trx
          .updateTable('templates')
          .set({ current_version: next, slug: content.slug, name: content.name, updated_at: now })
          .where('id', '=', id)
          .where('current_version', '=', expected)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return false;
        await trx
          .insertInto('template_versions')
          .values({ template_id: id, version: next, content: JSON.stringify(content), created_at: now })
          .execute();
        return true;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new SlugTakenError();
      throw error;
    }
  }

  /** The key's template by id or by slug, at `version` (default: its current one). */
  async find(ownerId: string, ref: string, version?: number): Promise<TemplateRecord | undefined> {
    const row = await this.db
      .selectFrom('templates')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where((eb) => eb.or([eb('id', '=', ref), eb('slug', '=', ref)]))
      // An id wins over another template's equal slug (ids are UUIDs, slugs cannot be, but be exact).
      .orderBy((eb) => eb.case().when('id', '=', ref).then(0).else(1).end())
      .limit(1)
      .executeTakeFirst();
    if (!row) return undefined;
    return this.withVersion(row, version ?? row.current_version);
  }

  private async withVersion(row: TemplateTable, version: number): Promise<TemplateRecord | undefined> {
    const stored = await this.db
      .selectFrom('template_versions')
      .selectAll()
      .where('template_id', '=', row.id)
      .where('version', '=', version)
      .executeTakeFirst();
    if (!stored) return undefined;
    return {
      id: row.id,
      ownerId: row.owner_id,
      version,
      currentVersion: row.current_version,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      versionCreatedAt: stored.created_at,
      content: JSON.parse(stored.content) as TemplateContent,
    };
  }

  /** The key's templates at their current versions, newest first. */
  async listOwned(ownerId: string, limit: number, offset: number): Promise<{ items: TemplateRecord[]; total: number }> {
    const rows = await this.db
      .selectFrom('templates')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
    const items: TemplateRecord[] = [];
    for (const row of rows) {
      const record = await this.withVersion(row, row.current_version);
      if (record) items.push(record);
    }
    return { items, total: await this.countOwned(ownerId) };
  }

  /** Every version of a template, newest first, without content. */
  async versions(id: string): Promise<Array<{ version: number; created_at: string }>> {
    return this.db
      .selectFrom('template_versions')
      .select(['version', 'created_at'])
      .where('template_id', '=', id)
      .orderBy('version', 'desc')
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // The row first: an update racing this delete holds (or waits for) the row's lock, so its new version is
      // committed before the versions are deleted, or it finds no row to move.
      await trx.deleteFrom('templates').where('id', '=', id).execute();
      await trx.deleteFrom('template_versions').where('template_id', '=', id).execute();
    });
  }
}
