// Versioned schema migrations, written once with Kysely's schema builder for SQLite and PostgreSQL.
import type { Database } from './schema.js';
import {
  type ColumnDefinitionBuilder,
  type Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  SqliteAdapter,
  sql,
} from 'kysely';

function isSqlite(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

// Migrations are append-only: never edit a released one, add the next number.
const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>) {
      const sqlite = isSqlite(db);
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('key_prefix', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .addColumn('last_used_at', 'text')
        .execute();

      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('options', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .addColumn('expires_at', 'text')
        .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('credits_used', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error_message', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('jobs_owner_created').on('jobs').columns(['owner_id', 'created_at']).execute();
      await db.schema.createIndex('jobs_expires').on('jobs').column('expires_at').execute();

      // The outbox: written in the same transaction as the state change it reports.
      // `seq` gives dispatchers a total order to read from.
      await db.schema
        .createTable('events')
        .addColumn('seq', sqlite ? 'integer' : 'bigint', (c) =>
          // SQLite's INTEGER PRIMARY KEY is its auto-increment rowid; PostgreSQL needs an identity.
          sqlite ? c.primaryKey().autoIncrement() : c.primaryKey().generatedAlwaysAsIdentity(),
        )
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text')
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('events_owner_seq').on('events').columns(['owner_id', 'seq']).execute();

      await db.schema
        .createTable('page_cache')
        .addColumn('cache_key', 'text', (c) => c.primaryKey())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('final_url', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('headers', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('engine', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('page_cache_created').on('page_cache').column('created_at').execute();
    },
  },
  '0002_crawl': {
    async up(db: Kysely<unknown>) {
      const sqlite = isSqlite(db);
      const serial = (c: ColumnDefinitionBuilder) =>
        sqlite ? c.primaryKey().autoIncrement() : c.primaryKey().generatedAlwaysAsIdentity();

      // The frontier: every URL a crawl admitted, with its state. Living in the store (not in
      // memory) is what lets a killed process resume a crawl exactly where it was.
      await db.schema
        .createTable('crawl_pages')
        .addColumn('id', sqlite ? 'integer' : 'bigint', serial)
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('depth', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('available_at', 'text', (c) => c.notNull())
        .addColumn('lease_until', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('error', 'text')
        .addUniqueConstraint('crawl_pages_job_url', ['job_id', 'url'])
        .execute();
      await db.schema
        .createIndex('crawl_pages_claim')
        .on('crawl_pages')
        .columns(['state', 'job_id', 'available_at'])
        .execute();

      // Saved pages, in the order they finished (seq), which is the order of the results pages.
      await db.schema
        .createTable('crawl_results')
        .addColumn('seq', sqlite ? 'integer' : 'bigint', serial)
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('crawl_results_job_seq').on('crawl_results').columns(['job_id', 'seq']).execute();
    },
  },
  '0003_webhooks': {
    async up(db: Kysely<unknown>) {
      const sqlite = isSqlite(db);
      const serial = (c: ColumnDefinitionBuilder) =>
        sqlite ? c.primaryKey().autoIncrement() : c.primaryKey().generatedAlwaysAsIdentity();

      // Fan-out marks each event once it became deliveries; a per-row flag (not a cursor)
      // because PostgreSQL transactions can commit sequence numbers out of order.
      await db.schema
        .alterTable('events')
        .addColumn('dispatched', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('events_dispatch').on('events').columns(['dispatched', 'seq']).execute();

      await db.schema
        .createTable('webhook_subscriptions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('webhook_url', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('event_types', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('specific_task_ids', 'text')
        .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
        .addColumn('max_retries', 'integer', (c) => c.notNull())
        .addColumn('retry_backoff_multiplier', 'double precision', (c) => c.notNull())
        .addColumn('custom_headers', 'text')
        .addColumn('tags', 'text')
        .addColumn('metadata', 'text')
        .addColumn('task_id', 'text')
        .addColumn('is_active', 'integer', (c) => c.notNull())
        .addColumn('disabled_reason', 'text')
        .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('total_deliveries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('successful_deliveries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failed_deliveries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_success_at', 'text')
        .addColumn('last_failure_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_subscriptions_owner')
        .on('webhook_subscriptions')
        .columns(['owner_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('subscription_id', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text')
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempt_number', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('request_url', 'text', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_duration_ms', 'integer')
        .addColumn('error_message', 'text')
        .addColumn('error_code', 'text')
        .addColumn('is_test', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('replay_of', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('delivered_at', 'text')
        .addColumn('finished_at', 'text')
        .execute();
      // Only deliveries still to be sent have next_attempt_at, so this index is the queue.
      await db.schema
        .createIndex('webhook_deliveries_due')
        .on('webhook_deliveries')
        .column('next_attempt_at')
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_sub')
        .on('webhook_deliveries')
        .columns(['subscription_id', 'created_at'])
        .execute();
      // Lease renewal (every few seconds per sender) finds its own rows without a scan.
      await db.schema.createIndex('webhook_deliveries_lease').on('webhook_deliveries').column('lease_owner').execute();

      await db.schema
        .createTable('webhook_attempts')
        .addColumn('id', sqlite ? 'integer' : 'bigint', serial)
        .addColumn('delivery_id', 'text', (c) => c.notNull())
        .addColumn('attempt_number', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('error_code', 'text')
        .addColumn('error_message', 'text')
        .addColumn('response_body', 'text')
        .execute();
      await db.schema
        .createIndex('webhook_attempts_delivery')
        .on('webhook_attempts')
        .columns(['delivery_id', 'attempt_number'])
        .execute();
    },
  },
  '0004_scheduled_tasks': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('scheduled_tasks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('cron_expression', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('task_type', 'text', (c) => c.notNull())
        .addColumn('task_payload', 'text', (c) => c.notNull())
        .addColumn('concurrency_mode', 'text', (c) => c.notNull())
        .addColumn('max_executions_per_day', 'integer')
        .addColumn('webhook_ids', 'text')
        .addColumn('webhook_url', 'text')
        .addColumn('implicit_webhook_id', 'text')
        .addColumn('tags', 'text')
        .addColumn('metadata', 'text')
        .addColumn('min_credits_required', 'integer', (c) => c.notNull())
        .addColumn('is_active', 'integer', (c) => c.notNull())
        .addColumn('is_paused', 'integer', (c) => c.notNull())
        .addColumn('pause_reason', 'text')
        .addColumn('next_execution_at', 'text')
        .addColumn('total_executions', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('successful_executions', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failed_executions', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_execution_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // The scheduler's queue: due tasks by their next run.
      await db.schema.createIndex('scheduled_tasks_due').on('scheduled_tasks').column('next_execution_at').execute();
      await db.schema
        .createIndex('scheduled_tasks_owner')
        .on('scheduled_tasks')
        .columns(['owner_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('task_executions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('task_id', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('execution_number', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('scheduled_for', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('completed_at', 'text')
        .addColumn('job_uuid', 'text')
        .addColumn('job_kind', 'text')
        .addColumn('triggered_by', 'text', (c) => c.notNull())
        .addColumn('error_message', 'text')
        .addColumn('credits_used', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('items_processed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('items_succeeded', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('items_failed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('job_status', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        // One execution per task and scheduled time: the claim that makes several schedulers safe.
        .addUniqueConstraint('task_executions_occurrence', ['task_id', 'scheduled_for'])
        .execute();
      await db.schema
        .createIndex('task_executions_task')
        .on('task_executions')
        .columns(['task_id', 'execution_number'])
        .execute();
      await db.schema
        .createIndex('task_executions_status')
        .on('task_executions')
        .columns(['status', 'task_id'])
        .execute();
    },
  },
  '0005_screenshots': {
    async up(db: Kysely<unknown>) {
      const sqlite = isSqlite(db);
      // PNGs of browser renders, served by GET /v1/screenshots/:id and deleted with their job.
      await db.schema
        .createTable('screenshots')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('bytes', 'integer', (c) => c.notNull())
        .addColumn('content', sqlite ? 'blob' : 'bytea', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('screenshots_job').on('screenshots').column('job_id').execute();
    },
  },
  '0006_crawl_queue_order': {
    async up(db: Kysely<unknown>) {
      // Claims take a crawl's queued pages in id order: with available_at as the third column
      // every claim read and sorted the whole queue (thousands of rows), so the queue is kept in
      // id order instead and available_at (only in the future while a retry waits) is checked
      // per row.
      await db.schema.dropIndex('crawl_pages_claim').execute();
      await db.schema.createIndex('crawl_pages_queue').on('crawl_pages').columns(['state', 'job_id', 'id']).execute();
    },
  },
  '0007_webhook_fairness': {
    async up(db: Kysely<unknown>) {
      // receiver: the origin of request_url, so that claims can leave out receivers at their
      // limit in SQL. attempt_started_at: set while an attempt is in flight (attempts are counted
      // when they start), so that a takeover after a crash can log the interrupted attempt.
      await db.schema.alterTable('webhook_deliveries').addColumn('receiver', 'text').execute();
      await db.schema.alterTable('webhook_deliveries').addColumn('attempt_started_at', 'text').execute();
      // Deliveries still to be sent get their receiver now; finished ones are never claimed again.
      const urls = await sql<{
        request_url: string;
      }>`select distinct request_url from webhook_deliveries where next_attempt_at is not null`.execute(db);
      // As receiverOf() in webhooks/slots.ts computed it when this was written (kept here, frozen).
      const origin = (url: string): string => {
        try {
          const o = new URL(url).origin;
          return o === 'null' ? url : o;
        } catch {
          return url;
        }
      };
      for (const { request_url: url } of urls.rows) {
        await sql`update webhook_deliveries set receiver = ${origin(url)} where request_url = ${url} and next_attempt_at is not null`.execute(
          db,
        );
      }
    },
  },
  '0008_job_error_code': {
    async up(db: Kysely<unknown>) {
      // The code of error_message (BLOCKED_ADDRESS, DNS_FAILURE, HTTP_ERROR…): a failed crawl's status says why.
      await db.schema.alterTable('jobs').addColumn('error_code', 'text').execute();
    },
  },
  '0009_search_index': {
    async up(db: Kysely<unknown>) {
      const sqlite = isSqlite(db);
      // The embedded search engine's documents (docs/search.md): one row per (key, URL), the page's title and the
      // first SEARCH_INDEX_MAX_CHARS of its content's text. url_hash finds a URL's earlier row to replace (URLs are
      // too long for a b-tree key in PostgreSQL).
      await db.schema
        .createTable('search_documents')
        .addColumn('id', sqlite ? 'integer' : 'bigint', (c) =>
          sqlite ? c.primaryKey().autoIncrement() : c.primaryKey().generatedAlwaysAsIdentity(),
        )
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('url_hash', 'text', (c) => c.notNull())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('language', 'text')
        .addColumn('indexed_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('search_documents_job').on('search_documents').column('job_id').execute();
      await db.schema
        .createIndex('search_documents_owner_url')
        .on('search_documents')
        .columns(['owner_id', 'url_hash'])
        .execute();
      if (sqlite) {
        // An external-content FTS5 table: the text is stored once (in search_documents), the index beside it, kept in
        // step by triggers. unicode61 folds case and diacritics; no stemming, so every language is treated alike.
        await sql`create virtual table search_fts using fts5(title, body, content='search_documents', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`.execute(
          db,
        );
        await sql`create trigger search_documents_ai after insert on search_documents begin
          insert into search_fts(rowid, title, body) values (new.id, new.title, new.body);
        end`.execute(db);
        await sql`create trigger search_documents_ad after delete on search_documents begin
          insert into search_fts(search_fts, rowid, title, body) values ('delete', old.id, old.title, old.body);
        end`.execute(db);
        // A title term weighs five body terms.
        await sql`insert into search_fts(search_fts, rank) values ('rank', 'bm25(5.0, 1.0)')`.execute(db);
        // The columns a search filters on, beside the rowid, so that checking a match reads a small index entry
        // instead of its row (which holds the page's text; language and indexed_at come after it, in overflow pages).
        await db.schema
          .createIndex('search_documents_filter')
          .on('search_documents')
          .columns(['id', 'owner_id', 'host', 'indexed_at', 'language'])
          .execute();
      } else {
        // The 'simple' configuration (lower case, no stemming, no stop words) as SQLite's tokenizer does, on the text
        // split at every non-alphanumeric character first: PostgreSQL's parser keeps `node.js`, `example.com` or
        // `3.14` whole, while queries are split into their words (src/search-index/query-terms.ts). The title is
        // weighted A, the body B.
        await sql`alter table search_documents add column tsv tsvector generated always as (setweight(to_tsvector('simple', regexp_replace(title, '[^[:alnum:]]+', ' ', 'g')), 'A') || setweight(to_tsvector('simple', regexp_replace(body, '[^[:alnum:]]+', ' ', 'g')), 'B')) stored`.execute(
          db,
        );
        await sql`create index search_documents_tsv on search_documents using gin (tsv)`.execute(db);
      }
    },
  },
  '0010_templates': {
    async up(db: Kysely<unknown>) {
      // A template and its versions (docs/templates.md): the row names the current version; each version's content
      // (name, options, variables, domains) is kept as JSON, never changed, so that jobs can name the version that
      // made them.
      await db.schema
        .createTable('templates')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('slug', 'text')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('template_type', 'text', (c) => c.notNull())
        .addColumn('current_version', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('templates_owner').on('templates').columns(['owner_id', 'created_at']).execute();
      // A slug names one template of its key (NULLs do not collide).
      await db.schema
        .createIndex('templates_owner_slug')
        .on('templates')
        .columns(['owner_id', 'slug'])
        .unique()
        .execute();
      await db.schema
        .createTable('template_versions')
        .addColumn('template_id', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('template_versions_pk', ['template_id', 'version'])
        .execute();
    },
  },
  '0011_monitors': {
    async up(db: Kysely<unknown>) {
      // A monitor (docs/monitors.md) owns a scheduled task (task_type "monitor") that fires its checks; its settings
      // are JSON as the client sent them.
      await db.schema
        .createTable('monitors')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('task_id', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('monitor_type', 'text', (c) => c.notNull())
        .addColumn('targets', 'text', (c) => c.notNull())
        .addColumn('goal', 'text')
        .addColumn('track_mode', 'text', (c) => c.notNull())
        .addColumn('extract_schema', 'text')
        .addColumn('diff_options', 'text')
        .addColumn('notify_options', 'text')
        .addColumn('tags', 'text')
        .addColumn('metadata', 'text')
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('check_seq', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('snapshot_seq', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_check_state', 'text')
        .addColumn('last_check_error', 'text')
        .addColumn('last_check_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('monitors_owner').on('monitors').columns(['owner_id', 'created_at']).execute();
      // A check is the durable unit of work: leased by one runner, committed once with its snapshot, changes and
      // events (docs/monitors.md, "Exactly once").
      await db.schema
        .createTable('monitor_checks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('monitor_id', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('execution_id', 'text', (c) => c.unique())
        .addColumn('sequence_number', 'integer', (c) => c.notNull())
        .addColumn('monitor_revision', 'integer', (c) => c.notNull())
        .addColumn('triggered_by', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('result_status', 'text')
        .addColumn('source_error', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'text')
        .addColumn('lease_token', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('processed_at', 'text')
        .execute();
      await db.schema
        .createIndex('monitor_checks_monitor')
        .on('monitor_checks')
        .columns(['monitor_id', 'sequence_number'])
        .unique()
        .execute();
      await db.schema
        .createIndex('monitor_checks_state')
        .on('monitor_checks')
        .columns(['state', 'lease_until'])
        .execute();
      await db.schema
        .createTable('monitor_snapshots')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('monitor_id', 'text', (c) => c.notNull())
        .addColumn('check_id', 'text')
        .addColumn('execution_id', 'text')
        .addColumn('monitor_revision', 'integer', (c) => c.notNull())
        .addColumn('sequence_number', 'integer', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('content_complete', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('content', 'text')
        .addColumn('content_length', 'integer', (c) => c.notNull())
        .addColumn('extracted', 'text')
        .addColumn('captured_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('monitor_snapshots_monitor')
        .on('monitor_snapshots')
        .columns(['monitor_id', 'sequence_number'])
        .unique()
        .execute();
      await db.schema
        .createTable('monitor_changes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('monitor_id', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('check_id', 'text')
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('change_type', 'text', (c) => c.notNull())
        .addColumn('from_snapshot_id', 'text')
        .addColumn('to_snapshot_id', 'text')
        .addColumn('diff_text', 'text')
        .addColumn('diff_text_truncated', 'integer', (c) => c.notNull())
        .addColumn('diff_json', 'text')
        .addColumn('judgment', 'text')
        .addColumn('notified', 'integer', (c) => c.notNull())
        .addColumn('notification_status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('monitor_changes_monitor')
        .on('monitor_changes')
        .columns(['monitor_id', 'created_at', 'id'])
        .execute();
      // A monitor's notifications are the deliveries of the events about it.
      await db.schema.createIndex('events_subject').on('events').columns(['subject_id', 'seq']).execute();
      await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').column('event_id').execute();
      await db.schema
        .createIndex('monitor_changes_owner')
        .on('monitor_changes')
        .columns(['owner_id', 'created_at', 'id'])
        .execute();
    },
  },
  // Firecrawl's changeTracking format (docs/firecrawl.md): the last content seen of a URL, per key and tag.
  '0012_change_tracking': {
    async up(db) {
      await db.schema
        .createTable('change_tracking')
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('tag', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('json', 'text')
        .addColumn('scrape_id', 'text', (c) => c.notNull())
        .addColumn('scraped_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('change_tracking_pk', ['owner_id', 'url', 'tag'])
        .execute();
    },
  },
  // SQLite: a saved page reaches the FTS5 index in a batch, not in its own transaction (docs/search.md, "Indexing").
  // FTS5 writes a new segment at every commit that changed it: about 0.4 ms of a crawl page's 10 ms of CPU. A page's
  // row id waits in search_fts_pending until a flush (every SEARCH_FTS_FLUSH_MS, and before every search) indexes
  // the waiting pages together. A row deleted before its flush leaves the pending list; one deleted after it leaves
  // the index, as before.
  '0013_search_fts_pending': {
    async up(db) {
      if (!isSqlite(db)) return;
      await db.schema
        .createTable('search_fts_pending')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .execute();
      await sql`drop trigger search_documents_ai`.execute(db);
      await sql`create trigger search_documents_ai after insert on search_documents begin
          insert into search_fts_pending(id) values (new.id);
        end`.execute(db);
      await sql`drop trigger search_documents_ad`.execute(db);
      await sql`create trigger search_documents_ad after delete on search_documents begin
          insert into search_fts(search_fts, rowid, title, body)
            select 'delete', old.id, old.title, old.body
            where not exists (select 1 from search_fts_pending where id = old.id);
          delete from search_fts_pending where id = old.id;
        end`.execute(db);
    },
  },
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export const latestMigration = Object.keys(migrations).sort().at(-1) ?? '';

/** Applies every pending migration; returns the names applied now. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  // Migrations run before the typed schema exists, so they see an untyped database.
  const untyped = db as unknown as Kysely<unknown>;
  // Kysely decides whether its own tables exist by listing the tables of EVERY schema: with
  // another schema's kysely_migration_lock visible (tests give each run a schema of one shared
  // database), it skips creating ours and then fails to read it. Naming our schema scopes that check.
  const schema = isSqlite(untyped)
    ? undefined
    : (await sql<{ schema: string }>`select current_schema() as schema`.execute(untyped)).rows[0]?.schema;
  const migrator = new Migrator({ db: untyped, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
