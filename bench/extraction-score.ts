// Scores main-content extraction on the article-extraction benchmark (shingle precision/recall/F1), with two baselines.
import { extractPage } from '../src/scrape/extract/index.js';
import { blacklistText, readabilityText } from './lib/baselines.js';
import { loadPages } from './lib/pages.js';
import { aggregate, markdownToPlainText, pageCounts, pageScore, type PageCounts } from './lib/score.js';

const pages = loadPages();
const ours: PageCounts[] = [];
const oursNoHeadline: PageCounts[] = [];
const readability: PageCounts[] = [];
const blacklist: PageCounts[] = [];
const perPage: Array<{ key: string; url: string; f1: number; precision: number; recall: number }> = [];

for (const page of pages) {
  const { markdown = '' } = extractPage({
    html: page.html,
    url: page.url,
    onlyMainContent: true,
    formats: ['markdown'],
  });
  const c = pageCounts(markdownToPlainText(markdown), page.truth);
  ours.push(c);
  // The API puts the page's h1 first as "# ..."; the ground truth never has the headline. Shown
  // separately so that its cost is visible; the first row is the score of what clients get.
  oursNoHeadline.push(pageCounts(markdownToPlainText(markdown.replace(/^# [^\n]*\n?/, '')), page.truth));
  perPage.push({ key: page.key, url: page.url, ...pageScore(c) });
  readability.push(pageCounts(readabilityText(page.html), page.truth));
  blacklist.push(pageCounts(blacklistText(page.html), page.truth));
}

const fmt = (n: number): string => n.toFixed(4);
const row = (name: string, counts: PageCounts[]): string => {
  const s = aggregate(counts);
  return `${name.padEnd(38)} ${fmt(s.precision)}   ${fmt(s.recall)}   ${fmt(s.f1)}`;
};
console.log(`article-extraction benchmark: ${pages.length} pages`);
console.log(`${'extractor'.padEnd(38)} precision recall   F1`);
console.log(row('extractPage (markdown text)', ours));
console.log(row('  same, leading "# headline" unscored', oursNoHeadline));
console.log(row('Readability.js textContent', readability));
console.log(row('selector blacklist (whole page)', blacklist));
console.log('\n10 worst pages (extractPage):');
for (const p of [...perPage].sort((a, b) => a.f1 - b.f1).slice(0, 10)) {
  console.log(`  F1 ${fmt(p.f1)}  P ${fmt(p.precision)}  R ${fmt(p.recall)}  ${p.key.slice(0, 12)}  ${p.url}`);
}
