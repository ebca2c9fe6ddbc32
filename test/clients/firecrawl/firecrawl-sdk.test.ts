// Firecrawl's published JavaScript client (@mendable/firecrawl-js 4.42.0, a dev dependency) against the service's /v2
// adapter on a real port, on SQLite and on PostgreSQL: every method this server offers, checked against the client's
// declared types and the real content of local pages, and the Firecrawl error shape of what it refuses
// (docs/firecrawl.md).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Firecrawl, {
  type BatchScrapeJob,
  type CrawlJob,
  type Document,
  type MapData,
  type SearchData,
  SdkError,
} from '@mendable/firecrawl-js';
import { type CrawlSite, type FixturePage, startCrawlSite, treeSitePages } from '../../fixtures/crawl-site.js';
import { type SearxngStandin, startSearxngStandin } from '../../fixtures/searxng-standin.js';
import { html, startMapSite, urlset, xml } from '../../fixtures/map-site.js';
import { type TestApp, TEST_KEY, OTHER_KEY, startTestApp } from '../../helpers/test-app.js';
import { refusedPort } from '../../helpers/ports.js';

// The client's axios follows HTTP_PROXY/HTTPS_PROXY from the environment; the service is on loopback.
process.env.no_proxy = '*';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HUB_LINKS = 104;

function sitePages(): Record<string, FixturePage> {
  const hubLinks = Array.from({ length: HUB_LINKS }, (_, i) => `/hub/p${i}`);
  const pages: Record<string, FixturePage> = {
    '/': { title: 'Home', links: ['/docs/a', '/docs/b', '/blog/x', '/hub'] },
    '/docs/a': { title: 'Doc A', links: ['/docs/b', '/docs/private/c'] },
    '/docs/b': { title: 'Doc B', links: ['/blog/x'] },
    '/docs/private/c': { title: 'Doc C' },
    '/blog/x': { title: 'Blog X' },
    '/hub': { title: 'Hub', links: hubLinks },
    '/gone': { status: 404, title: 'Gone' },
    '/watched': { title: 'Watched', body: '<p>Opening hours: nine to five, every weekday, at the old forge.</p>' },
    '/tracked': {
      title: 'Tracked',
      body: '<p>The first version of this page, with enough words to be its main content.</p>',
    },
    '/gallery': {
      title: 'Gallery',
      body: '<p>Pictures of anvils, taken in the forge over many years by the smith who made every one of them.</p><img src="/img/a.png" alt="A"><img data-src="img/lazy.jpg" alt="Lazy"><img srcset="/img/s1.png 1x, /img/s2.png 2x" alt="Set"><img src="data:image/png;base64,AAAA" alt="Inline"><img src="/img/a.png#again" alt="A again">',
    },
    '/counter': {
      title: 'Counter',
      body: `<p>A counter that only a visitor's clicks move, written into the page by its own script each time.</p>
<input id="name"><button id="add" onclick="document.getElementById('count').textContent = 'Count ' + (++window.n) + ' for ' + document.getElementById('name').value">Add</button>
<p id="count">Count 0</p><p id="width"></p>
<script>window.n = 0; document.getElementById('width').textContent = 'Width ' + window.innerWidth;</script>`,
    },
    '/product': {
      title: 'Anvil',
      body: '<script type="application/ld+json">{"@type":"Product","name":"Acme Anvil","offers":{"price":"149.99","priceCurrency":"EUR"}}</script><p>The Acme Anvil is forged from one block of steel and rings like a bell when struck by a hammer.</p>',
    },
  };
  for (const link of hubLinks) pages[link] = { title: `Hub page ${link.slice(5)}` };
  return pages;
}

/** The SdkError a call rejects with (fails the test when it resolves or throws something else). */
async function sdkError(call: Promise<unknown>): Promise<SdkError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof SdkError, `an SdkError, not ${String(error)}`);
    return error;
  }
  assert.fail('the call succeeded');
}

function pathsOf(docs: Document[]): string[] {
  return docs.map((d) => new URL(String(d.metadata?.sourceURL)).pathname).sort();
}

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`@mendable/firecrawl-js 4.42.0 against /v2 (${backend})`, () => {
    let t: TestApp;
    let site: CrawlSite;
    let slow: CrawlSite;
    let robots: CrawlSite;
    let searx: SearxngStandin;
    let base: string;
    let client: Firecrawl;

    before(async () => {
      site = await startCrawlSite(sitePages());
      slow = await startCrawlSite(treeSitePages(15, 700));
      robots = await startCrawlSite({ '/': { title: 'Closed' } }, 'User-agent: *\nDisallow: /\n');
      searx = await startSearxngStandin((request) => ({
        json: {
          query: request.params['q'],
          results: [
            { url: `${site.url}/docs/a`, title: 'Doc A result', content: 'About doc A', engine: 'standin' },
            { url: `${site.url}/blog/x`, title: 'Blog X result', content: 'About blog X', engine: 'standin' },
            { url: 'https://elsewhere.example/page', title: 'Elsewhere', content: 'Another site', engine: 'standin' },
          ],
        },
      }));
      t = await startTestApp({ backend, env: { SEARXNG_URL: searx.url } });
      base = await t.app.server.listen({ port: 0, host: '127.0.0.1' });
      client = new Firecrawl({ apiKey: TEST_KEY, apiUrl: base });
    });
    after(async () => {
      await t.close();
      await Promise.all([site.close(), slow.close(), robots.close(), searx.close()]);
    });

    it('scrape: markdown, html, rawHtml and links of the page, with metadata under Firecrawl names', async () => {
      const doc: Document = await client.scrape(`${site.url}/docs/a`, {
        formats: ['markdown', 'html', 'rawHtml', 'links'],
      });
      assert.match(String(doc.markdown), /^# Doc A\n\nThis is the page at \/docs\/a\./);
      assert.doesNotMatch(String(doc.markdown), /Footer/, 'onlyMainContent is true by default, as in Firecrawl');
      assert.match(String(doc.html), /<h1>Doc A<\/h1>/);
      assert.match(String(doc.rawHtml), /<footer>Footer<\/footer>/);
      assert.deepEqual(doc.links, [`${site.url}/`, `${site.url}/docs/b`, `${site.url}/docs/private/c`]);
      const meta = doc.metadata!;
      assert.equal(meta.title, 'Doc A');
      assert.equal(meta.sourceURL, `${site.url}/docs/a`);
      assert.equal(meta.url, `${site.url}/docs/a`);
      assert.equal(meta.statusCode, 200);
      assert.equal(meta.proxyUsed, 'basic');
      assert.equal(meta.language, 'en');
      assert.match(String(meta.scrapeId), UUID);
      assert.equal(meta.cacheState, 'miss');
    });

    it('scrape: onlyMainContent false keeps the page around the article; excludeTags removes elements', async () => {
      const doc = await client.scrape(`${site.url}/docs/b`, {
        formats: ['markdown'],
        onlyMainContent: false,
        excludeTags: ['ul'],
        maxAge: 0,
      });
      assert.match(String(doc.markdown), /Footer/);
      assert.doesNotMatch(String(doc.markdown), /Link 0 from/);
    });

    it("scrape: the json format fills the schema from the page's structured data; summary is the page's own sentences", async () => {
      const doc = await client.scrape(`${site.url}/product`, {
        formats: [
          {
            type: 'json',
            schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
          },
          'summary',
        ],
      });
      assert.deepEqual(doc.json, { name: 'Acme Anvil', price: 149.99 });
      assert.match(String(doc.summary), /Acme Anvil is forged from one block of steel/);
      assert.equal(doc.metadata?.extraction, 'rules');
    });

    it("scrape: the images format lists the page's images, absolute and once each", async () => {
      const doc = await client.scrape(`${site.url}/gallery`, { formats: ['images'] });
      assert.deepEqual(doc.images, [`${site.url}/img/a.png`, `${site.url}/img/lazy.jpg`, `${site.url}/img/s1.png`]);
      assert.equal(doc.markdown, undefined, 'only the formats asked for');
    });

    it('extract: the pages are read with the json format and their objects merged into one answer', async () => {
      const schema = {
        type: 'object',
        properties: { name: { type: 'string' }, price: { type: 'number' }, title: { type: 'string' } },
      };
      const result = await client.extract({
        urls: [`${site.url}/product`, `${site.url}/docs/a`],
        schema,
        pollInterval: 1,
      });
      assert.equal(result.status, 'completed');
      const data = result.data as Record<string, unknown>;
      assert.equal(data.name, 'Acme Anvil');
      assert.equal(data.price, 149.99);

      const started = await client.startExtract({ urls: [`${site.url}/product`], prompt: 'The product name' });
      assert.match(String(started.id), UUID);
      const refused = await sdkError(client.startExtract({ urls: [`${site.url}/*`], prompt: 'everything' }));
      assert.equal(refused.status, 400);
      assert.match(refused.message, /^urls\.0: Wildcard URLs are not offered/);
      const empty = await sdkError(client.startExtract({ urls: [`${site.url}/product`] }));
      assert.match(empty.message, /^prompt: Extract needs a schema, a prompt or both/);
    });

    it('parse: an uploaded HTML file becomes a document by the same extraction; a PDF is refused', async () => {
      const html =
        '<!DOCTYPE html><html lang="en"><head><title>Uploaded</title></head><body><nav>Menu</nav><main><article><h1>Uploaded page</h1><p>This page was sent as a file. It has enough words in it to be taken as the main content by the extractor, which wants a few sentences.</p><img src="https://cdn.example/a.png"></article></main></body></html>';
      const doc = await client.parse(
        { filename: 'page.html', data: Buffer.from(html), contentType: 'text/html' },
        { formats: ['markdown', 'images'] },
      );
      assert.match(String(doc.markdown), /^# Uploaded page\n\nThis page was sent as a file\./);
      assert.doesNotMatch(String(doc.markdown), /Menu/);
      assert.deepEqual(doc.images, ['https://cdn.example/a.png']);
      assert.equal(doc.metadata?.title, 'Uploaded');
      assert.equal(doc.metadata?.sourceURL, 'page.html');

      const text = await client.parse({ filename: 'notes.txt', data: 'Plain notes.\nSecond line.' });
      assert.equal(text.markdown, 'Plain notes.\nSecond line.');

      const pdf = await sdkError(client.parse({ filename: 'report.pdf', data: Buffer.from('%PDF-1.7\n') }));
      assert.equal(pdf.status, 400);
      assert.equal(pdf.code, 'UNSUPPORTED_CONTENT_TYPE');
    });

    it("changeTracking: new, same, changed with a diff, per key and tag; json mode's fields; removed on a 404", async () => {
      // No maxAge: changeTracking fetches the page itself rather than compare a cached copy.
      const tracked = (formats: unknown[], key = client) =>
        key.scrape(`${site.url}/tracked`, { formats: formats as never });
      const gitDiff = ['markdown', { type: 'changeTracking', modes: ['git-diff'] }];
      const first = await tracked(gitDiff);
      const firstTracking = first.changeTracking as Record<string, unknown>;
      assert.deepEqual(firstTracking, { previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });
      const second = (await tracked(gitDiff)).changeTracking as Record<string, unknown>;
      assert.equal(second.changeStatus, 'same');
      assert.ok(typeof second.previousScrapeAt === 'string' && !Number.isNaN(Date.parse(second.previousScrapeAt)));

      site.pages.set('/tracked', {
        title: 'Tracked',
        body: '<p>The second version of this page, with enough words to be its main content.</p>',
      });
      const changed = (await tracked(gitDiff)).changeTracking as { changeStatus: string; diff: { text: string } };
      assert.equal(changed.changeStatus, 'changed');
      assert.match(changed.diff.text, /^-The first version of this page/m);
      assert.match(changed.diff.text, /^\+The second version of this page/m);

      const other = new Firecrawl({ apiKey: OTHER_KEY, apiUrl: base });
      assert.equal(((await tracked(gitDiff, other)).changeTracking as { changeStatus: string }).changeStatus, 'new');
      const tagged = await tracked(['markdown', { type: 'changeTracking', tag: 'weekly' }]);
      assert.equal((tagged.changeTracking as { changeStatus: string }).changeStatus, 'new');

      const jsonMode = [
        'markdown',
        {
          type: 'changeTracking',
          modes: ['json'],
          schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
          tag: 'price',
        },
      ];
      const product = (price: string) =>
        site.pages.set('/tracked', {
          title: 'Tracked',
          body: `<script type="application/ld+json">{"@type":"Product","name":"Anvil","offers":{"price":"${price}"}}</script><p>The anvil of the week, forged and sold here, with enough words for a page.</p>`,
        });
      product('10.00');
      const before = await tracked(jsonMode);
      assert.equal((before.changeTracking as { changeStatus: string }).changeStatus, 'new');
      assert.equal(before.json, undefined, 'the json the mode needed is not answered unasked');
      product('12.50');
      const after = (await tracked(jsonMode)).changeTracking as { changeStatus: string; json: unknown };
      assert.equal(after.changeStatus, 'changed');
      assert.deepEqual(after.json, { price: { previous: 10, current: 12.5 } });
      // A page where the fields cannot be read is not a change of them: the next read compares with the last good one.
      site.pages.set('/tracked', { title: 'Tracked', contentType: 'text/plain', body: 'down for maintenance' });
      await tracked(jsonMode);
      product('12.50');
      const back = (await tracked(jsonMode)).changeTracking as { changeStatus: string; json?: unknown };
      assert.equal(back.json, undefined, JSON.stringify(back));

      site.pages.set('/tracked', { status: 404, title: 'Gone now' });
      const removed = (await tracked(gitDiff)).changeTracking as { changeStatus: string };
      assert.equal(removed.changeStatus, 'removed');

      const noMarkdown = await sdkError(tracked([{ type: 'changeTracking' }]));
      assert.match(noMarkdown.message, /^formats\.0: The changeTracking format needs the markdown format too/);
      const inCrawl = await sdkError(
        client.startCrawl(`${site.url}/`, {
          scrapeOptions: { formats: ['markdown', { type: 'changeTracking' }] } as never,
        }),
      );
      assert.match(
        inCrawl.message,
        /^scrapeOptions\.formats\.1: The changeTracking format is offered on \/v2\/scrape only/,
      );
    });

    it('monitors: create, get, list, update, run checks (new, then changed with a diff), delete', async () => {
      const waitForCheck = async (monitorId: string, checkId: string) => {
        for (let i = 0; i < 100; i++) {
          const check = await client.getMonitorCheck(monitorId, checkId);
          if (check.status === 'completed' || check.status === 'failed') return check;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.fail(`check ${checkId} did not end`);
      };
      const monitor = await client.createMonitor({
        name: 'Forge hours',
        schedule: { cron: '0 6 * * *', timezone: 'Europe/Paris' },
        targets: [{ type: 'scrape', urls: [`${site.url}/watched`] }],
        goal: 'Opening hours',
      });
      assert.match(monitor.id, UUID);
      assert.equal(monitor.status, 'active');
      assert.deepEqual(monitor.schedule, { cron: '0 6 * * *', timezone: 'Europe/Paris' });
      assert.deepEqual(monitor.targets, [{ type: 'scrape', urls: [`${site.url}/watched`] }]);
      assert.ok(monitor.nextRunAt);
      assert.equal((await client.getMonitor(monitor.id)).name, 'Forge hours');
      assert.ok((await client.listMonitors()).some((m) => m.id === monitor.id));

      const first = await client.runMonitor(monitor.id);
      assert.ok(['queued', 'running'].includes(first.status), first.status);
      assert.equal(first.trigger, 'manual');
      const firstDone = await waitForCheck(monitor.id, first.id);
      assert.equal(firstDone.status, 'completed', JSON.stringify(firstDone));
      assert.equal(firstDone.pages[0]?.status, 'new');
      assert.deepEqual(firstDone.summary, { totalPages: 1, same: 0, changed: 0, new: 1, removed: 0, error: 0 });

      site.pages.set('/watched', {
        title: 'Watched',
        body: '<p>Opening hours: ten to four, every weekday, at the old forge.</p>',
      });
      const second = await waitForCheck(monitor.id, (await client.runMonitor(monitor.id)).id);
      assert.equal(second.pages[0]?.status, 'changed');
      assert.match(String(second.pages[0]?.diff?.text), /^\+Opening hours: ten to four/m);
      const checks = await client.listMonitorChecks(monitor.id);
      assert.deepEqual(
        checks.map((c) => c.id),
        [second.id, first.id],
      );

      const paused = await client.updateMonitor(monitor.id, { status: 'paused', goal: 'Hours and days' });
      assert.equal(paused.status, 'paused');
      assert.equal(paused.goal, 'Hours and days');
      // The same monitor through /v1.
      const v1 = (await t.request('GET', `/v1/monitors/${monitor.id}`)).json().data;
      assert.equal(v1.is_paused, true);

      const two = await sdkError(
        client.createMonitor({
          name: 'Two',
          schedule: { cron: '0 6 * * *' },
          targets: [{ type: 'scrape', urls: [`${site.url}/a`, `${site.url}/b`] }],
        }),
      );
      assert.match(two.message, /^targets\.0\.urls: A monitor here watches exactly one URL/);
      const hooked = await sdkError(
        client.createMonitor({
          name: 'Hooked',
          schedule: { cron: 'not cron' },
          webhook: { url: 'https://hooks.example/x' },
          targets: [{ type: 'scrape', urls: [`${site.url}/watched`] }],
        }),
      );
      assert.match(hooked.message, /^webhook: A per-monitor webhook is not offered/);
      const badCron = await sdkError(
        client.createMonitor({
          name: 'Cron',
          schedule: { cron: 'not cron' },
          targets: [{ type: 'scrape', urls: [`${site.url}/watched`] }],
        }),
      );
      assert.deepEqual((badCron.details as Array<{ path: unknown[] }>)[0]?.path, ['schedule', 'cron']);

      assert.equal(await client.deleteMonitor(monitor.id), true);
      assert.equal((await sdkError(client.getMonitor(monitor.id))).status, 404);
    });

    it('scrape: the screenshot format is a PNG the key can fetch', async () => {
      const doc = await client.scrape(`${site.url}/docs/a`, { formats: [{ type: 'screenshot', fullPage: true }] });
      assert.match(String(doc.screenshot), new RegExp(`^${base}/v1/screenshots/`));
      const png = await fetch(String(doc.screenshot), { headers: { authorization: `Bearer ${TEST_KEY}` } });
      assert.equal(png.status, 200);
      assert.equal(png.headers.get('content-type'), 'image/png');
    });

    it('scrape with actions: click, write, press and scripts run before the page is read; their outputs come back', async () => {
      const doc = await client.scrape(`${site.url}/counter`, {
        formats: ['markdown'],
        actions: [
          { type: 'click', selector: '#name' },
          { type: 'write', text: 'Ada' },
          { type: 'press', key: 'ENTER' },
          { type: 'click', selector: '#add' },
          { type: 'wait', milliseconds: 10 },
          { type: 'click', selector: '#add' },
          { type: 'executeJavascript', script: 'return window.n;' },
          { type: 'screenshot', fullPage: true, quality: 80 },
          { type: 'scrape' },
        ],
      });
      assert.match(String(doc.markdown), /Count 2 for Ada/);
      const actions = doc.actions as {
        screenshots: string[];
        scrapes: Array<{ url: string; html: string }>;
        javascriptReturns: Array<{ type: string; value: unknown }>;
        pdfs: string[];
      };
      assert.deepEqual(actions.javascriptReturns, [{ type: 'number', value: 2 }]);
      assert.equal(actions.scrapes[0]?.url, `${site.url}/counter`);
      assert.match(String(actions.scrapes[0]?.html), /Count 2 for Ada/);
      assert.deepEqual(actions.pdfs, []);
      assert.match(String(actions.screenshots[0]), new RegExp(`^${base}/v1/screenshots/`));
      const png = await fetch(String(actions.screenshots[0]), { headers: { authorization: `Bearer ${TEST_KEY}` } });
      assert.equal(png.status, 200);

      const key = await client.scrape(`${site.url}/counter`, {
        formats: ['markdown'],
        headers: { 'X-Api-Key': 'k1' },
      });
      assert.equal(site.headersOf.get('/counter')?.['x-api-key'], 'k1');
      assert.equal(key.metadata?.cacheState, 'miss');

      const phone = await client.scrape(`${site.url}/counter`, {
        formats: ['markdown'],
        mobile: true,
        actions: [{ type: 'wait', milliseconds: 1 }],
      });
      assert.match(String(phone.markdown), /Width 980|Width 390/);
      assert.doesNotMatch(String(phone.markdown), /Width 1280/);
    });

    it('scrape: a target answering 404 is a document with statusCode and error, as Firecrawl answers it', async () => {
      const doc = await client.scrape(`${site.url}/gone`, { formats: ['markdown'] });
      assert.equal(doc.metadata?.statusCode, 404);
      assert.equal(doc.metadata?.error, 'The page answered HTTP 404');
    });

    it("scrape refusals: Firecrawl's error shape with the field named (unknown key, a format not offered, bad values)", async () => {
      const unknown = await sdkError(client.scrape(`${site.url}/docs/a`, { bogus: true } as never));
      assert.equal(unknown.status, 400);
      assert.equal(unknown.code, 'BAD_REQUEST');
      assert.equal(unknown.message, 'bogus: Unrecognized key: "bogus"');
      assert.deepEqual(unknown.details, [
        { code: 'unrecognized_keys', path: ['bogus'], message: 'Unrecognized key: "bogus"' },
      ]);

      const images = await sdkError(client.scrape(`${site.url}/docs/a`, { formats: ['markdown', 'branding'] }));
      assert.equal(images.status, 400);
      assert.match(images.message, /^formats\.1: Format 'branding' is not offered by this server/);

      const timeout = await sdkError(client.scrape(`${site.url}/docs/a`, { timeout: 10_000_000 }));
      assert.equal(timeout.status, 400);
      assert.deepEqual((timeout.details as Array<{ path: unknown[] }>)[0]?.path, ['timeout']);

      const pdf = await sdkError(client.scrape(`${site.url}/docs/a`, { actions: [{ type: 'pdf' }] }));
      assert.match(pdf.message, /^actions\.0\.type: The pdf action is not offered by this server/);
      const key = await sdkError(client.scrape(`${site.url}/docs/a`, { actions: [{ type: 'press', key: 'Hyper' }] }));
      assert.deepEqual((key.details as Array<{ path: unknown[] }>)[0]?.path, ['actions', 0, 'key']);

      const selector = await sdkError(client.scrape(`${site.url}/docs/a`, { includeTags: ['<<not css>>'] }));
      assert.deepEqual((selector.details as Array<{ path: unknown[] }>)[0]?.path, ['includeTags', 0]);
    });

    it('scrape failures carry the status and code of /v1: an unreachable target is a 502 with CONNECTION_REFUSED', async () => {
      const port = await refusedPort();
      const error = await sdkError(client.scrape(`http://127.0.0.1:${port}/`, { formats: ['markdown'] }));
      assert.equal(error.status, 502);
      assert.equal(error.code, 'CONNECTION_REFUSED');
    });

    it("crawl: regex includePaths and excludePaths on the path, the seed's path only unless crawlEntireDomain", async () => {
      const job: CrawlJob = await client.crawl(`${site.url}/`, {
        includePaths: ['^/docs/'],
        excludePaths: ['private'],
        limit: 20,
        pollInterval: 1,
        scrapeOptions: { formats: ['markdown'] },
      });
      assert.equal(job.status, 'completed');
      assert.deepEqual(pathsOf(job.data), ['/', '/docs/a', '/docs/b']);
      const docA = job.data.find((d) => d.metadata?.title === 'Doc A');
      assert.match(String(docA?.markdown), /^# Doc A\n\nThis is the page at \/docs\/a\./);
      assert.equal(job.completed, 3);
      assert.equal(job.creditsUsed, 3);
      assert.ok(job.expiresAt && !Number.isNaN(Date.parse(job.expiresAt)));

      const underDocs = await client.crawl(`${site.url}/docs/a`, { limit: 20, pollInterval: 1 });
      assert.deepEqual(pathsOf(underDocs.data), ['/docs/a'], 'only paths under /docs/a');
      const entire = await client.crawl(`${site.url}/docs/a`, {
        limit: 20,
        pollInterval: 1,
        crawlEntireDomain: true,
        excludePaths: ['^/hub'],
      });
      assert.deepEqual(pathsOf(entire.data), ['/', '/blog/x', '/docs/a', '/docs/b', '/docs/private/c']);
    });

    it('crawl: more than a page of documents is read through next (autoPaginate) or left for the caller', async () => {
      const job = await client.crawl(`${site.url}/hub`, { limit: 200, pollInterval: 1, crawlEntireDomain: false });
      assert.equal(job.status, 'completed');
      assert.equal(job.data.length, HUB_LINKS + 1);
      assert.equal(new Set(pathsOf(job.data)).size, HUB_LINKS + 1);
      const firstPage = await client.getCrawlStatus(job.id, { autoPaginate: false });
      assert.equal(firstPage.data.length, 100);
      assert.equal(firstPage.next, `${base}/v2/crawl/${job.id}?skip=100`);
      // The same job through /v1: one implementation.
      const v1 = await t.request('GET', `/v1/crawl/${job.id}/status`);
      assert.equal(v1.json().data.completed, HUB_LINKS + 1);
    });

    it('crawlParamsPreview reads options from a sentence by rules; they start a crawl as they are', async () => {
      const preview = await client.crawlParamsPreview(
        `${site.url}/`,
        'only the docs section, at most 10 pages, skip /docs/private',
      );
      assert.deepEqual(preview, {
        url: `${site.url}/`,
        includePaths: ['^/docs(?:/|$)'],
        excludePaths: ['^/docs/private(?:/|$)'],
        limit: 10,
        crawlEntireDomain: true,
        warning: 'These options were read from the prompt by rules, not by a model (docs/firecrawl.md); check them',
      });
      const { url, warning, ...options } = preview as Record<string, unknown>;
      void warning;
      const job = await client.crawl(String(url), { ...options, pollInterval: 1 });
      assert.deepEqual(pathsOf(job.data), ['/', '/docs/a', '/docs/b']);
    });

    it('startCrawl, getActiveCrawls while it runs, cancelCrawl, then its status says cancelled', async () => {
      const started = await client.startCrawl(`${slow.url}/`, {
        limit: 15,
        scrapeOptions: { headers: { Authorization: 'Bearer site-secret' } },
      });
      assert.match(started.id, UUID);
      assert.equal(started.url, `${base}/v2/crawl/${started.id}`);
      const active = await client.getActiveCrawls();
      const mine = active.crawls.find((c) => c.id === started.id);
      assert.ok(mine, 'the running crawl is listed');
      assert.equal(mine.url, `${slow.url}/`);
      assert.doesNotMatch(JSON.stringify(active), /site-secret/, 'header values stay out of the listing');
      assert.match(JSON.stringify(mine.options), /"Authorization":"\*\*\*"/);
      assert.equal(await client.cancelCrawl(started.id), true);
      const status = await client.getCrawlStatus(started.id);
      assert.equal(status.status, 'cancelled');
      const after = await client.getActiveCrawls();
      assert.equal(
        after.crawls.find((c) => c.id === started.id),
        undefined,
      );
      const other = new Firecrawl({ apiKey: OTHER_KEY, apiUrl: base });
      assert.equal((await sdkError(other.getCrawlStatus(started.id))).status, 404, "another key's crawl is not found");
    });

    it('getCrawlErrors: a seed robots.txt disallows is robotsBlocked; an unreachable page is an error', async () => {
      const blocked = await client.crawl(`${robots.url}/`, { limit: 5, pollInterval: 1 });
      assert.equal(blocked.status, 'failed');
      const errors = await client.getCrawlErrors(blocked.id);
      assert.deepEqual(errors.robotsBlocked, [`${robots.url}/`]);
      assert.deepEqual(errors.errors, []);

      const port = await refusedPort();
      const failed = await client.crawl(`http://127.0.0.1:${port}/`, { limit: 5, pollInterval: 1 });
      assert.equal(failed.status, 'failed');
      const unreachable = await client.getCrawlErrors(failed.id);
      assert.equal(unreachable.errors.length, 1);
      assert.equal(unreachable.errors[0]?.url, `http://127.0.0.1:${port}/`);
      assert.match(String(unreachable.errors[0]?.error), /refused/i);
    });

    it('watcher: the WebSocket streams each document of a running crawl, then done with its status', async () => {
      const started = await client.startCrawl(`${slow.url}/`, { limit: 6 });
      const watcher = client.watcher(started.id, { kind: 'crawl', pollInterval: 1 });
      const documents: Document[] = [];
      watcher.on('document', (doc: Document) => documents.push(doc));
      const done = new Promise<{ status: string; data: Document[] }>((resolve, reject) => {
        watcher.on('done', resolve);
        watcher.on('error', (e: { error: string }) => reject(new Error(e.error)));
      });
      await watcher.start();
      const end = await done;
      assert.equal(end.status, 'completed');
      assert.equal(documents.length, 6);
      assert.equal(new Set(documents.map((d) => d.metadata?.sourceURL)).size, 6);
    });

    it('batchScrape: invalid URLs listed and left out, the others scraped; start, status, errors and cancel', async () => {
      const job: BatchScrapeJob = await client.batchScrape([`${site.url}/docs/a`, 'not a url', `${site.url}/blog/x`], {
        options: { formats: ['markdown'] },
        pollInterval: 1,
      });
      assert.equal(job.status, 'completed');
      assert.deepEqual(pathsOf(job.data), ['/blog/x', '/docs/a']);
      assert.match(String(job.data.find((d) => d.metadata?.title === 'Blog X')?.markdown), /^# Blog X/);

      // maxAge 0: the watcher's crawl put these pages in the cache, which would end the batch at once.
      const started = await client.startBatchScrape([`${slow.url}/p1`, `${slow.url}/p2`, 'ftp://x/'], {
        options: { formats: ['markdown'], maxAge: 0 },
      });
      assert.deepEqual(started.invalidURLs, ['ftp://x/']);
      assert.equal(started.url, `${base}/v2/batch/scrape/${started.id}`);
      assert.equal(await client.cancelBatchScrape(started.id), true);
      assert.equal((await client.getBatchScrapeStatus(started.id)).status, 'cancelled');
      assert.deepEqual(await client.getBatchScrapeErrors(started.id), { errors: [], robotsBlocked: [] });

      const strict = await sdkError(client.startBatchScrape(['not a url'], { ignoreInvalidURLs: false }));
      assert.equal(strict.status, 400);
      assert.deepEqual((strict.details as Array<{ path: unknown[] }>)[0]?.path, ['urls', 0]);
    });

    it("map: the site's URLs with titles where known; search ranks matching ones first; limit", async () => {
      const map: MapData = await client.map(`${site.url}/`, { limit: 50 });
      const urls = map.links.map((l) => l.url);
      assert.ok(urls.includes(`${site.url}/docs/a`) && urls.includes(`${site.url}/hub`));
      assert.equal(map.links.find((l) => l.url === `${site.url}/`)?.title, 'Home');
      const ranked = await client.map(`${site.url}/`, { search: 'blog', limit: 2 });
      assert.equal(ranked.links.length, 2);
      assert.equal(ranked.links[0]?.url, `${site.url}/blog/x`);
    });

    it("map with sitemap 'only': the sitemaps' URLs alone, the start page not even fetched", async () => {
      const mapSite = await startMapSite({
        '/robots.txt': (m) => ({ contentType: 'text/plain', body: `User-agent: *\nSitemap: ${m.url}/sitemap.xml\n` }),
        '/sitemap.xml': (m) => xml(urlset([`${m.url}/a`, `${m.url}/b`])),
        '/': (m) => html('Start', [`${m.url}/c`]),
      });
      try {
        const only = await client.map(`${mapSite.url}/`, { sitemap: 'only' });
        assert.deepEqual(only.links.map((l) => l.url).sort(), [`${mapSite.url}/a`, `${mapSite.url}/b`]);
        assert.equal(mapSite.hits.get('/'), undefined, 'the start page was not fetched');
        // Without the index (which the client cannot turn off): other tests' crawls of 127.0.0.1 would be in it.
        const res = await t.request('POST', '/v2/map', { body: { url: `${mapSite.url}/`, useIndex: false } });
        const all = (res.json() as { links: Array<{ url: string }> }).links;
        assert.deepEqual(all.map((l) => l.url).sort(), [
          `${mapSite.url}/`,
          `${mapSite.url}/a`,
          `${mapSite.url}/b`,
          `${mapSite.url}/c`,
        ]);
      } finally {
        await mapSite.close();
      }
    });

    it('search: web results in rank order with position; scrapeOptions scrape them; excludeDomains', async () => {
      const plain: SearchData = await client.search('anvils', { limit: 5 });
      assert.deepEqual(
        plain.web?.map((r) => ('position' in r ? [r.url, r.title, r.position] : [])),
        [
          [`${site.url}/docs/a`, 'Doc A result', 1],
          [`${site.url}/blog/x`, 'Blog X result', 2],
          ['https://elsewhere.example/page', 'Elsewhere', 3],
        ],
      );
      const scraped = await client.search('anvils', {
        limit: 5,
        excludeDomains: ['elsewhere.example'],
        scrapeOptions: { formats: ['markdown'] },
      });
      assert.equal(scraped.web?.length, 2);
      const first = scraped.web?.[0] as Document & { url: string };
      assert.equal(first.url, `${site.url}/docs/a`);
      assert.match(String(first.markdown), /^# Doc A/);
      assert.equal(first.metadata?.statusCode, 200);
    });

    it('account: concurrency, queue, credit and token usage answer from the key’s own jobs', async () => {
      const concurrency = await client.getConcurrency();
      assert.equal(typeof concurrency.concurrency, 'number');
      assert.equal(concurrency.maxConcurrency, 16);
      const credits = await client.getCreditUsage();
      assert.ok(credits.remainingCredits > 0);
      const tokens = await client.getTokenUsage();
      assert.ok(tokens.remainingTokens > 0);
      const queue = await client.getQueueStatus();
      assert.equal(queue.success, true);
      assert.ok(queue.mostRecentSuccess !== null, 'jobs of this key completed earlier');
      const historical = await client.getCreditUsageHistorical();
      assert.ok(historical.periods.length === 1 && (historical.periods[0]?.creditsUsed ?? 0) > 0);
    });

    it("what this server does not offer is a 501 NOT_OFFERED naming it, in Firecrawl's error shape", async () => {
      const agent = await sdkError(client.startAgent({ prompt: 'find pricing' }));
      assert.equal(agent.status, 501);
      assert.equal(agent.code, 'NOT_OFFERED');
      assert.match(agent.message, /^The agent is not offered by this server/);
      assert.equal((await sdkError(client.browser())).status, 501);
      assert.equal((await sdkError(client.getAgentStatus('00000000-0000-4000-8000-000000000000'))).status, 501);
    });

    it('a wrong key is a 401 and an unknown path a 404, both in the error shape', async () => {
      const wrong = new Firecrawl({ apiKey: 'wrong-key-000000000', apiUrl: base });
      const denied = await sdkError(wrong.scrape(`${site.url}/docs/a`));
      assert.equal(denied.status, 401);
      assert.equal(denied.message, 'Invalid API key');
      const res = await t.request('GET', '/v2/nothing-here');
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), { success: false, error: 'Route GET /v2/nothing-here not found' });
    });

    it('the OpenAPI document lists /v1 and /v2 alike', async () => {
      const spec = (await t.request('GET', '/docs/json', { key: null })).json() as { paths: Record<string, unknown> };
      for (const path of ['/v1/scrape', '/v2/scrape', '/v2/crawl/{jobId}', '/v2/batch/scrape', '/v2/map', '/v2/search'])
        assert.ok(path in spec.paths, path);
    });
  });
}
