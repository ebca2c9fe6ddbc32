// What axios-based clients (the AnyCrawl SDK) send: an empty body with Content-Type: application/json on routes that
// take none, or an optional one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CrawlSite, startCrawlSite } from '../fixtures/crawl-site.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

describe('empty JSON bodies', () => {
  let t: TestApp;
  let site: CrawlSite;
  before(async () => {
    site = await startCrawlSite({ '/': { delayMs: 2000 } });
    t = await startTestApp({ env: { ALLOW_LOCAL_WEBHOOKS: 'true' } });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const json = { 'content-type': 'application/json' };
  const send = (method: string, url: string) =>
    t.app.server.inject({
      method: method as 'GET',
      url,
      headers: { authorization: 'Bearer test-key-0123456789', ...json },
      payload: '',
    });

  it('accepts an empty body on routes that take none or an optional one, whatever Content-Type says', async () => {
    const crawl = await t.request('POST', '/v1/crawl', { body: { url: `${site.url}/` } });
    const jobId = crawl.json().data.job_id as string;
    const cancel = await send('DELETE', `/v1/crawl/${jobId}`);
    assert.equal(cancel.statusCode, 200, cancel.body);

    const hook = await t.request('POST', '/v1/webhooks', {
      body: { name: 'h', webhook_url: 'http://127.0.0.1:9/', event_types: ['crawl.completed'] },
    });
    const hookId = hook.json().data.webhook_id as string;
    const test = await send('POST', `/v1/webhooks/${hookId}/test`);
    assert.equal(test.statusCode, 200, test.body);
    const deleted = await send('DELETE', `/v1/webhooks/${hookId}`);
    assert.equal(deleted.statusCode, 200, deleted.body);

    const task = await t.request('POST', '/v1/scheduled-tasks', {
      body: {
        name: 'x',
        cron_expression: '0 * * * *',
        task_type: 'scrape',
        task_payload: { url: 'https://example.com/' },
      },
    });
    const taskId = task.json().data.task_id as string;
    const paused = await send('PATCH', `/v1/scheduled-tasks/${taskId}/pause`);
    assert.equal(paused.statusCode, 200, paused.body);
    const resumed = await send('PATCH', `/v1/scheduled-tasks/${taskId}/resume`);
    assert.equal(resumed.statusCode, 200, resumed.body);
    const gone = await send('DELETE', `/v1/scheduled-tasks/${taskId}`);
    assert.equal(gone.statusCode, 200, gone.body);
  });

  it('pauses a task when no body is sent at all', async () => {
    const task = await t.request('POST', '/v1/scheduled-tasks', {
      body: {
        name: 'y',
        cron_expression: '0 * * * *',
        task_type: 'scrape',
        task_payload: { url: 'https://example.com/' },
      },
    });
    const taskId = task.json().data.task_id as string;
    const paused = await t.app.server.inject({
      method: 'PATCH',
      url: `/v1/scheduled-tasks/${taskId}/pause`,
      headers: { authorization: 'Bearer test-key-0123456789' },
    });
    assert.equal(paused.statusCode, 200, paused.body);
    assert.equal(paused.json().data.is_paused, true);
  });

  it('still answers a route that needs a body with the validation shape when it is empty', async () => {
    const res = await send('POST', '/v1/scrape');
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().error, 'Validation error');
    assert.equal(res.json().data.type, 'validation_error');
  });
});
