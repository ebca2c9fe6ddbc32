// Picks the article's headline before the scoring runs: the page's h1 or h2 that best matches the page's titles, else
// og:title; never the site's name.
import {
  collapsedTextLength,
  collapseWhitespace,
  findFirst,
  getAttr,
  parentElement,
  tagsUnder,
  textContent,
  type Element,
  type Page,
} from './dom.js';

/** Headings are compared by these word runs (letters and digits, lower case). */
function words(s: string): string[] {
  return (
    collapseWhitespace(s)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Titles are separated from site names and sections by one of these, spaced. */
const TITLE_SEPARATOR = /\s+[|\-–—·•:»/\\]+\s+/;

/** Longer headings are not titles (and reading the text of a huge one is bounded by this). */
const MAX_HEADING_CHARS = 300;
/** Characters of each title compared with the headings. */
const MAX_TITLE_CHARS = 1000;
/**
 * Headings looked at, per level, in document order: the article's title is near the top, and a
 * page of 20,000 headings must not cost 20,000 text reads and comparisons.
 */
const MAX_HEADINGS = 40;
/** Ancestors of a heading whose class/id is read for site-branding words. */
const BRANDING_LEVELS = 3;

export interface HeadlineTitles {
  /** `<title>` (metadata.title). */
  page: string;
  /** og:title. */
  og: string;
  /** Readability's title (JSON-LD headline, dc/og/twitter titles, <title> heuristics). */
  article: string;
}

export interface Headline {
  text: string;
  /** The heading it came from; none when it came from og:title. */
  element?: Element;
}

interface Candidate {
  el: Element;
  text: string;
  level: 1 | 2;
  /** Position among the page's h1s (0: the first h1). */
  rank: number;
}

/**
 * Agreement of a heading with a title. `precision` is the share of the heading's words found in the
 * title (titles add site names and SEO wording, so this is the test the heading must pass);
 * `f` also weighs how much of the title the heading covers, which is what tells the article's
 * heading ("Why Sourdough Needs Time") from the site's name ("The Crumb Journal") when <title>
 * holds both.
 */
function agreement(heading: ReadonlyArray<string>, title: ReadonlyArray<string>): { precision: number; f: number } {
  if (heading.length === 0 || title.length === 0) return { precision: 0, f: 0 };
  const inTitle = new Set(title);
  const shared = heading.filter((w) => inTitle.has(w)).length;
  const precision = shared / heading.length;
  const headingSet = new Set(heading);
  const recall = title.filter((w) => headingSet.has(w)).length / title.length;
  return { precision, f: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

/**
 * The site's name: og:site_name. (Not application-name: some publishers put each article's title in it.)
 */
export function siteNames(page: Page): string[] {
  const names: string[] = [];
  for (const meta of tagsUnder(page, 'meta')) {
    const key = (getAttr(meta, 'property') ?? getAttr(meta, 'name') ?? '').trim().toLowerCase();
    const content = getAttr(meta, 'content');
    if (content && key === 'og:site_name') names.push(content);
  }
  return names;
}

/** Theme classes of the site's name and logo block ("site-title", "site-branding", "logo"). */
const BRANDING_MARKER = /(?:^|[\s_-])(?:site-?(?:title|name|logo|branding)|logo|branding)(?:$|[\s_-])/i;

/** A link to the site's front page: rel=home, or an href that is the root ("/", "https://host/"). */
function isHomeLink(a: Element): boolean {
  const rel = getAttr(a, 'rel');
  if (rel && rel.toLowerCase().split(/\s+/).includes('home')) return true;
  const href = (getAttr(a, 'href') ?? '').trim();
  return /^(?:(?:https?:)?\/\/[^/?#]+)?\/?(?:index\.\w+)?$/i.test(href) && href !== '';
}

/**
 * The site's name rather than an article's title: a heading that repeats og:site_name, links to the
 * front page, or sits in a block marked as the site's branding (theme classes "site-title", "logo").
 */
function isSiteName(c: Candidate, sites: ReadonlyArray<ReadonlyArray<string>>): boolean {
  const w = words(c.text);
  if (sites.some((s) => s.length > 0 && s.join(' ') === w.join(' '))) return true;
  // The whole heading is a link home: "<h1><a href="/" rel="home">The Crumb Journal</a></h1>".
  const home = findFirst(c.el, (e) => e.name === 'a' && isHomeLink(e));
  if (home && words(textContent(home)).length === w.length) return true;
  let el: Element | null = c.el;
  for (let i = 0; el && i <= BRANDING_LEVELS; i++, el = parentElement(el)) {
    if (BRANDING_MARKER.test(`${getAttr(el, 'class') ?? ''} ${getAttr(el, 'id') ?? ''}`)) return true;
  }
  return false;
}

function candidates(page: Page): Candidate[] {
  const out: Candidate[] = [];
  for (const [name, level] of [
    ['h1', 1],
    ['h2', 2],
  ] as const) {
    let rank = 0;
    for (const el of tagsUnder(page, name, page.body).slice(0, MAX_HEADINGS)) {
      if (collapsedTextLength(el, MAX_HEADING_CHARS) > MAX_HEADING_CHARS) continue;
      const text = collapseWhitespace(textContent(el));
      if (!text) continue;
      out.push({ el, text, level, rank: rank++ });
    }
  }
  return out;
}

/** og:title without the site's name when that is its first or last separated part ("Title | Site", "Site - Title"). */
function ogHeadline(og: string, sites: ReadonlyArray<ReadonlyArray<string>>): string | undefined {
  const isSite = (s: string): boolean => sites.some((site) => site.length > 0 && site.join(' ') === words(s).join(' '));
  // A site name part is short: a longer og:title is not a headline after the cut either.
  if (og.length > 2 * MAX_HEADING_CHARS) return undefined;
  let text = collapseWhitespace(og);
  const separators = [...text.matchAll(new RegExp(TITLE_SEPARATOR.source, 'g'))];
  const first = separators[0];
  const last = separators[separators.length - 1];
  if (last && last.index !== undefined && isSite(text.slice(last.index + last[0].length)))
    text = text.slice(0, last.index);
  else if (first && first.index !== undefined && isSite(text.slice(0, first.index)))
    text = text.slice(first.index + first[0].length);
  if (!text || isSite(text) || words(text).length === 0 || text.length > MAX_HEADING_CHARS) return undefined;
  return text;
}

/**
 * The article's headline, read from the page before the scoring rewrites it:
 *  1. the h1s and h2s (the first 40 of each) that are not the site's name are candidates;
 *  2. a candidate must have ≥60% of its words in one of the titles (≥50% for the page's first h1);
 *  3. the best candidate covers most of a title (F of both shares); ties go to the h1, then to the
 *     earlier heading;
 *  4. without a candidate, og:title (minus a site-name part) is the headline.
 */
export function chooseHeadline(page: Page, titles: HeadlineTitles): Headline | undefined {
  const sites = siteNames(page).map(words);
  // A title is short; a hostile one of megabytes is compared by its start only.
  const refs = [titles.page, titles.og, titles.article].filter(Boolean).map((t) => words(t.slice(0, MAX_TITLE_CHARS)));
  let best: { c: Candidate; f: number } | undefined;
  for (const c of candidates(page)) {
    const w = words(c.text);
    let precision = 0;
    let f = 0;
    for (const ref of refs) {
      const a = agreement(w, ref);
      precision = Math.max(precision, a.precision);
      f = Math.max(f, a.f);
    }
    const needed = c.level === 1 && c.rank === 0 ? 0.5 : 0.6;
    if (precision < needed || isSiteName(c, sites)) continue;
    if (!best || f > best.f || (f === best.f && c.level < best.c.level)) best = { c, f };
  }
  if (best) return { text: best.c.text, element: best.c.el };
  const og = ogHeadline(titles.og, sites);
  return og ? { text: og } : undefined;
}
