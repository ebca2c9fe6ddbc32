// Speed of the extractive summary (no model) on the real article pages: ms per page of summarizeMarkdown on the
// markdown the scrape pipeline gives (only the summary is timed), of summarizeText on the pages' true main text, and
// of one 2 MB page made of all of them; then three example summaries.
//
//   npx tsx bench/structured/summary.ts            ROUNDS=5 by default
import { extractPage } from '../../src/scrape/extract/index.js';
import { summarizeMarkdown, summarizeText } from '../../src/scrape/structured/rules/summary.js';
import { loadPages } from '../lib/pages.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 5);

interface Input {
  url: string;
  markdown: string;
  truth: string;
  language: string | undefined;
}

const inputs: Input[] = loadPages().map((page) => {
  const { markdown = '', metadata } = extractPage({
    html: page.html,
    url: page.url,
    onlyMainContent: true,
    formats: ['markdown'],
  });
  return { url: page.url, markdown, truth: page.truth, language: metadata.language };
});

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

/** Per input, the median of its rounds (other jobs share the machine); a first round warms the JIT up untimed. */
function timePerInput<T>(items: readonly T[], run: (item: T) => string): number[] {
  for (const item of items) run(item);
  const samples = items.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    items.forEach((item, k) => {
      const start = performance.now();
      run(item);
      samples[k]?.push(performance.now() - start);
    });
  }
  return samples.map((s) => [...s].sort((a, b) => a - b)[Math.floor(s.length / 2)] ?? NaN);
}

function report(name: string, times: number[], chars: number[]): void {
  const sorted = [...times].sort((a, b) => a - b);
  const total = chars.reduce((a, b) => a + b, 0);
  console.log(
    `${name.padEnd(44)} median ${percentile(sorted, 0.5).toFixed(3)} ms   p95 ${percentile(sorted, 0.95).toFixed(3)} ms` +
      `   max ${(sorted.at(-1) ?? NaN).toFixed(3)} ms   (mean input ${Math.round(total / chars.length)} chars)`,
  );
}

console.log(`extractive summary: ${inputs.length} article pages, ${ROUNDS} rounds, defaults (5 sentences, 800 chars)`);
report(
  'summarizeMarkdown (extractPage markdown)',
  timePerInput(inputs, (i) => summarizeMarkdown(i.markdown, { language: i.language })),
  inputs.map((i) => i.markdown.length),
);
report(
  'summarizeText (true main text)',
  timePerInput(inputs, (i) => summarizeText(i.truth, { language: i.language })),
  inputs.map((i) => i.truth.length),
);

// One page of 2 MB: every page's markdown, over and over.
const all = inputs.map((i) => i.markdown).join('\n\n');
const big = all.repeat(Math.ceil((2 * 1024 * 1024) / all.length)).slice(0, 2 * 1024 * 1024);
report(
  'summarizeMarkdown (one 2 MB page)',
  timePerInput([big], (md) => summarizeMarkdown(md)),
  [big.length],
);

const sentences = (s: string): number => [...new Intl.Segmenter('en', { granularity: 'sentence' }).segment(s)].length;
const lengths = inputs.map((i) => summarizeMarkdown(i.markdown, { language: i.language }).length);
const empty = lengths.filter((n) => n === 0).length;
console.log(
  `summary length: median ${percentile(
    [...lengths].sort((a, b) => a - b),
    0.5,
  )} chars, ${empty} pages with none`,
);

for (const k of [0, 1, 2].map((n) => Math.floor((n * inputs.length) / 3))) {
  const input = inputs[k];
  if (!input) continue;
  const summary = summarizeMarkdown(input.markdown, { language: input.language });
  console.log(
    `\n${input.url} (lang ${input.language ?? '-'}; ${sentences(summary)} sentences, ${summary.length} chars)`,
  );
  console.log(summary);
}
