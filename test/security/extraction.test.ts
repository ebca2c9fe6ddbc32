// One page must not freeze or kill the service: pathological pages scraped and crawled by the real process under the
// heap limit `npm start` uses.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { tempDir } from '../helpers/databases.js';
import { type RunningService, startService } from '../helpers/process.js';
import {
  type HeavySite,
  type HealthWatch,
  pathologicalPage,
  startHeavySite,
  watchHealth,
} from './extraction-helpers.js';

const KEY = 'extraction-key-0123456789';
const MB = 1024 * 1024;

/** Peak resident memory of a process (Linux), in MB. */
function peakRssMb(pid: number | undefined): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
  } catch {
    return undefined;
  }
}

describe('extraction of pathological pages, real process with --max-old-space-size=384', () => {
  // Assigned in before(); after() copes with a before() that failed half-way.
  let site!: HeavySite;
  let service!: RunningService;
  let dataDir: string;
  const figures: string[] = [];

  before(async () => {
    site = await startHeavySite({
      '/flat-1600k': pathologicalPage(1.6 * MB),
      '/flat-7m': pathologicalPage(7 * MB),
      '/flat-9500k': pathologicalPage(9.5 * MB),
    });
    dataDir = tempDir();
    service = await startService({
      DATA_DIR: dataDir,
      API_KEYS: KEY,
      ALLOW_LOCAL_TARGETS: 'true',
      // As `npm start` runs it: the main heap is capped, so a page built on the main thread kills it.
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=384`.trim(),
      // The defaults, except a shorter time budget so that the test does not wait 30 s a page.
      EXTRACT_TIMEOUT_MS: '10000',
    });
  });
  after(async () => {
    if (service !== undefined && service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    if (site !== undefined) await site.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    // The figures the report and docs/performance.md quote.
    console.log(figures.join('\n'));
  });

  async function scrape(
    path: string,
  ): Promise<{ status: number; body: Record<string, unknown> & { data?: Record<string, unknown> } }> {
    const res = await fetch(`${service.url}/v1/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.url}${path}`, max_age: 0, formats: ['markdown', 'links'] }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** Scrapes `path` while /health is polled; returns the answer and the health figures. */
  async function scrapeWatched(path: string) {
    const health: HealthWatch = watchHealth(`${service.url}/health`, service.child.pid);
    const started = Date.now();
    let answer: Awaited<ReturnType<typeof scrape>> | undefined;
    let failure: unknown;
    try {
      answer = await scrape(path);
    } catch (error) {
      failure = error;
    }
    const ms = Date.now() - started;
    const watched = await health.stop();
    figures.push(
      `${path}: ${answer ? `${answer.status} ${String(answer.body.code ?? '')}` : `no answer (${String(failure)})`} in ${ms} ms; ` +
        `/health max latency ${watched.maxMs} ms over ${watched.answered} answers, ${watched.failed} failed; peak RSS ${peakRssMb(service.child.pid)} MB`,
    );
    assert.ok(answer, `the service answered the scrape (${String(failure)}); stderr: ${service.stderr().slice(-2000)}`);
    assert.equal(watched.failed, 0, 'every /health request was answered');
    // Generous: the point is "never frozen for seconds", not a speed figure.
    assert.ok(watched.maxMs < 500, `/health answered within 500 ms while extracting (max ${watched.maxMs} ms)`);
    return answer;
  }

  it('extracts a 1.6 MB page of many small elements without blocking /health', async () => {
    const answer = await scrapeWatched('/flat-1600k');
    assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 500));
    assert.equal(answer.body.success, true);
    assert.ok(String(answer.body.data?.markdown).length > 100_000);
  });

  it('fails a 7 MB and a 9.5 MB page of many small elements alone, with an extraction code, and keeps serving', async () => {
    for (const path of ['/flat-7m', '/flat-9500k']) {
      const answer = await scrapeWatched(path);
      assert.equal(answer.status, 502, JSON.stringify(answer.body).slice(0, 500));
      assert.equal(answer.body.success, false);
      assert.match(String(answer.body.code), /^EXTRACTION_(TOO_LARGE|TIMEOUT)$/);
      assert.equal(answer.body.data?.status, 'failed');
      assert.equal(service.child.exitCode, null, 'the process is alive');
      // The extractor still serves ordinary pages.
      const next = await scrape('/ok');
      assert.equal(next.status, 200, JSON.stringify(next.body).slice(0, 500));
      assert.match(String(next.body.data?.markdown), /^# An ordinary page/);
    }
  });

  it('finishes a crawl whose one pathological page fails with the reason, the others completed', async () => {
    const res = await fetch(`${service.url}/v1/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.url}/seed`, limit: 10, formats: ['markdown'] }),
    });
    assert.equal(res.status, 200);
    const jobId = ((await res.json()) as { data: { job_id: string } }).data.job_id;
    const health = watchHealth(`${service.url}/health`, service.child.pid);
    const deadline = Date.now() + 120_000;
    let status: Record<string, unknown> = {};
    while (Date.now() < deadline) {
      const s = await fetch(`${service.url}/v1/crawl/${jobId}/status`, { headers: { authorization: `Bearer ${KEY}` } });
      status = ((await s.json()) as { data: Record<string, unknown> }).data;
      if (status.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const watched = await health.stop();
    figures.push(
      `crawl: ${JSON.stringify(status)}; /health max latency ${watched.maxMs} ms, ${watched.failed} failed; peak RSS ${peakRssMb(service.child.pid)} MB`,
    );
    assert.equal(status.status, 'completed', JSON.stringify(status));
    assert.equal(status.total, 4);
    assert.equal(status.completed, 3);
    assert.equal(status.failed, 1);
    assert.equal(watched.failed, 0);
    assert.ok(watched.maxMs < 500, `/health answered within 500 ms during the crawl (max ${watched.maxMs} ms)`);
    const db = new Database(`${dataDir}/crawlservice.sqlite`, { readonly: true });
    try {
      const failed = db
        .prepare(`SELECT url, error FROM crawl_pages WHERE job_id = ? AND state = 'failed'`)
        .all(jobId) as Array<{ url: string; error: string }>;
      assert.equal(failed.length, 1);
      assert.equal(new URL(String(failed[0]?.url)).pathname, '/flat-9500k');
      assert.match(String(failed[0]?.error), /extract/i);
    } finally {
      db.close();
    }
  });
});
