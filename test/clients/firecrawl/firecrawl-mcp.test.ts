// Firecrawl's MCP server (firecrawl-mcp 3.26.0, a dev dependency), started over stdio with FIRECRAWL_API_URL set to
// the service, and driven by the MCP client SDK as an agent would drive it: list its tools, then scrape, crawl, check a
// crawl, map, search and extract (docs/firecrawl.md).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CrawlSite, startCrawlSite } from '../../fixtures/crawl-site.js';
import { type SearxngStandin, startSearxngStandin } from '../../fixtures/searxng-standin.js';
import { type TestApp, TEST_KEY, startTestApp } from '../../helpers/test-app.js';

const require = createRequire(import.meta.url);
const MCP_SERVER = join(dirname(require.resolve('firecrawl-mcp/package.json')), 'dist/index.js');

interface ToolAnswer {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** The JSON a tool answered in its text content. */
function answerJson(answer: ToolAnswer): Record<string, unknown> {
  assert.notEqual(answer.isError, true, `the tool failed: ${answer.content[0]?.text}`);
  return JSON.parse(String(answer.content[0]?.text)) as Record<string, unknown>;
}

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`firecrawl-mcp 3.26.0 over stdio against the service (${backend})`, () => {
    let t: TestApp;
    let site: CrawlSite;
    let searx: SearxngStandin;
    let mcp: Client;
    let stderr = '';

    before(async () => {
      site = await startCrawlSite({
        '/': { title: 'Home', links: ['/docs/a', '/docs/b'] },
        '/docs/a': { title: 'Doc A' },
        '/docs/b': { title: 'Doc B' },
        '/product': {
          title: 'Anvil',
          body: '<script type="application/ld+json">{"@type":"Product","name":"Acme Anvil","offers":{"price":"149.99"}}</script><p>The Acme Anvil is forged from one block of steel and rings like a bell when struck by a hammer.</p>',
        },
      });
      searx = await startSearxngStandin(() => ({
        json: {
          results: [{ url: `${site.url}/docs/a`, title: 'Doc A result', content: 'About doc A', engine: 'standin' }],
        },
      }));
      t = await startTestApp({ backend, env: { SEARXNG_URL: searx.url } });
      const base = await t.app.server.listen({ port: 0, host: '127.0.0.1' });
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [MCP_SERVER],
        env: { PATH: process.env.PATH ?? '', FIRECRAWL_API_URL: base, FIRECRAWL_API_KEY: TEST_KEY, no_proxy: '*' },
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      mcp = new Client({ name: 'crawlservice-test', version: '1.0.0' });
      await mcp.connect(transport);
    });
    after(async () => {
      await mcp.close();
      await t.close();
      await Promise.all([site.close(), searx.close()]);
    });

    const call = async (name: string, args: Record<string, unknown>) =>
      (await mcp.callTool({ name, arguments: args })) as ToolAnswer;

    it('lists its tools: scrape, crawl, crawl status, map, search and extract among them', async () => {
      const names = (await mcp.listTools()).tools.map((tool) => tool.name);
      for (const name of [
        'firecrawl_scrape',
        'firecrawl_crawl',
        'firecrawl_check_crawl_status',
        'firecrawl_map',
        'firecrawl_search',
        'firecrawl_extract',
      ]) {
        assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
      }
    });

    it("firecrawl_scrape: the page's markdown, and the json format from jsonOptions", async () => {
      const page = answerJson(await call('firecrawl_scrape', { url: `${site.url}/docs/a`, formats: ['markdown'] }));
      assert.match(String(page.markdown), /^# Doc A\n\nThis is the page at \/docs\/a\./);
      assert.equal((page.metadata as Record<string, unknown>).statusCode, 200);

      const product = answerJson(
        await call('firecrawl_scrape', {
          url: `${site.url}/product`,
          formats: ['json'],
          jsonOptions: { schema: { type: 'object', properties: { name: { type: 'string' } } } },
        }),
      );
      assert.deepEqual(product.json, { name: 'Acme Anvil' });
    });

    it('firecrawl_crawl starts a crawl; firecrawl_check_crawl_status reads its documents', async () => {
      const started = answerJson(await call('firecrawl_crawl', { url: `${site.url}/`, limit: 5 }));
      const id = String(started.id);
      let status: Record<string, unknown> = started;
      for (let i = 0; i < 50 && status.status !== 'completed'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        status = answerJson(await call('firecrawl_check_crawl_status', { id }));
      }
      assert.equal(status.status, 'completed');
      const titles = (status.data as Array<{ metadata: { title: string } }>).map((d) => d.metadata.title).sort();
      assert.deepEqual(titles, ['Doc A', 'Doc B', 'Home']);
    });

    it("firecrawl_map lists the site's URLs", async () => {
      const map = answerJson(await call('firecrawl_map', { url: `${site.url}/` }));
      const urls = (map.links as Array<{ url: string }>).map((l) => l.url).sort();
      // /product is no link of the site: the index (useIndex, Firecrawl's default) holds it from the scrape above.
      assert.deepEqual(urls, [`${site.url}/`, `${site.url}/docs/a`, `${site.url}/docs/b`, `${site.url}/product`]);
    });

    it('firecrawl_search answers the engine’s results (its default sources include the tool exchange, left out here)', async () => {
      const found = answerJson(await call('firecrawl_search', { query: 'anvil' }));
      const web = (found.data as { web: Array<{ url: string; title: string; position: number }> }).web;
      assert.deepEqual(web, [
        { url: `${site.url}/docs/a`, title: 'Doc A result', description: 'About doc A', position: 1 },
      ]);
    });

    it('firecrawl_monitor_create with its shorthand (a page, a goal, "every 30 minutes"), then firecrawl_monitor_list', async () => {
      // The MCP answers the API's whole body, `{ success, data }`.
      const answer = answerJson(
        await call('firecrawl_monitor_create', { page: `${site.url}/docs/a`, goal: 'Changes to doc A' }),
      ) as { success: boolean; data: { id: string; schedule: Record<string, unknown>; status: string } };
      assert.equal(answer.success, true);
      const created = answer.data;
      assert.deepEqual(created.schedule, { cron: '*/30 * * * *', timezone: 'UTC', text: 'every 30 minutes' });
      assert.equal(created.status, 'active');
      const listed = JSON.stringify(answerJson(await call('firecrawl_monitor_list', {})));
      assert.ok(listed.includes(created.id), listed.slice(0, 300));
    });

    it('firecrawl_extract answers its own deprecation (3.26.0 no longer calls the API for it)', async () => {
      const answer = await call('firecrawl_extract', { urls: [`${site.url}/product`], prompt: 'the product name' });
      assert.match(String(answer.content[0]?.text), /firecrawl_extract is deprecated/);
      assert.equal(stderr.includes('ECONNREFUSED'), false, stderr);
    });
  });
}
