// POST /v2/crawl/params-preview: crawl options read from a sentence by documented rules, not by a model
// (docs/firecrawl.md, "Crawl options from a prompt"). English phrases only; what the rules do not find is left out.
import { MAX_CRAWL_DEPTH, MAX_CRAWL_LIMIT } from '../crawl/schema.js';
import { PATH_RULE_LIMITS } from '../crawl/scope/index.js';

export interface PreviewedOptions {
  includePaths?: string[];
  excludePaths?: string[];
  limit?: number;
  maxDiscoveryDepth?: number;
  crawlEntireDomain?: boolean;
  allowSubdomains?: boolean;
  allowExternalLinks?: boolean;
}

/** Words that name what to leave out, and what to keep only, before a path or a section's name. */
const EXCLUDE_WORDS = new Set([
  'exclude',
  'excluding',
  'skip',
  'skipping',
  'except',
  'without',
  'ignore',
  'ignoring',
  'not',
]);
const ONLY_WORDS = new Set(['only', 'just', 'include', 'including', 'under']);
/** Filler between a keyword and the section's name ("only the blog posts"). */
const FILLER = new Set([
  'the',
  'a',
  'an',
  'any',
  'all',
  'of',
  'pages',
  'page',
  'posts',
  'post',
  'section',
  'sections',
  'more',
  'than',
  'crawl',
  'scrape',
  'to',
  'me',
  'from',
  'and',
  'or',
  'those',
  'these',
  'that',
  'its',
  'site',
  'website',
]);
const SECTION_NOUNS = new Set(['pages', 'page', 'posts', 'post', 'section', 'sections', 'articles', 'docs', 'blog']);

/**
 * A regex that matches a path under `/segment` (the segment's characters escaped), or undefined for a path that is
 * only slashes (it would match everything) or too long for a crawl's rules.
 */
function underPath(path: string): string | undefined {
  const clean = path.replace(/\/+$/, '');
  if (clean === '' || /^\/+$/.test(clean)) return undefined;
  const rule = `^${clean.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/|$)`;
  return rule.length <= PATH_RULE_LIMITS.maxPatternLength ? rule : undefined;
}

/** Adds a rule to a list, up to what a crawl accepts. */
function addRule(list: Set<string>, rule: string | undefined): void {
  if (rule !== undefined && list.size < PATH_RULE_LIMITS.maxPatterns) list.add(rule);
}

function wholeNumber(word: string | undefined): number | undefined {
  if (word === undefined || !/^\d{1,7}$/.test(word)) return undefined;
  return Number(word);
}

/**
 * The rules: `/path` written in the prompt is kept (or left out after exclude/skip/except/without/not); a section named
 * after "only"/"just" (`only the blog`) becomes `/blog`; "N pages", "up to N", "at most N", "limit N" set the limit;
 * "depth N" or "N levels" the depth; "subdomains", "external", "entire site" / "whole domain" their options.
 */
export function previewCrawlOptions(prompt: string): PreviewedOptions {
  const text = prompt.slice(0, 10_000).toLowerCase();
  // Words and paths, in order: a linear scan, no backtracking.
  const words = text.match(/\/[a-z0-9._~%\-/]*|[a-z0-9]+/g) ?? [];
  const include = new Set<string>();
  const exclude = new Set<string>();
  const out: PreviewedOptions = {};
  let mode: 'include' | 'exclude' | undefined;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (EXCLUDE_WORDS.has(word)) {
      mode = 'exclude';
      continue;
    }
    if (ONLY_WORDS.has(word)) {
      mode = 'include';
      continue;
    }
    if (word.startsWith('/') && word.length > 1) {
      addRule(mode === 'exclude' ? exclude : include, underPath(word));
      mode = undefined;
      continue;
    }
    const number = wholeNumber(word);
    if (number !== undefined) {
      const next = words[i + 1];
      const before = words[i - 1];
      if (next === 'levels' || next === 'level' || before === 'depth') {
        out.maxDiscoveryDepth = Math.min(number, MAX_CRAWL_DEPTH);
      } else if (
        next === 'pages' ||
        next === 'page' ||
        next === 'urls' ||
        before === 'limit' ||
        before === 'most' ||
        before === 'to' ||
        before === 'first' ||
        before === 'max' ||
        before === 'maximum'
      ) {
        if (number > 0) out.limit = Math.min(number, MAX_CRAWL_LIMIT);
      }
      mode = undefined;
      continue;
    }
    if (word === 'subdomains' || word === 'subdomain') {
      out.allowSubdomains = true;
      mode = undefined;
      continue;
    }
    if (word === 'external') {
      out.allowExternalLinks = true;
      mode = undefined;
      continue;
    }
    if ((word === 'entire' || word === 'whole') && ['site', 'domain', 'website'].includes(words[i + 1] ?? '')) {
      out.crawlEntireDomain = true;
    }
    if (mode !== undefined && !FILLER.has(word) && /^[a-z][a-z0-9-]{1,40}$/.test(word)) {
      // "only the blog posts" -> /blog; "skip careers pages" -> /careers. One section per keyword.
      const next = words[i + 1];
      if (next === undefined || SECTION_NOUNS.has(next) || mode === 'include' || mode === 'exclude') {
        addRule(mode === 'exclude' ? exclude : include, underPath(`/${word}`));
      }
      mode = undefined;
    }
  }
  if (include.size > 0) out.includePaths = [...include];
  if (exclude.size > 0) out.excludePaths = [...exclude];
  if (include.size > 0 && out.crawlEntireDomain === undefined) out.crawlEntireDomain = true;
  return out;
}
