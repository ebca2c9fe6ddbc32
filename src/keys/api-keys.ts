// API keys: generated, stored as SHA-256 hashes, verified in constant time, revoked; env keys beside them.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../store/schema.js';
import { type Clock, iso, systemClock } from '../util/time.js';

export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface CreatedKey {
  id: string;
  name: string;
  /** The key itself: shown once, never stored. */
  key: string;
}

// Keys carry 256 random bits, so a fast hash is safe (no dictionary to attack) and lets
// verification be an indexed lookup instead of a scan with a slow KDF.
function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** How often last_used_at may be written for one key: verification must stay a read. */
const LAST_USED_RESOLUTION_MS = 60_000;

export class ApiKeys {
  private readonly envKeys: Array<{ hash: string; ownerId: string }>;
  private readonly lastUsedWritten = new Map<string, number>();

  constructor(
    private readonly db: Kysely<Database>,
    envKeys: string[],
    private readonly clock: Clock = systemClock,
  ) {
    this.envKeys = envKeys.map((key) => {
      const hash = hashKey(key);
      // An env key's owner id is derived from its hash, so it stays stable across restarts.
      return { hash, ownerId: `env-${hash.slice(0, 24)}` };
    });
  }

  async create(name: string): Promise<CreatedKey> {
    const key = `cs_${randomBytes(32).toString('base64url')}`;
    const id = randomUUID();
    await this.db
      .insertInto('api_keys')
      .values({
        id,
        name,
        key_hash: hashKey(key),
        key_prefix: key.slice(0, 10),
        created_at: iso(this.clock()),
        revoked_at: null,
        last_used_at: null,
      })
      .execute();
    return { id, name, key };
  }

  async list(): Promise<ApiKeyInfo[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().orderBy('created_at').execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      prefix: r.key_prefix,
      created_at: r.created_at,
      revoked_at: r.revoked_at,
      last_used_at: r.last_used_at,
    }));
  }

  /**
   * Revokes by id or by the key's printed prefix; returns how many keys were revoked. `withRevoked`
   * writes, in the same transaction, what goes with a revocation elsewhere (src/revoke-key.ts:
   * the owner's scheduled tasks become inactive); keys/ does not import the folders it reaches.
   */
  async revoke(
    idOrPrefix: string,
    withRevoked: (trx: Transaction<Database>, ownerIds: string[]) => Promise<void>,
  ): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const revoked = await trx
        .updateTable('api_keys')
        .set({ revoked_at: iso(this.clock()) })
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('id', '=', idOrPrefix), eb('key_prefix', '=', idOrPrefix)]))
        .returning('id')
        .execute();
      if (revoked.length > 0)
        await withRevoked(
          trx,
          revoked.map((r) => r.id),
        );
      return revoked.length;
    });
  }

  async countStored(): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  get hasEnvKeys(): boolean {
    return this.envKeys.length > 0;
  }

  /** The owner id of a valid key, or undefined. */
  async verify(key: string): Promise<string | undefined> {
    if (key.length === 0 || key.length > 512) return undefined;
    const hash = hashKey(key);
    for (const env of this.envKeys) {
      if (sameHash(env.hash, hash)) return env.ownerId;
    }
    const row = await this.db
      .selectFrom('api_keys')
      .select(['id', 'key_hash', 'revoked_at'])
      .where('key_hash', '=', hash)
      .executeTakeFirst();
    if (!row || row.revoked_at !== null || !sameHash(row.key_hash, hash)) return undefined;
    this.touch(row.id);
    return row.id;
  }

  private touch(id: string): void {
    const now = this.clock().getTime();
    const last = this.lastUsedWritten.get(id) ?? 0;
    if (now - last < LAST_USED_RESOLUTION_MS) return;
    this.lastUsedWritten.set(id, now);
    // Best effort: a lost last_used_at write must never fail a request.
    void this.db
      .updateTable('api_keys')
      .set({ last_used_at: iso(new Date(now)) })
      .where('id', '=', id)
      .execute()
      .catch(() => undefined);
  }
}
