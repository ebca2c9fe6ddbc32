// What the model client adds around a model call: extractJson against the stand-in server answering at once,
// minus a bare fetch POST of the same body to the same server; then the process-wide bound at work (100 pages,
// 200 ms per answer, concurrency 8: ideally ceil(100 / 8) x 200 ms).
// Run: node --import tsx bench/structured/llm-overhead.ts [--calls 500]
import { performance } from 'node:perf_hooks';
import { createLlmExtractor, type LlmSettings } from '../../src/scrape/structured/llm/index.js';
import { reply, startLlmServer } from '../../test/fixtures/llm-server.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const CALLS = arg('calls', 500);
const WARMUP = 50;

const PAGE = [
  '# Acme Anvil 3000',
  '',
  'The Acme Anvil 3000 is a drop-forged anvil for workshops. It costs 149.99 EUR and weighs 50 kg.',
  '',
  'Free shipping within the EU. In stock.',
].join('\n');
const SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: ['number', 'null'] }, currency: { type: ['string', 'null'] } },
  required: ['name', 'price'],
};
const ANSWER = { name: 'Acme Anvil 3000', price: 149.99, currency: 'EUR' };

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

function stats(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) };
}

const ms = (value: number) => `${value.toFixed(3)} ms`;

async function main(): Promise<void> {
  const server = await startLlmServer({ behaviour: () => reply.json(ANSWER) });
  const settings: LlmSettings = {
    baseUrl: server.url,
    model: 'bench-model',
    timeoutMs: 10_000,
    maxRetries: 0,
    concurrency: 4,
    maxInputChars: 100_000,
  };
  const extractor = createLlmExtractor(settings);
  const input = { content: PAGE, contentKind: 'markdown' as const, url: 'https://shop.example/anvil' };
  const request = { schema: SCHEMA, schemaName: 'product' };

  // Sequential, one call at a time: latency, not throughput.
  const client: number[] = [];
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const start = performance.now();
    await extractor.extractJson({ ...input, request });
    if (i >= WARMUP) client.push(performance.now() - start);
  }

  const body = JSON.stringify(server.requests.at(-1)!.body);
  const bare: number[] = [];
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const start = performance.now();
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body,
    });
    JSON.parse(await response.text());
    if (i >= WARMUP) bare.push(performance.now() - start);
  }

  const withClient = stats(client);
  const withFetch = stats(bare);
  console.log(`request body: ${body.length} bytes; ${CALLS} sequential calls after ${WARMUP} warm-up calls`);
  console.log(`extractJson      median ${ms(withClient.median)}  p95 ${ms(withClient.p95)}`);
  console.log(`bare fetch POST  median ${ms(withFetch.median)}  p95 ${ms(withFetch.p95)}`);
  console.log(
    `client overhead  median ${ms(withClient.median - withFetch.median)}  p95 ${ms(withClient.p95 - withFetch.p95)}`,
  );

  // The bound at work: 100 pages, 200 ms per answer, 8 in flight.
  server.setBehaviour(() => reply.slow(200, reply.json(ANSWER)));
  server.reset();
  const bounded = createLlmExtractor({ ...settings, concurrency: 8 });
  const start = performance.now();
  await Promise.all(Array.from({ length: 100 }, () => bounded.extractJson({ ...input, request })));
  const wall = performance.now() - start;
  const ideal = Math.ceil(100 / 8) * 200;
  console.log(
    `100 calls, 200 ms each, concurrency 8: ${wall.toFixed(0)} ms wall (ideal ${ideal} ms), ` +
      `server saw at most ${server.maxInFlight} at once`,
  );
  await server.close();
}

await main();
