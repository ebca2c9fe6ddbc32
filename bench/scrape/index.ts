// Speed benchmark of the extraction step: the real benchmark pages and the synthetic crawl site's pages, current
// pipeline against the previous (linkedom) one, interleaved.
//
//   npx tsx bench/scrape/index.ts            ROUNDS=3 by default
//
// Other jobs share the machine, so every comparison alternates old and new rounds in one process
// (a GC before each round, so one pipeline's garbage is not collected on the other's time) and keeps
// each one's fastest round. Each row also gives the process CPU time per call of that round (all of
// its threads, so the GC's helpers too): under load it moves far less than the wall-clock figures.
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { removeNoise } from '../../src/scrape/extract/clean.js';
import { parsePage, type Page } from '../../src/scrape/extract/dom.js';
import { extractPage, type ContentFormat, type ExtractInput } from '../../src/scrape/extract/index.js';
import { extractLinks } from '../../src/scrape/extract/links.js';
import { extractMainContent } from '../../src/scrape/extract/main-content.js';
import { toMarkdown } from '../../src/scrape/extract/markdown.js';
import { extractMetadata } from '../../src/scrape/extract/metadata.js';
import { loadPages } from '../lib/pages.js';
import { parseDocument as legacyParse } from './legacy/dom.js';
import { extractPage as legacyExtractPage } from './legacy/index.js';
import { removeNoise as legacyRemoveNoise } from './legacy/clean.js';
import { extractMainContent as legacyMainContent } from './legacy/main-content.js';
import { toMarkdown as legacyToMarkdown } from './legacy/markdown.js';
import { syntheticPages } from './synthetic.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const ROUNDS = Number(process.env['ROUNDS'] ?? 3);

interface Doc {
  html: string;
  url: string;
}

interface Stats {
  median: number;
  p95: number;
  mean: number;
  /** Process CPU milliseconds per call over the round. */
  cpu: number;
}

function stats(samples: number[], cpuMs: number): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return { median: at(0.5), p95: at(0.95), mean: s.reduce((a, b) => a + b, 0) / s.length, cpu: cpuMs / s.length };
}

/** One round over all docs: per-call milliseconds and the round's process CPU time. */
function round<T>(docs: ReadonlyArray<T>, fn: (doc: T) => unknown): Stats {
  gc();
  const samples: number[] = [];
  const cpu0 = process.cpuUsage();
  for (const d of docs) {
    const t0 = performance.now();
    fn(d);
    samples.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  return stats(samples, (cpu.user + cpu.system) / 1000);
}

/** Warm-up, then ROUNDS alternating rounds of every variant; each variant's round with the lowest mean. */
function compare<T>(docs: ReadonlyArray<T>, variants: ReadonlyArray<readonly [string, (doc: T) => unknown]>): Stats[] {
  for (const [, fn] of variants) round(docs, fn);
  const best: Array<Stats | undefined> = variants.map(() => undefined);
  for (let r = 0; r < ROUNDS; r++) {
    variants.forEach(([, fn], i) => {
      const s = round(docs, fn);
      const b = best[i];
      if (!b || s.mean < b.mean) best[i] = s;
    });
  }
  return best as Stats[];
}

const fmt = (n: number): string => n.toFixed(1).padStart(6);

function print(title: string, names: ReadonlyArray<string>, results: ReadonlyArray<Stats>): void {
  console.log(title);
  results.forEach((s, i) => {
    console.log(
      `  ${(names[i] ?? '').padEnd(60)} median ${fmt(s.median)}  p95 ${fmt(s.p95)}  mean ${fmt(s.mean)} ms  cpu ${fmt(s.cpu)} ms`,
    );
  });
  const [oldS, newS] = results;
  if (oldS && newS && names[0]?.startsWith('old')) {
    const x = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;
    console.log(
      `  ${'=> new / old'.padEnd(60)} median ${x(oldS.median, newS.median)}  p95 ${x(oldS.p95, newS.p95)}  mean ${x(oldS.mean, newS.mean)}  cpu ${x(oldS.cpu, newS.cpu)} faster`,
    );
  }
}

function extractVariants(opts: Omit<ExtractInput, 'html' | 'url'>): Array<readonly [string, (d: Doc) => unknown]> {
  return [
    [
      'old: linkedom + Readability.js + turndown',
      // The old extractor has no `images` format (added later): it is left out of its share.
      (d) =>
        legacyExtractPage({
          ...opts,
          formats: opts.formats.filter((f): f is Exclude<ContentFormat, 'images'> => f !== 'images'),
          html: d.html,
          url: d.url,
        }),
    ],
    ['new: htmlparser2/domhandler, one tree', (d) => extractPage({ ...opts, html: d.html, url: d.url })],
  ];
}

/** The page parsed again and prepared as extractPage prepares it for the fallback (no selectors here). */
function freshPage(html: string): Page {
  const page = parsePage(html);
  removeNoise(page, { keepNoscript: false });
  return page;
}

const real: Doc[] = loadPages();
const synthetic: Doc[] = syntheticPages(200, 5000);
const kb = (docs: Doc[]): string => {
  const sizes = docs.map((d) => Buffer.byteLength(d.html)).sort((a, b) => a - b);
  return `median ${((sizes[sizes.length >> 1] ?? 0) / 1024).toFixed(0)} KB, mean ${(sizes.reduce((a, b) => a + b, 0) / sizes.length / 1024).toFixed(0)} KB`;
};
console.log(
  `node ${process.version}, ${os.availableParallelism()} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(`real pages: ${real.length} (${kb(real)}); synthetic crawl pages: ${synthetic.length} (${kb(synthetic)})`);
console.log(`${ROUNDS} alternating rounds after a warm-up, fastest round of each; one thread\n`);

const main: ContentFormat[] = ['markdown', 'links'];
const pairs: Array<[string, Doc[], Omit<ExtractInput, 'html' | 'url'>]> = [
  ['extractPage markdown+links, onlyMainContent — real pages', real, { onlyMainContent: true, formats: main }],
  [
    'extractPage markdown+links, onlyMainContent — synthetic crawl pages',
    synthetic,
    { onlyMainContent: true, formats: main },
  ],
  [
    'extractPage markdown only, onlyMainContent — synthetic crawl pages',
    synthetic,
    { onlyMainContent: true, formats: ['markdown'] },
  ],
  ['extractPage markdown+links, whole page — real pages', real, { onlyMainContent: false, formats: main }],
  [
    'extractPage all four formats, onlyMainContent — real pages',
    real,
    { onlyMainContent: true, formats: ['markdown', 'html', 'text', 'links'] },
  ],
];
for (const [title, docs, opts] of pairs) {
  const variants = extractVariants(opts);
  const results = compare(docs, variants);
  print(
    title,
    variants.map(([n]) => n),
    results,
  );
  const newMean = results[1]?.mean ?? 0;
  console.log(`  => new: ${(1000 / newMean).toFixed(0)} pages/s on one core (1000 / mean ms)\n`);
}

// Steps of the new pipeline on the real pages, each measured on its own input.
console.log('Steps (real pages)');
const stepNames = [
  'parse: linkedom parseHTML (+ shape fix), old',
  'parse: htmlparser2 into domhandler (+ shape fix), new',
  'main content: old (Readability.js on linkedom; parse included)',
  'main content: new (ported scoring on domhandler; parse included)',
  'main content: plain Readability.js 0.6 on linkedom (parse included)',
];
const steps = compare(real, [
  [stepNames[0] as string, (d) => legacyParse(d.html)],
  [stepNames[1] as string, (d) => parsePage(d.html)],
  [
    stepNames[2] as string,
    (d) => {
      const doc = legacyParse(d.html);
      legacyRemoveNoise(doc, { keepNoscript: true, stripChrome: true });
      return legacyMainContent(doc, '', () => legacyParse(d.html)).root;
    },
  ],
  [
    stepNames[3] as string,
    (d) => {
      const page = parsePage(d.html);
      removeNoise(page, { keepNoscript: true, stripChrome: true });
      return extractMainContent(page, '', () => freshPage(d.html)).root;
    },
  ],
  [stepNames[4] as string, (d) => new Readability(parseHTML(d.html).document).parse()],
]);
print('', stepNames, steps);
const parsed = real.map((d) => ({ page: parsePage(d.html), url: d.url }));
const metaName = 'metadata + links on the parsed tree, new';
print(
  '',
  [metaName],
  compare(parsed, [[metaName, (p) => [extractMetadata(p.page, p.url), extractLinks(p.page, p.url)]]]),
);

// The converters on the same input: the main content the new pipeline finds (converted on a copy).
console.log('\nMarkdown conversion of the main content (real pages)');
const contents = real.map((d) => {
  const page = parsePage(d.html);
  removeNoise(page, { keepNoscript: true, stripChrome: true });
  const root = extractMainContent(page, '', () => freshPage(d.html)).root;
  const legacyDoc = legacyParse(d.html);
  legacyRemoveNoise(legacyDoc, { keepNoscript: true, stripChrome: true });
  const legacyRoot = legacyMainContent(legacyDoc, '', () => legacyParse(d.html)).root;
  return { root, legacyRoot };
});
const convNames = ['old: turndown on linkedom (clones the node)', 'new: turndown rules on domhandler (copy + convert)'];
print(
  '',
  convNames,
  compare(contents, [
    [convNames[0] as string, (c) => legacyToMarkdown(c.legacyRoot)],
    [convNames[1] as string, (c) => toMarkdown(c.root)],
  ]),
);
console.log(
  `\nload average at the end: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
