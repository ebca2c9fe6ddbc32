// Prose blocks to candidate sentences, with the language's sentence rules (Intl.Segmenter, Node's full ICU) and guards
// for the abbreviations ICU breaks after ("Mr. Smith", "z. B.", "am 3. Oktober"). Bounded: the caller says how many
// sentences it wants, and at most MAX_SCAN_CHARS / MAX_SCAN_BLOCKS of prose are looked at to find them.

import { endsSentence, type ProseBlock } from './summary-prose.js';

/**
 * Prose looked at in all (characters, blocks, ICU segments): beyond any of these a page is not read further. Segments
 * are capped because each costs a few microseconds in V8 whatever its size ("A. A. A. ..." is thousands of them); an
 * article reaches MAX_SENTENCES with far fewer.
 */
const MAX_SCAN_CHARS = 300_000;
const MAX_SCAN_BLOCKS = 2_000;
const MAX_SCAN_SEGMENTS = 2_000;
/** A sentence is not grown by abbreviation guards past this length (hostile "A. B. C. ..." input). */
const MAX_MERGED_CHARS = 1_000;
/**
 * A piece without final punctuation is still a sentence when at least this long (a paragraph that simply lacks its
 * full stop); shorter ones are headings, bylines, captions or menu items.
 */
const MIN_UNPUNCTUATED_CHARS = 160;

/** Abbreviations that end in "." but seldom end a sentence (en de fr es pt it nl): lower case, inner dots kept. */
const ABBREVIATIONS = new Set(
  (
    'mr mrs ms dr prof st sr sra srta dra jr gen gov sen rep lt col sgt capt rev mt ft vs e.g i.e cf approx ' +
    'fig jan feb apr jul aug sept oct nov dec ' +
    'hr fr nr bzw ca vgl evtl ggf inkl str z.b u.a d.h s.o s.u ' +
    'mme mlle p.ex ' +
    'pág ud uds ' +
    'sig dott ' +
    'dhr mevr bijv o.a m.b.t'
  ).split(' '),
);
/** Words after "<day>." that show the number was an ordinal, not a sentence end (German dates, centuries). */
const ORDINAL_FOLLOWERS =
  /^\s*(?:Januar|Jänner|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember|Jahrhundert)\b/;

const segmenters = new Map<string, Intl.Segmenter>();

/** A sentence segmenter for `language`, or for the root locale when the tag is missing or not valid BCP 47. */
function segmenterFor(language: string | undefined): Intl.Segmenter {
  const key = language ?? '';
  let segmenter = segmenters.get(key);
  if (!segmenter) {
    let locale: string | undefined;
    try {
      locale = language ? Intl.getCanonicalLocales(language)[0] : undefined;
    } catch {
      locale = undefined; // a malformed tag from a page's lang attribute: fall back to the default rules
    }
    segmenter = new Intl.Segmenter(locale, { granularity: 'sentence' });
    // Page languages are few, but they come from pages: keep the cache from growing without end.
    if (segmenters.size >= 64) segmenters.clear();
    segmenters.set(key, segmenter);
  }
  return segmenter;
}

/** The word just before the final "." of `segment` (letters and inner dots: "Dr", "e.g", "3"), or ''. */
function wordBeforeFullStop(segment: string): string {
  const text = segment.trimEnd();
  if (!text.endsWith('.')) return '';
  let start = text.length - 1;
  while (start > 0 && /[\p{L}\p{N}.]/u.test(text.charAt(start - 1))) start--;
  return text.slice(start, text.length - 1);
}

/**
 * Whether ICU's break between `sentence` (ending with the segment `last`) and `next` is after an abbreviation or an
 * initial, not at a sentence end. Only the last segment is read: the growing sentence is never scanned again.
 */
function continuesInto(sentence: string, last: string, next: string): boolean {
  if (sentence.length >= MAX_MERGED_CHARS) return false;
  const word = wordBeforeFullStop(last);
  if (!word) return false;
  // An initial ("J. R. R. Tolkien") or the first half of "z. B.".
  if (/^\p{L}$/u.test(word)) return true;
  if (ABBREVIATIONS.has(word.toLowerCase())) return true;
  // "U.S. Army", "the ID. Buzz": ICU breaks before the capital. Merging two real sentences costs less than quoting
  // a fragment, so dotted capitals and two-capital names continue.
  if (/^(?:\p{Lu}\.)+\p{Lu}$|^\p{Lu}{2}$/u.test(word)) return true;
  return /^\d{1,2}$/.test(word) && ORDINAL_FOLLOWERS.test(next);
}

/** Whether a piece of prose reads as a sentence rather than a heading, a byline or a menu item. */
function isSentence(text: string): boolean {
  return endsSentence(text) || text.length >= MIN_UNPUNCTUATED_CHARS;
}

/**
 * The first `limit` distinct sentences of `blocks`, in reading order, trimmed. A sentence never spans two blocks.
 * Repeats (a pull quote, a boilerplate line) are kept once: the copies would otherwise vouch for each other.
 */
export function splitSentences(blocks: Iterable<ProseBlock>, language: string | undefined, limit: number): string[] {
  const segmenter = segmenterFor(language);
  const sentences: string[] = [];
  const seen = new Set<string>();
  let scannedChars = 0;
  let scannedBlocks = 0;
  let scannedSegments = 0;
  /** Whether `piece` was a sentence (kept now, or already kept as a repeat). */
  const keep = (piece: string): boolean => {
    const text = piece.trim();
    if (!text || !isSentence(text)) return false;
    const key = text.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      sentences.push(text);
    }
    return true;
  };

  for (const block of blocks) {
    if (sentences.length >= limit || scannedSegments >= MAX_SCAN_SEGMENTS) break;
    if (scannedChars >= MAX_SCAN_CHARS || scannedBlocks >= MAX_SCAN_BLOCKS) break;
    scannedChars += block.sourceChars;
    scannedBlocks++;
    let current = '';
    let last = '';
    let sentencesInBlock = 0;
    let cutShort = block.cut;
    for (const { segment } of segmenter.segment(block.text)) {
      if (++scannedSegments > MAX_SCAN_SEGMENTS) {
        cutShort = true; // what is left in `current` may be a sentence's start
        break;
      }
      if (current && continuesInto(current, last, segment)) {
        current += segment;
        last = segment;
        continue;
      }
      if (keep(current)) sentencesInBlock++;
      if (sentences.length >= limit) break;
      current = last = segment;
    }
    // The piece a cut block ends with is a fragment: quoted (with its "…") only when the block has nothing else.
    if (sentences.length < limit && (!cutShort || sentencesInBlock === 0)) keep(current);
  }
  return sentences;
}
