// Pure scoring functions for the article-extraction benchmark (4-token shingles, per-page normalized tp/fp/fn).

/** Unicode equivalent of Python's `\w+` (letters, digits, underscore). */
const TOKEN_RE = /[\p{L}\p{N}_]+/gu;

export const SHINGLE_SIZE = 4;

export function tokenize(text: string): string[] {
  return text.match(TOKEN_RE) ?? [];
}

/** Multiset of runs of `size` consecutive tokens (a text shorter than `size` tokens has none). */
export function shingles(text: string, size = SHINGLE_SIZE): Map<string, number> {
  const tokens = tokenize(text);
  const counts = new Map<string, number>();
  for (let i = 0; i + size <= tokens.length; i++) {
    // \u0001 cannot occur inside a token, so the joined key is unambiguous.
    const key = tokens.slice(i, i + size).join('\u0001');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export interface PageCounts {
  tp: number;
  fp: number;
  fn: number;
}

/** Raw shingle counts: tp = shared (min of counts), fp = predicted only, fn = truth only. */
export function pageCounts(predicted: string, truth: string): PageCounts {
  const p = shingles(predicted);
  const t = shingles(truth);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [key, pc] of p) {
    const tc = t.get(key) ?? 0;
    tp += Math.min(pc, tc);
    fp += Math.max(0, pc - tc);
  }
  for (const [key, tc] of t) {
    const pc = p.get(key) ?? 0;
    fn += Math.max(0, tc - pc);
  }
  return { tp, fp, fn };
}

/** Divides by the sum so that each page weighs the same whatever its length. */
export function normalize(c: PageCounts): PageCounts {
  const sum = c.tp + c.fp + c.fn;
  if (sum === 0) return { tp: 0, fp: 0, fn: 0 };
  return { tp: c.tp / sum, fp: c.fp / sum, fn: c.fn / sum };
}

export interface PageScore {
  precision: number;
  recall: number;
  f1: number;
}

/** A page with nothing on either side (0/0) counts 1, as the benchmark specifies. */
export function pageScore(c: PageCounts): PageScore {
  const n = normalize(c);
  const precision = n.tp + n.fp === 0 ? 1 : n.tp / (n.tp + n.fp);
  const recall = n.tp + n.fn === 0 ? 1 : n.tp / (n.tp + n.fn);
  return { precision, recall, f1: f1(precision, recall) };
}

export function f1(precision: number, recall: number): number {
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

/** Mean precision and mean recall over pages, then F1 of those means (not the mean of per-page F1). */
export function aggregate(pages: ReadonlyArray<PageCounts>): PageScore {
  if (pages.length === 0) return { precision: 1, recall: 1, f1: 1 };
  let p = 0;
  let r = 0;
  for (const c of pages) {
    const s = pageScore(c);
    p += s.precision;
    r += s.recall;
  }
  const precision = p / pages.length;
  const recall = r / pages.length;
  return { precision, recall, f1: f1(precision, recall) };
}

/**
 * Text of a markdown document as a reader sees it, so that syntax and URLs are not scored as words:
 * images `![alt](src)` are dropped whole (alt text is an attribute, not page text: Readability's
 * textContent and the ground truth leave it out too), links `[text](url)` keep only text, reference definitions,
 * bare autolinks `<http://...>`, fenced-code markers, heading/list/quote markers, emphasis markers,
 * table pipes and separator rows are removed, and backslash escapes are undone.
 */
export function markdownToPlainText(md: string): string {
  let s = md;
  s = s.replace(/^```[^\n]*$/gm, '');
  // Images before links: the image syntax contains the link syntax. Destinations may be <...> or hold balanced parens.
  const dest = String.raw`(?:<[^>\n]*>|(?:[^()\s]|\([^()]*\))*)(?:\s+"[^"]*")?`;
  s = s.replace(new RegExp(String.raw`!\[(?:\\.|[^\]\\])*\]\(${dest}\)`, 'g'), ' ');
  s = s.replace(new RegExp(String.raw`\[((?:\\.|[^\[\]\\]|\[(?:\\.|[^\]\\])*\])*)\]\(${dest}\)`, 'g'), '$1');
  s = s.replace(/^\s*\[[^\]]+\]:\s+\S+.*$/gm, '');
  s = s.replace(/<(?:https?|mailto):[^>\s]+>/g, '');
  s = s.replace(/^\s{0,3}#{1,6}\s+/gm, '');
  s = s.replace(/^\s*(?:>\s?)+/gm, '');
  s = s.replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, '');
  s = s.replace(/^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/gm, '');
  s = s.replace(/\|/g, ' ');
  s = s.replace(/\\([\\`*_{}[\]()#+\-.!|>~<])/g, '$1');
  return s;
}
