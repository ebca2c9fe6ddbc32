// The built-in `summary` when no model is configured: extractive, so it only ever quotes the page's own sentences.
// The most central sentences of the main content (TextRank), within the bounds, in reading order.
//
// Cost is bounded whatever the page: only the first MAX_SENTENCES sentences compete (articles put their substance
// first, and TextRank is quadratic in the sentence count), each compared on its first MAX_TERM_CHARS characters, and
// the reading stops once those are found (summary-prose.ts and summary-sentences.ts cap the rest).

import { markdownBlocks, textBlocks, type ProseBlock } from './summary-prose.js';
import { joinSentences, selectSentences } from './summary-select.js';
import { splitSentences } from './summary-sentences.js';
import { GUESS_SAMPLE_WORDS, stopWordsFor } from './summary-stopwords.js';
import { textRankScores } from './summary-textrank.js';
import { sampleWords, sentenceTerms } from './summary-tokens.js';

export interface SummaryOptions {
  /** Most sentences in the summary; default 5. */
  maxSentences?: number;
  /** Most characters (UTF-16 code units) in the summary; default 800. */
  maxChars?: number;
  /** BCP 47 tag of the page's language (its lang attribute), for sentence splitting and stop words. */
  language?: string;
}

/** Sentences that compete for the summary: the first ones of the page. */
export const MAX_SENTENCES = 400;
const DEFAULT_MAX_SENTENCES = 5;
const DEFAULT_MAX_CHARS = 800;

/** A positive whole number, or the default when the option is missing or not a usable number. */
function bound(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}

function summarize(blocks: Iterable<ProseBlock>, options: SummaryOptions): string {
  const maxSentences = bound(options.maxSentences, DEFAULT_MAX_SENTENCES);
  const maxChars = bound(options.maxChars, DEFAULT_MAX_CHARS);
  const language = options.language?.trim() || undefined;

  const sentences = splitSentences(blocks, language, MAX_SENTENCES);
  if (sentences.length === 0) return '';
  if (sentences.length <= maxSentences) {
    // Nothing to choose from: the text itself is its summary, if it fits.
    const whole = joinSentences(sentences);
    if (whole.length <= maxChars) return whole;
  }
  const stopWords = stopWordsFor(language, sampleWords(sentences, GUESS_SAMPLE_WORDS));
  const terms = sentences.map((sentence) => sentenceTerms(sentence, stopWords));
  return selectSentences(sentences, terms, textRankScores(terms), maxSentences, maxChars);
}

/**
 * An extractive summary of markdown (the page's main content as the service converts it). '' when there is no prose.
 */
export function summarizeMarkdown(markdown: string, options: SummaryOptions = {}): string {
  return summarize(markdownBlocks(markdown), options);
}

/**
 * An extractive summary of plain text (one block per line, as the `text` format gives it). '' when there is no prose.
 */
export function summarizeText(text: string, options: SummaryOptions = {}): string {
  return summarize(textBlocks(text), options);
}
