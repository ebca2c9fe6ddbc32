// SQLite with no space left: requests that write answer 507 and nothing is half-written; space back, all works.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { type SiteServer, startSiteServer } from '../fixtures/site-server.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * `max_page_count` bounds the database file of this connection: a write that needs a new page
 * fails with SQLITE_FULL ("database or disk is full"), exactly as a full filesystem makes it fail.
 */
async function fillDisk(t: TestApp): Promise<void> {
  const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(t.app.db.kysely);
  await sql.raw(`pragma max_page_count = ${rows[0]?.page_count ?? 1}`).execute(t.app.db.kysely);
}

async function freeDisk(t: TestApp): Promise<void> {
  await sql.raw('pragma max_page_count = 1073741823').execute(t.app.db.kysely);
}

describe('SQLite on a full disk', () => {
  let site: SiteServer;
  let t: TestApp;
  before(async () => {
    site = await startSiteServer();
    t = await startTestApp({ env: { WEBHOOK_POLL_MS: '50' } });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  it('answers a scrape 507 STORAGE_FULL while the disk is full, and serves it once space is back', async () => {
    await fillDisk(t);
    let res;
    try {
      // Each scrape writes more than a page (its job row, events, the cache entry).
      for (let i = 0; i < 20; i++) {
        res = await t.request('POST', '/v1/scrape', {
          body: { url: `${site.url}/pages/article.html?n=${i}`, max_age: 0 },
        });
        if (res.statusCode !== 200) break;
      }
      assert.ok(res);
      assert.equal(res.statusCode, 507, res.body);
      const body = res.json() as { success: boolean; code: string };
      assert.equal(body.success, false);
      assert.equal(body.code, 'STORAGE_FULL');
      assert.ok(Number(res.headers['retry-after']) > 0);
    } finally {
      await freeDisk(t);
    }
    const again = await t.request('POST', '/v1/scrape', {
      body: { url: `${site.url}/pages/article.html`, max_age: 0 },
    });
    assert.equal(again.statusCode, 200, again.body);
  });
});
