// Adversarial crawl and task inputs (issue 12, item 10): private seeds refused at creation, a crawl
// that fails says why in its status, cron expressions that never run refused. SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CrawlSite, startCrawlSite } from '../fixtures/crawl-site.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

type Issue = { field: string; code: string; message: string };

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`scheduled tasks: cron expressions that never run (${backend})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ backend, clock: () => new Date('2026-11-22T10:00:30.000Z'), env: { SCHEDULER_TICK_MS: '60000' } });
    });
    after(async () => {
      await t.close();
    });

    const body = (cron: string, extra: Record<string, unknown> = {}) => ({
      name: 'never',
      cron_expression: cron,
      task_type: 'scrape',
      task_payload: { url: 'https://example.com/' },
      ...extra,
    });

    function assertCronRefused(res: { statusCode: number; body: string; json(): { data: { issues: Issue[] } } }, message: RegExp): void {
      assert.equal(res.statusCode, 400, res.body);
      const issue = res.json().data.issues.find((i) => i.field === 'cron_expression');
      assert.ok(issue, res.body);
      assert.match(issue.message, message);
    }

    const never: Array<[string, RegExp]> = [
      ['0 0 30 2 *', /never runs: day 30 does not exist in February/],
      ['0 0 31 2 *', /never runs: day 31 does not exist in February/],
      ['0 0 31 4,6,9,11 *', /never runs: day 31 does not exist in April, June, September or November/],
    ];

    it('refuses them at creation with 400 on cron_expression, and saves nothing', async () => {
      for (const [cron, message] of never) assertCronRefused(await t.request('POST', '/v1/scheduled-tasks', { body: body(cron) }), message);
      assert.deepEqual((await t.request('GET', '/v1/scheduled-tasks')).json().data, []);
    });

    it('refuses them on update, leaving the task as it was', async () => {
      const created = await t.request('POST', '/v1/scheduled-tasks', { body: body('0 0 * * *') });
      assert.equal(created.statusCode, 201, created.body);
      const id = created.json().data.task_id as string;
      for (const [cron, message] of never) assertCronRefused(await t.request('PUT', `/v1/scheduled-tasks/${id}`, { body: { cron_expression: cron } }), message);
      const task = (await t.request('GET', `/v1/scheduled-tasks/${id}`)).json().data;
      assert.equal(task.cron_expression, '0 0 * * *');
      assert.equal(task.next_execution_at, '2026-11-23T00:00:00.000Z');
      await t.request('DELETE', `/v1/scheduled-tasks/${id}`);
    });

    it('refuses an expression whose every time is skipped by daylight saving in the task\'s zone', async () => {
      // 02:xx on March 29 when it is a Sunday: always the last Sunday of March, when Berlin skips 02:00-03:00,
      // and a wildcard job (minute starts with '*') does not run in a skipped hour. In UTC it runs.
      const cron = '*/30 2 29 3 */7';
      assertCronRefused(await t.request('POST', '/v1/scheduled-tasks', { body: body(cron, { timezone: 'Europe/Berlin' }) }), /never runs in time zone Europe\/Berlin/);
      const utc = await t.request('POST', '/v1/scheduled-tasks', { body: body(cron, { timezone: 'UTC' }) });
      assert.equal(utc.statusCode, 201, utc.body);
      const id = utc.json().data.task_id as string;
      assertCronRefused(await t.request('PUT', `/v1/scheduled-tasks/${id}`, { body: { timezone: 'Europe/Berlin' } }), /never runs in time zone Europe\/Berlin/);
      await t.request('DELETE', `/v1/scheduled-tasks/${id}`);
    });

    it('accepts rare but real schedules, each with its next run', async () => {
      const rare: Array<[string, string]> = [
        ['0 0 29 2 *', '2028-02-29T00:00:00.000Z'], // leap years
        ['0 0 30 2 1', '2027-02-01T00:00:00.000Z'], // both day fields restricted: Mondays of February (Vixie's OR rule)
        ['0 0 31 4,6,9,11 SUN', '2026-11-29T00:00:00.000Z'],
        ['0 0 29 2 */7', '2032-02-29T00:00:00.000Z'], // Feb 29 that is a Sunday ('*/7' starts with '*': AND)
      ];
      for (const [cron, next] of rare) {
        const res = await t.request('POST', '/v1/scheduled-tasks', { body: body(cron) });
        assert.equal(res.statusCode, 201, `${cron}: ${res.body}`);
        assert.equal(res.json().data.next_execution_at, next, cron);
        await t.request('DELETE', `/v1/scheduled-tasks/${res.json().data.task_id as string}`);
      }
    });
  });
}
