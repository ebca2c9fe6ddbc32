// What the batch scrape tests share: creating a batch, waiting for its end, reading every results page.
import assert from 'node:assert/strict';
import type { TestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

export type Item = Record<string, unknown> & { url: string; metadata: Record<string, unknown> };

export async function createBatch(t: TestApp, body: Record<string, unknown>, key?: string) {
  const res = await t.request('POST', '/v1/batch/scrape', { body, ...(key ? { key } : {}) });
  assert.equal(res.statusCode, 200, res.body);
  const json = res.json();
  assert.equal(json.success, true);
  assert.equal(json.data.status, 'created');
  return json.data as { job_id: string; total: number; invalid_urls?: string[]; message: string };
}

export async function waitForBatch(t: TestApp, jobId: string, timeoutMs = 20_000) {
  return until(
    `batch ${jobId} to end`,
    async () => {
      const data = (await t.request('GET', `/v1/batch/scrape/${jobId}/status`)).json().data;
      return data.status === 'pending' ? undefined : (data as Record<string, unknown> & { status: string });
    },
    timeoutMs,
  );
}

/** Every results page, following `next`; also returns the pages' answers. */
export async function allResults(t: TestApp, jobId: string) {
  const items: Item[] = [];
  const pages: Array<Record<string, unknown>> = [];
  let next: string | undefined = `/v1/batch/scrape/${jobId}?skip=0`;
  while (next) {
    const res = await t.request('GET', next.replace(/^https?:\/\/[^/]+/, ''));
    assert.equal(res.statusCode, 200, res.body);
    const json = res.json();
    pages.push(json);
    items.push(...(json.data as Item[]));
    next = json.next;
  }
  return { items, pages };
}

export const pathOf = (item: { url: string }) => new URL(item.url).pathname;

/** What batchThroughSigkill saw: the batch's final status, every result URL (as listed, repeats kept) and timings. */
export interface SigkillRun {
  jobId: string;
  status: Record<string, unknown> & { status?: string };
  /** Every result's `url`, over all the results pages, in order. */
  seen: string[];
  /** Pages saved when the first process was killed. */
  completedAtKill: number;
  /** From the second process's start to the batch's end. */
  afterRestartMs: number;
}

/**
 * Creates a batch of `urls` in a service process started with `env` (its own store settings), SIGKILLs the process
 * once `killAfter` pages are saved (others then in flight), starts another on the same store and reads the batch
 * to its end there. The caller asserts on the outcome; the second process is stopped before this returns.
 */
export async function batchThroughSigkill(
  env: Record<string, string> & { API_KEYS: string },
  urls: readonly string[],
  killAfter: number,
): Promise<SigkillRun> {
  const key = env.API_KEYS.split(',')[0] as string;
  type Answer = { data: Record<string, unknown> & { job_id?: string; status?: string; completed?: number } } & {
    next?: string;
  };
  const api = async (base: string, method: string, path: string, body?: unknown): Promise<Answer> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return (await res.json()) as Answer;
  };
  // Loaded here, not at the top: process.ts registers an after() hook in every test file that imports it, and the
  // other users of these helpers start no process.
  const { startService } = await import('../helpers/process.js');
  const first = await startService(env);
  const created = await api(first.url, 'POST', '/v1/batch/scrape', { urls, engine: 'cheerio' });
  const jobId = created.data.job_id as string;
  assert.equal(created.data.total, urls.length, JSON.stringify(created));
  const completedAtKill = await until(
    `${killAfter} pages of batch ${jobId} saved`,
    async () => {
      const completed = (await api(first.url, 'GET', `/v1/batch/scrape/${jobId}/status`)).data.completed ?? 0;
      return completed >= killAfter ? completed : undefined;
    },
    60_000,
  );
  first.child.kill('SIGKILL');
  await first.exited;

  const second = await startService(env);
  const restartedAt = Date.now();
  try {
    const status = await until(
      `batch ${jobId} to end after the restart`,
      async () => {
        const data = (await api(second.url, 'GET', `/v1/batch/scrape/${jobId}/status`)).data;
        return data.status === 'pending' ? undefined : data;
      },
      60_000,
    );
    const afterRestartMs = Date.now() - restartedAt;
    const seen: string[] = [];
    let next: string | undefined = `/v1/batch/scrape/${jobId}?skip=0`;
    while (next) {
      const page = await api(second.url, 'GET', next.replace(/^https?:\/\/[^/]+/, ''));
      seen.push(...(page.data as unknown as Array<{ url: string }>).map((r) => r.url));
      next = page.next;
    }
    return { jobId, status, seen, completedAtKill, afterRestartMs };
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
}
