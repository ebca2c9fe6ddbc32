// A deterministic corpus of web pages for the search index benchmark, made from real article text.
//
// The sentences are those of the human-marked main texts of the article-extraction set (/work/shared/bench, 91 real
// news/blog articles, ~68k words, ~11k distinct). A page is one "topic" article's sentences, taken in runs as they
// follow each other, mixed with sentences of other articles, cut into paragraphs, 2–8 KB long (log-uniform). Alone
// that vocabulary is far too small for 100,000 pages (every word of it would be in hundreds of pages), so ~2.5% of
// the words are replaced by words of a synthetic long tail (names, places, products: 200,000 made-up words drawn with
// Zipf's law), which gives the index a long tail as a real crawl does: at 100,000 pages ~120,000 distinct terms,
// 96,000 of them in 20 pages or fewer. Hosts: the articles' own and made-up ones, ~500, a few big and many small
// (Zipf); about 3% of the pages belong to a dozen other keys. Page i depends on (seed, i) alone, so it is made again
// at will rather than kept.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { prng } from '../crawl/site.js';
import { BENCH_DIR } from '../lib/pages.js';

export type Rand = () => number;

export interface CorpusOptions {
  docs: number;
  seed: number;
  /** Hosts the URLs are spread over (unevenly: a few big sites, many small ones). */
  hosts?: number;
  /** Days the pages' indexed_at is spread over, ending at `end`. */
  days?: number;
  end?: string;
}

export interface CorpusDoc {
  i: number;
  ownerId: string;
  jobId: string;
  url: string;
  host: string;
  title: string;
  text: string;
  language: string | undefined;
  indexedAt: string;
}

/** The key most pages belong to: the worst case for one key's searches. */
export const MAIN_OWNER = 'owner-main';
/** Keys of the other pages (a few thousand in all). */
export const OTHER_OWNERS = Array.from({ length: 12 }, (_, k) => `owner-${k + 1}`);
const OTHER_OWNER_SHARE = 0.03;
const TAIL_SIZE = 200_000;
const TAIL_RATE = 0.025;
const TAIL_OFFSET = 300;
const TOPIC_SHARE = 0.75;

const LANGUAGES: Array<[string | undefined, number]> = [
  ['en', 0.5],
  ['en-US', 0.18],
  ['en-GB', 0.08],
  ['pt-BR', 0.05],
  ['de', 0.04],
  ['fr', 0.04],
  ['es', 0.03],
  [undefined, 0.08],
];
const SECTIONS = ['news', 'world', 'sport', 'tech', 'business', 'culture', 'science', 'travel', 'opinion', 'blog'];
const TLDS = ['com', 'com', 'com', 'org', 'net', 'co.uk', 'de', 'com.br', 'ca', 'io', 'news'];
const SYLLABLES = (
  'ka ro mi tel van dor lis pe qua zen bri sto fal nor ve da lu gri mon tar sel ki wen ax or ul em ba cor fin ' +
  'gal hes jor lem nus pra rik sav tov ur vin yar zo bel cas del'
).split(' ');

/** A stable 32-bit hash of an integer pair (for per-page seeds). */
function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}

/** A sampler of ranks 0..n-1 with P(rank r) ∝ 1/(r+1+offset)^s (Zipf–Mandelbrot: `offset` flattens the head). */
function zipf(n: number, s: number, offset = 0): (r: Rand) => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) cdf[k] = sum += 1 / Math.pow(k + 1 + offset, s);
  for (let k = 0; k < n; k++) cdf[k] = (cdf[k] as number) / sum;
  return (r) => {
    const u = r();
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cdf[mid] as number) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

function tailWord(k: number): string {
  const r = prng(mix(k, 0x7a11));
  const n = 2 + Math.floor(r() * 3);
  let w = '';
  for (let j = 0; j < n; j++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
  // Names and places are capitalized; the tokenizer folds case anyway.
  return r() < 0.6 ? w.charAt(0).toUpperCase() + w.slice(1) : w;
}

interface Article {
  url: string;
  sentences: string[];
}

function loadArticles(): Article[] {
  const truth = JSON.parse(readFileSync(path.join(BENCH_DIR, 'ground-truth.json'), 'utf8')) as Record<
    string,
    { url: string; articleBody: string }
  >;
  return Object.keys(truth)
    .sort()
    .map((key) => {
      const { url, articleBody } = truth[key] as { url: string; articleBody: string };
      const sentences = articleBody
        .split(/\n+/)
        .flatMap((line) => line.split(/(?<=[.!?…])\s+(?=[\p{Lu}\p{N}“"‘'(])/u))
        .map((s) => s.replace(/\s+/g, ' ').trim())
        .filter((s) => s.split(' ').length >= 4);
      return { url, sentences };
    })
    .filter((a) => a.sentences.length >= 3);
}

export class Corpus {
  readonly docs: number;
  readonly articles: Article[];
  readonly hosts: string[];
  private readonly seed: number;
  private readonly hostRank: (r: Rand) => number;
  private readonly tailRank: (r: Rand) => number;
  private readonly startMs: number;
  private readonly spanMs: number;
  readonly endMs: number;

  constructor(options: CorpusOptions) {
    this.docs = options.docs;
    this.seed = options.seed;
    this.articles = loadArticles();
    const hostCount = options.hosts ?? 500;
    // The real articles' hosts first, then made-up ones.
    const real = [...new Set(this.articles.map((a) => new URL(a.url).hostname))];
    const r = prng(mix(this.seed, 0x4057));
    const made = new Set<string>(real);
    while (made.size < hostCount) {
      const name = tailWord(Math.floor(r() * 5000)).toLowerCase();
      const tld = TLDS[Math.floor(r() * TLDS.length)] as string;
      made.add(`${r() < 0.5 ? 'www.' : ''}${name}.${tld}`);
    }
    this.hosts = [...made].slice(0, hostCount);
    this.hostRank = zipf(this.hosts.length, 0.8);
    // The head of the vocabulary is the articles' own; the tail starts where it would be ranked, past its first few
    // hundred words, so that its commonest word is in ~1% of the pages and most of it in one or two.
    this.tailRank = zipf(TAIL_SIZE, 1.0, TAIL_OFFSET);
    this.endMs = Date.parse(options.end ?? '2025-06-30T00:00:00.000Z');
    this.spanMs = (options.days ?? 30) * 24 * 3600_000;
    this.startMs = this.endMs - this.spanMs;
  }

  /** Page i (0-based), the same every time. */
  doc(i: number): CorpusDoc {
    const r = prng(mix(this.seed, i));
    const other = r() < OTHER_OWNER_SHARE;
    const ownerId = other ? (OTHER_OWNERS[Math.floor(r() * OTHER_OWNERS.length)] as string) : MAIN_OWNER;
    const topic = this.articles[Math.floor(r() * this.articles.length)] as Article;
    const target = Math.round(Math.exp(Math.log(2000) + r() * (Math.log(8000) - Math.log(2000))));

    const paragraphs: string[] = [];
    let length = 0;
    let at = Math.floor(r() * topic.sentences.length);
    while (length < target) {
      const count = 2 + Math.floor(r() * 5);
      const sentences: string[] = [];
      for (let k = 0; k < count && length < target; k++) {
        let sentence: string;
        if (r() < TOPIC_SHARE) {
          sentence = topic.sentences[at % topic.sentences.length] as string;
          // Mostly the next sentence; now and then a jump, as an edited rewrite of the story would.
          at = r() < 0.8 ? at + 1 : Math.floor(r() * topic.sentences.length);
        } else {
          const from = this.articles[Math.floor(r() * this.articles.length)] as Article;
          sentence = from.sentences[Math.floor(r() * from.sentences.length)] as string;
        }
        sentence = this.withTail(sentence, r);
        sentences.push(sentence);
        length += sentence.length + 1;
      }
      paragraphs.push(sentences.join(' '));
      length += 1;
    }
    const text = paragraphs.join('\n\n');

    const source = this.withTail(topic.sentences[Math.floor(r() * topic.sentences.length)] as string, r).split(' ');
    const titleWords = 5 + Math.floor(r() * 8);
    const start = Math.floor(r() * Math.max(1, source.length - titleWords));
    const title = source
      .slice(start, start + titleWords)
      .join(' ')
      .replace(/[.,;:]+$/, '');
    const host = this.hosts[this.hostRank(r)] as string;
    const slug = title
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9 ]/g, '')
      .split(' ')
      .filter(Boolean)
      .slice(0, 6)
      .join('-');
    const section = SECTIONS[Math.floor(r() * SECTIONS.length)] as string;
    let language: string | undefined;
    let u = r();
    for (const [tag, p] of LANGUAGES) {
      language = tag;
      if ((u -= p) < 0) break;
    }
    // Pages are indexed in order over the span (a crawl saves its pages one after the other), a few minutes apart.
    const indexedMs = this.startMs + (this.spanMs * i) / this.docs + Math.floor(r() * 600_000);
    return {
      i,
      ownerId,
      // Crawls of ~800 pages each.
      jobId: `job-${ownerId}-${Math.floor(i / 800)}`,
      url: `https://${host}/${section}/${slug}-${i}`,
      host: host.replace(/^www\./, ''),
      title,
      text,
      language,
      indexedAt: new Date(Math.min(indexedMs, this.endMs)).toISOString(),
    };
  }

  private withTail(sentence: string, r: Rand): string {
    if (r() >= TAIL_RATE * 12) return sentence;
    // About one sentence in three gets a tail word or more: ~2.5% of all words, as names cluster in real text.
    const words = sentence.split(' ');
    for (let k = 0; k < words.length; k++) {
      if (r() < 1 / 12) {
        const trailing = /[^\p{L}\p{N}]*$/u.exec(words[k] as string)?.[0] ?? '';
        words[k] = tailWord(this.tailRank(r)) + trailing;
      }
    }
    return words.join(' ');
  }
}

/** A sentence of the source, for phrase queries. */
export function sourceSentence(corpus: Corpus, r: Rand): string {
  const a = corpus.articles[Math.floor(r() * corpus.articles.length)] as Article;
  return a.sentences[Math.floor(r() * a.sentences.length)] as string;
}
