// Speed benchmark of the extraction step on the real benchmark pages, with converter and extractor alternatives.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { NodeHtmlMarkdown } from 'node-html-markdown';
import { removeNoise } from '../../src/scrape/extract/clean.js';
import { parseDocument } from '../../src/scrape/extract/dom.js';
import { extractPage } from '../../src/scrape/extract/index.js';
import { extractMainContent } from '../../src/scrape/extract/main-content.js';
import { toMarkdown } from '../../src/scrape/extract/markdown.js';
import { blacklistText } from '../lib/baselines.js';
import { loadPages, type BenchPage } from '../lib/pages.js';

const pages = loadPages();
const ROUNDS = Number(process.env['ROUNDS'] ?? 3);

interface Stats {
  median: number;
  p95: number;
  mean: number;
}

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return { median: at(0.5), p95: at(0.95), mean: s.reduce((a, b) => a + b, 0) / s.length };
}

/** Runs fn once per page as warm-up, then ROUNDS times per page; returns per-call milliseconds. */
function measure(fn: (page: BenchPage) => unknown): Stats {
  for (const p of pages) fn(p);
  const samples: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const p of pages) {
      const t0 = performance.now();
      fn(p);
      samples.push(performance.now() - t0);
    }
  }
  return stats(samples);
}

function run(name: string, fn: (page: BenchPage) => unknown): Stats {
  const s = measure(fn);
  console.log(
    `${name.padEnd(58)} median ${s.median.toFixed(1).padStart(6)}  p95 ${s.p95.toFixed(1).padStart(6)}  mean ${s.mean.toFixed(1).padStart(6)} ms`,
  );
  return s;
}

const sizes = pages.map((p) => Buffer.byteLength(p.html)).sort((a, b) => a - b);
console.log(
  `${pages.length} pages, median size ${((sizes[sizes.length >> 1] ?? 0) / 1024).toFixed(0)} KB; ${ROUNDS} rounds after a warm-up; node ${process.version}\n`,
);

// The pipeline step as the scraper calls it.
const step = run('extractPage: markdown+links+metadata, onlyMainContent', (p) =>
  extractPage({ html: p.html, url: p.url, onlyMainContent: true, formats: ['markdown', 'links'] }),
);
console.log(`  => ${(1000 / step.mean).toFixed(1)} pages/s on one core (1000 / mean ms)\n`);
run('extractPage: markdown+links+metadata, whole page', (p) =>
  extractPage({ html: p.html, url: p.url, onlyMainContent: false, formats: ['markdown', 'links'] }),
);
run('extractPage: all four formats, onlyMainContent', (p) =>
  extractPage({ html: p.html, url: p.url, onlyMainContent: true, formats: ['markdown', 'html', 'text', 'links'] }),
);

console.log('\nParsing');
run('linkedom parseHTML (+ shape normalization)', (p) => parseDocument(p.html));

console.log('\nMain-content extractors (parse included, no conversion)');
run('ours: Readability + pre-strip + post-filter + headline', (p) => {
  const doc = parseDocument(p.html);
  removeNoise(doc, { keepNoscript: true, stripChrome: true });
  return extractMainContent(doc, '', () => parseDocument(p.html));
});
run('plain Readability 0.6 on linkedom (HTML string out)', (p) => new Readability(parseHTML(p.html).document).parse());
run('selector blacklist (noise + chrome selectors, text out)', (p) => blacklistText(p.html));

console.log('\nMarkdown converters');
// Same input for both: the main content our extractor found. turndown walks the DOM we already
// have; node-html-markdown only takes an HTML string, so in the pipeline it would cost the
// serialization of that DOM plus its own parse: both rows are shown.
const mainContent = new Map(
  pages.map((p) => {
    const doc = parseDocument(p.html);
    removeNoise(doc, { keepNoscript: true, stripChrome: true });
    const root = extractMainContent(doc, '', () => parseDocument(p.html)).root;
    return [p.key, { root, html: root.innerHTML }] as const;
  }),
);
const bodies = new Map(
  pages.map((p) => {
    const doc = parseDocument(p.html);
    removeNoise(doc, { keepNoscript: false });
    return [p.key, { root: doc.body, html: doc.body.innerHTML }] as const;
  }),
);
const nhm = new NodeHtmlMarkdown();
const get = <T>(m: Map<string, T>, key: string): T => {
  const v = m.get(key);
  if (v === undefined) throw new Error(`missing ${key}`);
  return v;
};
run('turndown + our rules, main content (DOM in)', (p) => toMarkdown(get(mainContent, p.key).root));
run('node-html-markdown, main content (HTML string in)', (p) => nhm.translate(get(mainContent, p.key).html));
run('node-html-markdown, main content (serialize DOM + convert)', (p) => nhm.translate(get(mainContent, p.key).root.innerHTML));
run('turndown + our rules, whole cleaned body (DOM in)', (p) => toMarkdown(get(bodies, p.key).root));
run('node-html-markdown, whole cleaned body (HTML string in)', (p) => nhm.translate(get(bodies, p.key).html));
run('node-html-markdown, whole body (serialize DOM + convert)', (p) => nhm.translate(get(bodies, p.key).root.innerHTML));
