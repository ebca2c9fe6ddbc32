// Every table has exactly one store module that reads and writes it (docs/architecture.md, "Who owns
// what"): other modules call that store's functions, inside their own transaction where needed.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Database } from '../../src/store/schema.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** The owner of each table (a src/-relative file); a table missing here fails the test below. */
const OWNERS: Record<keyof Database, string> = {
  api_keys: 'keys/api-keys.ts',
  jobs: 'jobs/job-store.ts',
  events: 'events/outbox.ts',
  page_cache: 'scrape/page-cache.ts',
  crawl_pages: 'crawl/store.ts',
  crawl_results: 'crawl/store.ts',
  screenshots: 'screenshots/store.ts',
  scheduled_tasks: 'tasks/task-store.ts',
  task_executions: 'tasks/task-store.ts',
  webhook_subscriptions: 'webhooks/subscription-store.ts',
  webhook_deliveries: 'webhooks/delivery-store.ts',
  webhook_attempts: 'webhooks/delivery-store.ts',
  search_documents: 'search-index/index-store.ts',
  templates: 'templates/store.ts',
  template_versions: 'templates/store.ts',
  monitors: 'monitors/store.ts',
  monitor_checks: 'monitors/store.ts',
  monitor_snapshots: 'monitors/store.ts',
  monitor_changes: 'monitors/store.ts',
  change_tracking: 'firecrawl/change-tracking.ts',
};

/** Files that may write SQL text of their own: the schema's migrations and the connection probes. */
const RAW_SQL_ALLOWED = new Set([
  'store/migrations.ts',
  'store/postgres.ts',
  'app.ts',
  'crawl/store.ts',
  'search-index/index-store.ts',
]);

function sources(): Array<{ file: string; text: string }> {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => ({ file: f.split(path.sep).join('/'), text: readFileSync(path.join(SRC, f), 'utf8') }));
}

/**
 * Tables each file names in a query builder call: selectFrom('jobs'), updateTable('jobs as j'), innerJoin('jobs as j',
 * ...).
 */
function tablesQueriedBy(text: string): Set<string> {
  const found = new Set<string>();
  for (const m of text.matchAll(
    /\.(?:selectFrom|updateTable|insertInto|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin|with)\(\s*'([a-z_]+)(?:\s+as\s+\w+)?'/g,
  )) {
    found.add(m[1] as string);
  }
  return found;
}

describe('table owners', () => {
  it('names an owner for every table of the schema, and only existing files', () => {
    const files = new Set(sources().map((s) => s.file));
    for (const [table, owner] of Object.entries(OWNERS))
      assert.ok(files.has(owner), `${table}'s owner ${owner} does not exist`);
    // The schema's tables are the keys of `Database`: a new table must be given an owner here.
    const schema = readFileSync(path.join(SRC, 'store/schema.ts'), 'utf8');
    const block = schema.slice(schema.indexOf('export interface Database'));
    const tables = [...block.slice(0, block.indexOf('}')).matchAll(/^\s+([a-z_]+):/gm)].map((m) => m[1]);
    assert.deepEqual(tables.sort(), Object.keys(OWNERS).sort());
  });

  it('reads and writes each table only in its owner', () => {
    const strays: string[] = [];
    for (const { file, text } of sources()) {
      if (file === 'store/migrations.ts') continue;
      for (const table of tablesQueriedBy(text)) {
        const owner = OWNERS[table as keyof Database];
        if (owner !== file) strays.push(`${file} queries ${table} (owner: ${owner ?? 'none'})`);
      }
    }
    assert.deepEqual(strays, []);
  });

  it('keeps raw SQL text in the stores that need it', () => {
    const raw = sources()
      .filter(({ text }) => /\bsql`/.test(text))
      .map((s) => s.file)
      .filter((f) => !RAW_SQL_ALLOWED.has(f));
    assert.deepEqual(raw, []);
  });

  it('finds the queries it looks for (the scan is not blind)', () => {
    assert.deepEqual(
      [
        ...tablesQueriedBy(
          `db.selectFrom('jobs').innerJoin('crawl_pages as p', 'p.job_id', 'jobs.id'); trx.deleteFrom('events')`,
        ),
      ].sort(),
      ['crawl_pages', 'events', 'jobs'],
    );
  });
});
