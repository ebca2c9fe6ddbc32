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

export interface Database {
  api_keys: ApiKeyTable;
  jobs: JobTable;
  events: EventTable;
  page_cache: PageCacheTable;
  crawl_pages: CrawlPageTable;
  crawl_results: CrawlResultTable;
}
