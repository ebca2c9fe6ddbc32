// Row types of every table, shared by both database adapters (timestamps are ISO 8601 UTC text).
import type { Generated } from 'kysely';

export interface ApiKeyTable {
  id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface JobTable {
  id: string;
  owner_id: string;
  kind: string;
  status: string;
  url: string;
  options: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  expires_at: string | null;
  total: number;
  completed: number;
  failed: number;
  credits_used: number;
  error_message: string | null;
  /** The code of error_message (BLOCKED_ADDRESS, DNS_FAILURE…), migration 0007. */
  error_code: string | null;
  updated_at: string;
}

export interface EventTable {
  seq: Generated<number>;
  id: string;
  owner_id: string;
  type: string;
  subject_id: string | null;
  payload: string;
  created_at: string;
  dispatched: Generated<number>;
}

export interface PageCacheTable {
  cache_key: string;
  url: string;
  final_url: string;
  status_code: number;
  content_type: string;
  headers: string;
  body: string;
  engine: string;
  created_at: string;
}

export interface CrawlPageTable {
  id: Generated<number>;
  job_id: string;
  url: string;
  depth: number;
  state: string;
  attempts: number;
  available_at: string;
  lease_until: string | null;
  lease_owner: string | null;
  error: string | null;
}

export interface CrawlResultTable {
  seq: Generated<number>;
  job_id: string;
  url: string;
  data: string;
  created_at: string;
}

export interface WebhookSubscriptionTable {
  id: string;
  owner_id: string;
  name: string;
  description: string | null;
  webhook_url: string;
  secret: string;
  event_types: string;
  scope: string;
  specific_task_ids: string | null;
  timeout_seconds: number;
  max_retries: number;
  retry_backoff_multiplier: number;
  custom_headers: string | null;
  tags: string | null;
  metadata: string | null;
  task_id: string | null;
  is_active: number;
  disabled_reason: string | null;
  consecutive_failures: number;
  total_deliveries: number;
  successful_deliveries: number;
  failed_deliveries: number;
  last_success_at: string | null;
  last_failure_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveryTable {
  id: string;
  subscription_id: string;
  owner_id: string;
  event_id: string | null;
  event_type: string;
  payload: string;
  status: string;
  attempt_number: number;
  next_attempt_at: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  request_url: string;
  response_status: number | null;
  response_duration_ms: number | null;
  error_message: string | null;
  error_code: string | null;
  is_test: number;
  replay_of: string | null;
  created_at: string;
  delivered_at: string | null;
  finished_at: string | null;
  /** The origin of request_url: what the per-receiver limit counts (migration 0007). */
  receiver: string | null;
  /** Start of the attempt in flight, set while leased (migration 0007). */
  attempt_started_at: string | null;
}

export interface WebhookAttemptTable {
  id: Generated<number>;
  delivery_id: string;
  attempt_number: number;
  started_at: string;
  response_status: number | null;
  duration_ms: number;
  error_code: string | null;
  error_message: string | null;
  response_body: string | null;
}

export interface ScheduledTaskTable {
  id: string;
  owner_id: string;
  name: string;
  description: string | null;
  cron_expression: string;
  timezone: string;
  task_type: string;
  task_payload: string;
  concurrency_mode: string;
  max_executions_per_day: number | null;
  webhook_ids: string | null;
  webhook_url: string | null;
  implicit_webhook_id: string | null;
  tags: string | null;
  metadata: string | null;
  min_credits_required: number;
  is_active: number;
  is_paused: number;
  pause_reason: string | null;
  next_execution_at: string | null;
  total_executions: number;
  successful_executions: number;
  failed_executions: number;
  consecutive_failures: number;
  last_execution_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface TaskExecutionTable {
  id: string;
  task_id: string;
  owner_id: string;
  execution_number: number;
  status: string;
  scheduled_for: string;
  started_at: string | null;
  completed_at: string | null;
  job_uuid: string | null;
  job_kind: string | null;
  triggered_by: string;
  error_message: string | null;
  credits_used: number;
  items_processed: number;
  items_succeeded: number;
  items_failed: number;
  job_status: string | null;
  created_at: string;
}

export interface Database {
  api_keys: ApiKeyTable;
  jobs: JobTable;
  events: EventTable;
  page_cache: PageCacheTable;
  crawl_pages: CrawlPageTable;
  crawl_results: CrawlResultTable;
  webhook_subscriptions: WebhookSubscriptionTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
  scheduled_tasks: ScheduledTaskTable;
  task_executions: TaskExecutionTable;
  screenshots: ScreenshotTable;
  search_documents: SearchDocumentTable;
  templates: TemplateTable;
  template_versions: TemplateVersionTable;
  monitors: MonitorTable;
  monitor_checks: MonitorCheckTable;
  monitor_snapshots: MonitorSnapshotTable;
  monitor_changes: MonitorChangeTable;
  change_tracking: ChangeTrackingTable;
}

/** JSON columns hold what the client sent (targets, extract_schema, diff_options, notify_options, tags, metadata). */
export interface MonitorTable {
  id: string;
  owner_id: string;
  task_id: string;
  name: string;
  description: string | null;
  monitor_type: string;
  targets: string;
  goal: string | null;
  track_mode: string;
  extract_schema: string | null;
  diff_options: string | null;
  notify_options: string | null;
  tags: string | null;
  metadata: string | null;
  revision: number;
  check_seq: number;
  snapshot_seq: number;
  last_check_state: string | null;
  last_check_error: string | null;
  last_check_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface MonitorCheckTable {
  id: string;
  monitor_id: string;
  owner_id: string;
  execution_id: string | null;
  sequence_number: number;
  monitor_revision: number;
  triggered_by: string;
  /** pending → processing (leased) → completed | failed. */
  state: string;
  result_status: string | null;
  source_error: string | null;
  attempts: number;
  last_error: string | null;
  lease_token: string | null;
  lease_until: string | null;
  created_at: string;
  processed_at: string | null;
}

export interface MonitorSnapshotTable {
  id: string;
  monitor_id: string;
  check_id: string | null;
  execution_id: string | null;
  monitor_revision: number;
  sequence_number: number;
  url: string;
  content_hash: string;
  content_complete: number;
  status: string;
  /** The normalized text compared, one block per line (bounded, docs/monitors.md). */
  content: string | null;
  content_length: number;
  extracted: string | null;
  captured_at: string;
}

/** The last content a key saw of a URL under a tag (Firecrawl's changeTracking), normalized as monitors compare. */
export interface ChangeTrackingTable {
  owner_id: string;
  url: string;
  tag: string;
  /** The normalized lines of the page's markdown, joined by newlines. */
  content: string;
  /** The `json` extraction of that scrape (JSON text), when its json mode asked for one. */
  json: string | null;
  scrape_id: string;
  scraped_at: string;
}

export interface MonitorChangeTable {
  id: string;
  monitor_id: string;
  owner_id: string;
  check_id: string | null;
  url: string;
  change_type: string;
  from_snapshot_id: string | null;
  to_snapshot_id: string | null;
  diff_text: string | null;
  diff_text_truncated: number;
  diff_json: string | null;
  judgment: string | null;
  notified: number;
  notification_status: string;
  created_at: string;
}

export interface TemplateTable {
  id: string;
  owner_id: string;
  slug: string | null;
  name: string;
  template_type: string;
  current_version: number;
  created_at: string;
  updated_at: string;
}

export interface TemplateVersionTable {
  template_id: string;
  version: number;
  /** The version's TemplateContent as JSON. */
  content: string;
  created_at: string;
}

/** The embedded search engine's documents; PostgreSQL adds a generated `tsv` column that code never writes. */
export interface SearchDocumentTable {
  id: Generated<number>;
  owner_id: string;
  job_id: string;
  url: string;
  url_hash: string;
  host: string;
  title: string;
  body: string;
  language: string | null;
  indexed_at: string;
}

export interface ScreenshotTable {
  id: string;
  owner_id: string;
  job_id: string;
  width: number;
  height: number;
  bytes: number;
  content: Buffer;
  created_at: string;
}
