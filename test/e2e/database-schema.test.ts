// Scale-out on a shared PostgreSQL: DATABASE_SCHEMA gives the service a schema of its own, used by
// every command (serve, migrate, keys); keys made with the CLI are separate owners.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { type SiteServer, startSiteServer } from '../fixtures/site-server.js';
import { POSTGRES_URL, postgresDatabase, tempDir } from '../helpers/databases.js';
import { runCli, startService } from '../helpers/process.js';

const KEY = /cs_[A-Za-z0-9_-]{43}/;

async function tablesIn(schema: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const res = await client.query<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
      [schema],
    );
    return res.rows.map((r) => r.table_name);
  } finally {
    await client.end();
  }
}

describe('DATABASE_SCHEMA', () => {
  // Two fresh schema names of the test databases' own, and their removal.
  const own = postgresDatabase();
  const elsewhereDb = postgresDatabase();
  const schema = own.target.schema as string;
  const other = elsewhereDb.target.schema as string;
  let site: SiteServer;
  before(async () => {
    site = await startSiteServer();
  });
  after(async () => {
    await site.close();
    await own.drop();
    await elsewhereDb.drop();
  });

  it('refuses a name PostgreSQL would need quoted, and a schema without PostgreSQL', () => {
    for (const bad of ['Crawl', 'crawl-service', '1crawl', 'a'.repeat(64), 'x"; drop schema public; --']) {
      const res = runCli(['migrate'], { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: bad, DATA_DIR: tempDir() });
      assert.equal(res.status, 2, bad);
      assert.match(res.stderr, /DATABASE_SCHEMA: must be a lower-case PostgreSQL name/, bad);
    }
    const sqlite = runCli(['migrate'], { DATABASE_SCHEMA: 'crawl', DATA_DIR: tempDir() });
    assert.equal(sqlite.status, 2);
    assert.match(sqlite.stderr, /DATABASE_SCHEMA: applies to PostgreSQL only/);
  });

  it('puts every table in its schema, for the CLI and the service alike; CLI keys are separate owners', async () => {
    const env = {
      DATABASE_URL: POSTGRES_URL,
      DATABASE_SCHEMA: schema,
      DATA_DIR: tempDir(),
      ALLOW_LOCAL_TARGETS: 'true',
      CREATE_INITIAL_KEY: 'false',
    };
    const migrated = runCli(['migrate'], env);
    assert.equal(migrated.status, 0, migrated.stderr);
    assert.match(migrated.stdout, new RegExp(`\\(schema ${schema}\\) is up to date`));
    const tables = await tablesIn(schema);
    for (const table of ['api_keys', 'jobs', 'events', 'crawl_pages', 'webhook_subscriptions', 'kysely_migration'])
      assert.ok(tables.includes(table), `${table} in ${tables.join(',')}`);

    const alice = KEY.exec(runCli(['keys', 'create', '--name', 'alice'], env).stdout)?.[0];
    const bob = KEY.exec(runCli(['keys', 'create', '--name', 'bob'], env).stdout)?.[0];
    assert.ok(alice && bob);
    const listed = runCli(['keys', 'list'], env).stdout;
    assert.match(listed, /alice/);
    assert.match(listed, /bob/);

    const service = await startService(env);
    try {
      const as = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
      const created = await fetch(`${service.url}/v1/crawl`, {
        method: 'POST',
        headers: as(alice),
        body: JSON.stringify({ url: `${site.url}/`, limit: 1 }),
      });
      assert.equal(created.status, 200);
      const { data } = (await created.json()) as { data: { job_id: string } };
      assert.equal(
        (await fetch(`${service.url}/v1/crawl/${data.job_id}/status`, { headers: as(alice) })).status,
        200,
        'the owner sees its crawl',
      );
      assert.equal(
        (await fetch(`${service.url}/v1/crawl/${data.job_id}/status`, { headers: as(bob) })).status,
        404,
        'another CLI key does not',
      );
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }

    // Another schema on the same database is another store: alice's key means nothing there.
    const elsewhere = await startService({ ...env, DATABASE_SCHEMA: other });
    try {
      assert.equal(
        (await fetch(`${elsewhere.url}/v1/webhook-events`, { headers: { authorization: `Bearer ${alice}` } })).status,
        401,
      );
    } finally {
      elsewhere.child.kill('SIGTERM');
      await elsewhere.exited;
    }
    assert.ok((await tablesIn(other)).includes('api_keys'));
  });
});
