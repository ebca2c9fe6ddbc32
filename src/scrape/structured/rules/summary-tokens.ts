// A sentence's terms for TextRank's similarity: normalised words where the script separates words with spaces, and
// character bigrams where it does not (Chinese, Japanese, Thai, ...): a bigram is the usual stand-in for a word there,
// and needs no dictionary.

/** Only the start of a very long sentence is compared; its terms would otherwise dominate the cost. */
export const MAX_TERM_CHARS = 1_000;

/** Scripts written without spaces between words, plus the Japanese length mark and iteration mark. */
const UNSPACED =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}' +
  '\\p{Script=Khmer}\\p{Script=Myanmar}\\u30FC\\u3005';
/** Either a run of unspaced-script characters, or a word of other letters and digits (inner apostrophes kept). */
const TERM = new RegExp(
  `([${UNSPACED}]+)|((?:(?![${UNSPACED}])[\\p{L}\\p{N}])(?:(?![${UNSPACED}])[\\p{L}\\p{M}\\p{N}'’])*)`,
  'gu',
);
const HIRAGANA = /^\p{Script=Hiragana}+$/u;

/** A word without its possessive or trailing apostrophe ("company's", "students'"): the same term as the bare word. */
function normaliseWord(word: string): string {
  return word.replace(/['’](?:s)?$/u, '');
}

/** Character bigrams of an unspaced run; a one-character run is its own term. */
function bigrams(run: string, into: Set<string>): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    into.add(run);
    return;
  }
  for (let k = 0; k + 1 < chars.length; k++) {
    const pair = `${chars[k]}${chars[k + 1]}`;
    // Pure-hiragana pairs are mostly particles and verb endings (の, は, ている): Japanese stop words.
    if (!HIRAGANA.test(pair)) into.add(pair);
  }
}

/** The distinct terms of `sentence`, stop words and one-letter words left out. */
export function sentenceTerms(sentence: string, stopWords: ReadonlySet<string>): string[] {
  // NFKC folds compatibility forms (full-width Latin and digits, ligatures) into the plain ones.
  const text = sentence.slice(0, MAX_TERM_CHARS).normalize('NFKC').toLowerCase();
  const terms = new Set<string>();
  for (const match of text.matchAll(TERM)) {
    const [, run, word] = match;
    if (run) {
      bigrams(run, terms);
    } else if (word) {
      const term = normaliseWord(word);
      if (term.length > 1 && !stopWords.has(term)) terms.add(term);
    }
  }
  return [...terms];
}

/** Lower-case words of `sentences` (their start), for guessing the language's stop words. */
export function sampleWords(sentences: readonly string[], limit: number): string[] {
  const words: string[] = [];
  for (const sentence of sentences) {
    for (const match of sentence.slice(0, MAX_TERM_CHARS).toLowerCase().matchAll(TERM)) {
      if (match[2]) words.push(match[2]);
      if (words.length >= limit) return words;
    }
  }
  return words;
}
