// Hostile input through Firecrawl's /v2 adapter (docs/security.md): regex path rules run in linear time or are refused
// naming the field, and the WebSocket watch authenticates its handshake and bounds what a client may send.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { compileRegexRules } from '../../src/crawl/scope/path-regex.js';
import { MatchSubject, PATH_RULE_LIMITS } from '../../src/crawl/scope/path-pattern.js';
import { LinearRegex } from '../../src/util/linear-regex.js';
import { type CrawlSite, startCrawlSite, treeSitePages } from '../fixtures/crawl-site.js';
import { type TestApp, TEST_KEY, startTestApp } from '../helpers/test-app.js';

describe('regex path rules (includePaths / excludePaths of /v2)', () => {
  it('a rule that makes V8 backtrack exponentially is matched in steps linear in the path', () => {
    // `^/(a+)+$` against "/aaa…a!" takes V8 2^n steps; here the cost is bounded by the path's length.
    const rules = compileRegexRules(['^/(a+)+$', '(x|x)*y', '^/(?:a|aa)+$'], false);
    for (const n of [100, 1000, 4000]) {
      const path = `/${'a'.repeat(n - 2)}!`;
      assert.equal(rules.matches(new MatchSubject(new URL(`https://site.test${path}`))), false);
      assert.ok(
        LinearRegex.lastSteps <= PATH_RULE_LIMITS.baseSteps + PATH_RULE_LIMITS.stepsPerCharacter * path.length,
        `${LinearRegex.lastSteps} steps for ${path.length} characters`,
      );
    }
    assert.equal(rules.matches(new MatchSubject(new URL(`https://site.test/${'a'.repeat(3000)}`))), true);
  });

  it('a path longer than the subject limit is undecided (the link is then not visited)', () => {
    const rules = compileRegexRules(['^/blog/'], false);
    const long = new URL(`https://site.test/blog/${'x'.repeat(PATH_RULE_LIMITS.maxSubjectLength)}`);
    assert.equal(rules.matches(new MatchSubject(long)), undefined);
  });

  describe('through POST /v2/crawl', () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp();
    });
    after(async () => {
      await t.close();
    });

    const refusal = async (includePaths: unknown) => {
      const res = await t.request('POST', '/v2/crawl', { body: { url: 'https://site.test/', includePaths } });
      assert.equal(res.statusCode, 400, res.body);
      return res.json() as { error: string; details: Array<{ path: unknown[]; message: string }> };
    };

    it('refuses backreferences, lookbehind and invalid syntax with a 400 naming the rule', async () => {
      const backreference = await refusal(['^/ok/', '(a)\\1']);
      assert.deepEqual(backreference.details[0]?.path, ['includePaths', 1]);
      assert.match(backreference.error, /^includePaths\.1: This server matches rules in linear time and cannot run/);
      const lookbehind = await refusal(['(?<=a)b']);
      assert.match(lookbehind.error, /^includePaths\.0: This server matches rules in linear time/);
      const invalid = await refusal(['(unclosed']);
      assert.match(invalid.error, /^includePaths\.0: Not a valid regular expression/);
    });

    it('refuses too many rules and too long ones', async () => {
      const many = await refusal(Array.from({ length: PATH_RULE_LIMITS.maxPatterns + 1 }, (_, i) => `^/p${i}/`));
      assert.deepEqual(many.details[0]?.path, ['includePaths']);
      const long = await refusal([`^/${'a'.repeat(PATH_RULE_LIMITS.maxPatternLength)}`]);
      assert.deepEqual(long.details[0]?.path, ['includePaths', 0]);
    });
  });
});

describe('the WebSocket watch of /v2', () => {
  let t: TestApp;
  let site: CrawlSite;
  let wsBase: string;
  before(async () => {
    site = await startCrawlSite(treeSitePages(7, 400));
    t = await startTestApp();
    wsBase = (await t.app.server.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const startCrawl = async () => {
    const res = await t.request('POST', '/v2/crawl', { body: { url: `${site.url}/`, limit: 7 } });
    assert.equal(res.statusCode, 200, res.body);
    return String(res.json().id);
  };

  it('refuses a handshake without a valid key (401, no socket)', async () => {
    const id = await startCrawl();
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${wsBase}/v2/crawl/${id}`, 'wrong-key-0000000');
      ws.on('unexpected-response', (req, res) => {
        // The server must end the connection itself: this client keeps it open to see that it does.
        res.on('close', () => resolve(res.statusCode ?? 0));
        res.resume();
        void req;
      });
      ws.on('open', () => reject(new Error('the socket opened')));
      ws.on('error', () => undefined);
    });
    assert.equal(status, 401);
  });

  it("does not serve another key's job: closes with 1008 Job not found", async () => {
    const id = await startCrawl();
    const ws = new WebSocket(`${wsBase}/v2/crawl/${id}`, 'other-key-9876543210');
    const [code, reason] = await new Promise<[number, string]>((resolve) =>
      ws.on('close', (c, r) => resolve([c, r.toString()])),
    );
    assert.equal(code, 1008);
    assert.deepEqual(JSON.parse(reason), { type: 'error', error: 'Job not found' });
  });

  it('serves at most 32 watch sockets to one key: the next closes with 1013 at once', async () => {
    const slow = await startCrawlSite(treeSitePages(15, 1000));
    try {
      const res = await t.request('POST', '/v2/crawl', { body: { url: `${slow.url}/`, limit: 15 } });
      const id = String(res.json().id);
      const open = async () => {
        const ws = new WebSocket(`${wsBase}/v2/crawl/${id}`, TEST_KEY);
        const first = await new Promise<{ type: string } | { code: number }>((resolve) => {
          ws.once('message', (data) => resolve(JSON.parse(data.toString()) as { type: string }));
          ws.once('close', (code) => resolve({ code }));
        });
        return { ws, first };
      };
      const sockets = [];
      for (let i = 0; i < 32; i++) sockets.push(await open());
      assert.ok(sockets.every((s) => 'type' in s.first && s.first.type === 'catchup'));
      const extra = await open();
      assert.deepEqual(extra.first, { code: 1013 });
      for (const s of sockets) s.ws.terminate();
      await t.request('DELETE', `/v2/crawl/${id}`);
    } finally {
      await slow.close();
    }
  });

  it('closes a socket whose client sends a message over 64 KiB (1009), and streams to a well-behaved one', async () => {
    const id = await startCrawl();
    const noisy = new WebSocket(`${wsBase}/v2/crawl/${id}`, TEST_KEY);
    await new Promise((resolve) => noisy.on('open', resolve));
    noisy.send('x'.repeat(70 * 1024));
    const code = await new Promise<number>((resolve) => noisy.on('close', (c) => resolve(c)));
    assert.equal(code, 1009);

    const quiet = new WebSocket(`${wsBase}/v2/crawl/${id}`, TEST_KEY);
    const types: string[] = [];
    const urls = new Set<string>();
    quiet.on('message', (data) => {
      const message = JSON.parse(data.toString()) as {
        type: string;
        data: { data?: Array<{ metadata: { sourceURL: string } }>; metadata?: { sourceURL: string } };
      };
      types.push(message.type);
      for (const doc of message.data.data ?? []) urls.add(doc.metadata.sourceURL);
      if (message.data.metadata) urls.add(message.data.metadata.sourceURL);
    });
    const [closeCode, reason] = await new Promise<[number, string]>((resolve) =>
      quiet.on('close', (c, r) => resolve([c, r.toString()])),
    );
    assert.equal(closeCode, 1000);
    assert.deepEqual(JSON.parse(reason), { type: 'done' });
    assert.equal(types[0], 'catchup');
    assert.equal(urls.size, 7, 'every page of the crawl, once the socket closed');
  });
});

describe('odd but well-formed input through /v2 is a 4xx, never a 500 (review of 2026-11-27)', () => {
  let t: TestApp;
  let site: CrawlSite;
  before(async () => {
    site = await startCrawlSite({ '/': { title: 'Home' } });
    t = await startTestApp();
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  it('refuses format objects whose fields have the wrong types', async () => {
    for (const format of [
      { type: 'json', prompt: 5 },
      { type: 'changeTracking', modes: ['json'], prompt: 5 },
      { type: 'changeTracking', modes: 'jsonx' },
      { type: 'changeTracking', tag: {} },
      { type: 'screenshot', fullPage: 'yes' },
    ]) {
      const res = await t.request('POST', '/v2/scrape', {
        body: { url: `${site.url}/`, formats: ['markdown', format] },
      });
      assert.equal(res.statusCode, 400, `${JSON.stringify(format)}: ${res.body}`);
      assert.equal(res.json().code, 'BAD_REQUEST');
    }
  });

  it('refuses search tbs and monitor schedule text that name inherited properties', async () => {
    for (const tbs of ['constructor', '__proto__', 'hasOwnProperty']) {
      const res = await t.request('POST', '/v2/search', { body: { query: 'x', tbs } });
      assert.equal(res.statusCode, 400, `${tbs}: ${res.body}`);
    }
    for (const text of ['constructor', '__proto__ at 9', 'every day at 9 at 10', 'toString']) {
      const res = await t.request('POST', '/v2/monitor', {
        body: { name: 'm', schedule: { text }, targets: [{ type: 'scrape', urls: [`${site.url}/`] }] },
      });
      assert.equal(res.statusCode, 400, `${text}: ${res.body}`);
      assert.deepEqual(res.json().details[0].path, ['schedule', 'text']);
    }
  });

  it('refuses a monitor whose formats hold null, and a truncated multipart upload', async () => {
    const monitor = await t.request('POST', '/v2/monitor', {
      body: {
        name: 'm',
        schedule: { cron: '0 6 * * *' },
        targets: [{ type: 'scrape', urls: [`${site.url}/`], scrapeOptions: { formats: [null] } }],
      },
    });
    assert.ok(monitor.statusCode < 500, monitor.body);
    const boundary = 'xyzzy';
    const truncated = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.html"\r\nContent-Type: text/html\r\n\r\n<p>cut`;
    const parse = await t.app.server.inject({
      method: 'POST',
      url: '/v2/parse',
      headers: {
        authorization: 'Bearer test-key-0123456789',
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: truncated,
    });
    assert.equal(parse.statusCode, 400, parse.body);
  });
});
