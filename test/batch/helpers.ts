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
