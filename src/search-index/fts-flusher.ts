// SQLite: the loop that moves saved pages into the FTS5 index in batches (flushPendingFts, docs/search.md "Indexing").
import type { Kysely } from 'kysely';
import type { BaseLogger } from 'pino';
import type { Database } from '../store/schema.js';
import { BackgroundLoop } from '../util/background-loop.js';
import { flushPendingFts } from './index-store.js';

export class FtsFlusher {
  private readonly loop: BackgroundLoop;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly intervalMs: number,
    logger: Pick<BaseLogger, 'info' | 'warn' | 'error'>,
  ) {
    this.loop = new BackgroundLoop({ name: 'search index flush', logger, backoffBaseMs: intervalMs });
  }

  start(): void {
    this.loop.start(async () => {
      await flushPendingFts(this.db);
      return this.intervalMs;
    });
  }

  /** Stops the loop and indexes what still waits (best effort: a page left waiting is indexed by the next flush). */
  async stop(): Promise<void> {
    await this.loop.stop();
    await flushPendingFts(this.db).catch(() => undefined);
  }
}
