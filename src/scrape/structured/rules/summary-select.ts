// The summary's output: the best-scoring sentences that fit the bounds, back in reading order. Sentences are quoted
// whole; only a single sentence longer than the whole budget is cut, at a word, and marked with "…".

/**
 * A sentence sharing at least this share of its terms with one already chosen (Jaccard) says the same thing again:
 * near-copies (recipe lines, repeated specs) vouch for each other in TextRank and would otherwise fill the summary.
 */
const REDUNDANT_JACCARD = 0.5;

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Sentence-final punctuation of scripts typeset without a space after it. */
const FULL_WIDTH_END = /[。！？｡]$/u;

/** Sentences joined for reading: a space between them, none after a full-width full stop (Chinese, Japanese). */
export function joinSentences(sentences: readonly string[]): string {
  let out = '';
  for (const sentence of sentences) {
    out += out && !FULL_WIDTH_END.test(out) ? ' ' + sentence : sentence;
  }
  return out;
}

/** `text` cut to at most `maxChars` (with the "…"), at the last space if there is one in the second half. */
export function cutAtWord(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = maxChars - 1;
  // Never split a surrogate pair.
  if (end > 0 && /[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end--;
  const space = text.lastIndexOf(' ', end);
  if (space > end / 2) end = space;
  return text.slice(0, end).replace(/[\s,;:–—-]+$/u, '') + '…';
}

/**
 * The summary of `sentences` (in reading order) given their scores and terms: at most `maxSentences` of them and
 * `maxChars` characters, best first, ties to the earlier sentence; a sentence that does not fit, or repeats one
 * already chosen, is passed over for the next.
 */
export function selectSentences(
  sentences: readonly string[],
  terms: ReadonlyArray<readonly string[]>,
  scores: Float64Array,
  maxSentences: number,
  maxChars: number,
): string {
  const ranked = sentences.map((_, index) => index).sort((a, b) => scores[b] - scores[a] || a - b);
  const chosen: number[] = [];
  const chosenTerms: Array<ReadonlySet<string>> = [];
  // Length as if every join were a space: the real join is never longer.
  let length = 0;
  for (const index of ranked) {
    if (chosen.length >= maxSentences) break;
    const cost = sentences[index].length + (chosen.length ? 1 : 0);
    if (length + cost > maxChars) continue;
    const own = new Set(terms[index]);
    if (chosenTerms.some((other) => jaccard(own, other) >= REDUNDANT_JACCARD)) continue;
    chosen.push(index);
    chosenTerms.push(own);
    length += cost;
  }
  const top = ranked[0];
  if (chosen.length === 0) return top === undefined ? '' : cutAtWord(sentences[top], maxChars);
  return joinSentences(chosen.sort((a, b) => a - b).map((index) => sentences[index]));
}
