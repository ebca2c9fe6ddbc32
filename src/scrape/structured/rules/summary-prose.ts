// Markdown (as the scrape pipeline writes it) or plain text to the prose blocks an extractive summary may quote:
// paragraphs, quotes and list items with their inline syntax removed. Headings, code blocks, tables, rules and images
// are dropped; links keep their text. Whether a piece reads as a sentence is decided later, per sentence
// (summary-sentences.ts), so that a paragraph ending in "highlights:" still gives its earlier sentences.
//
// Everything here is linear in the input it looks at, and blocks are produced lazily: the caller stops pulling once it
// has enough sentences, so a 2 MB page is mostly never read.

/** Raw markdown gathered into one block at most; the rest of a longer paragraph is skipped (and the cut shown). */
const MAX_RAW_BLOCK_CHARS = 60_000;
/** A cleaned block longer than this is cut at a space, with "…": the sentence splitter never sees more. */
export const MAX_BLOCK_CHARS = 20_000;
/** Longest link destination recognised as one; protects the scan from a "](" with no ")" in sight. */
const MAX_LINK_DEST_CHARS = 4_096;

const HEADING = /^#{1,6}(?:\s|$)/;
const LIST_MARKER = /^(?:[-*+]|\d{1,9}[.)])(?:\s+|$)/;
const FENCE = /^(`{3,}|~{3,})/;
const THEMATIC_BREAK = /^(?:[-*_][ \t]*){3,}$/;
const SETEXT_H1 = /^=+[ \t]*$/;
const SETEXT_H2 = /^-+[ \t]*$/;
/** Reference marks such as "[12]" (Wikipedia's citations): not prose, and they survive as link text. */
const CITATION_MARK = /\[\d{1,3}\]/g;

/** A block of prose; `cut` when its end was left out (its text then ends in "…", and so does its last sentence). */
export interface ProseBlock {
  text: string;
  cut: boolean;
  /** Characters of the input this block was read from, skipped ones included: what reading it cost. */
  sourceChars: number;
}

/** Paragraph being gathered: its source lines, their total length, and whether some of it was skipped. */
interface Gathering {
  lines: string[];
  chars: number;
  cut: boolean;
  /** Input characters of the paragraph, the skipped ones too. */
  source: number;
}

function* lines(source: string): Generator<string> {
  let start = 0;
  while (start <= source.length) {
    let end = source.indexOf('\n', start);
    if (end < 0) end = source.length;
    const line = source.charCodeAt(end - 1) === 13 ? source.slice(start, end - 1) : source.slice(start, end);
    yield line;
    start = end + 1;
  }
}

/** The prose blocks of `markdown`, in reading order, inline syntax removed and whitespace collapsed. */
export function* markdownBlocks(markdown: string): Generator<ProseBlock> {
  let para: Gathering = { lines: [], chars: 0, cut: false, source: 0 };
  let fence = '';
  const take = (): ProseBlock | undefined => {
    const block = para.lines.length ? cleanBlock(para.lines.join(' '), para.cut, para.source) : undefined;
    para = { lines: [], chars: 0, cut: false, source: 0 };
    return block;
  };
  const add = (text: string): void => {
    para.source += text.length + 1;
    const room = MAX_RAW_BLOCK_CHARS - para.chars;
    if (room <= 0) {
      para.cut = true;
      return;
    }
    if (text.length > room) para.cut = true;
    const kept = text.length > room ? text.slice(0, room) : text;
    para.lines.push(kept);
    para.chars += kept.length + 1;
  };

  for (const raw of lines(markdown)) {
    let line = raw.trimStart();
    if (fence) {
      if (closesFence(line, fence)) fence = '';
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening?.[1]) {
      const block = take();
      if (block) yield block;
      fence = opening[1];
      continue;
    }
    // Quoted text is prose like any other (pull quotes, cited statements): drop the markers, nested ones included.
    if (line.startsWith('>')) line = line.slice(quoteMarkersLength(line));
    if (line === '') {
      const block = take();
      if (block) yield block;
      continue;
    }
    const short = line.length <= 200;
    // A one-line paragraph underlined by "===" or "---" is a (setext) heading.
    if (short && para.lines.length === 1 && (SETEXT_H1.test(line) || SETEXT_H2.test(line))) {
      take();
      continue;
    }
    if (HEADING.test(line) || line.startsWith('|') || (short && THEMATIC_BREAK.test(line))) {
      const block = take();
      if (block) yield block;
      continue;
    }
    const marker = LIST_MARKER.exec(line);
    if (marker) {
      // Every list item is a block of its own; nested lines that follow continue it.
      const block = take();
      if (block) yield block;
      line = line.slice(marker[0].length);
    }
    add(line);
  }
  const last = take();
  if (last) yield last;
}

/**
 * The blocks of plain text (the `text` format: one line per block). A line that does not end a sentence and is followed
 * by one starting in lower case is a hard-wrapped paragraph, so the two are joined.
 */
export function* textBlocks(text: string): Generator<ProseBlock> {
  let current = '';
  let cut = false;
  let source = 0;
  let previousLine = '';
  for (const raw of lines(text)) {
    const line = raw.trim();
    // The previous line, not the block so far, is checked: reading the end of a growing string flattens it each time.
    const continues = current !== '' && !endsSentence(previousLine) && /^\p{Ll}/u.test(line);
    previousLine = line;
    if (continues && current.length < MAX_RAW_BLOCK_CHARS) {
      current += ' ' + line;
      source += raw.length + 1;
      continue;
    }
    // An overlong paragraph goes on in a new block; this one ends mid-sentence, so it counts as cut.
    const block = current ? boundBlock(collapse(current), cut || continues, source) : undefined;
    if (block) yield block;
    cut = line.length > MAX_RAW_BLOCK_CHARS;
    current = cut ? line.slice(0, MAX_RAW_BLOCK_CHARS) : line;
    source = raw.length + 1;
  }
  const last = current ? boundBlock(collapse(current), cut, source) : undefined;
  if (last) yield last;
}

/** Length of the leading blockquote markers of `line` (">", "> >", ">>"), with the spaces between and after them. */
function quoteMarkersLength(line: string): number {
  let at = 0;
  while (at < line.length && (line.charAt(at) === '>' || line.charAt(at) === ' ' || line.charAt(at) === '\t')) at++;
  return at;
}

/** A fence closes with a run of the same character at least as long as the opening one, and nothing after it. */
function closesFence(line: string, fence: string): boolean {
  if (!line.startsWith(fence)) return false;
  let end = fence.length;
  while (line.charAt(end) === fence.charAt(0)) end++;
  return line.slice(end).trim() === '';
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cleanBlock(markdown: string, cut: boolean, sourceChars: number): ProseBlock | undefined {
  return boundBlock(collapse(stripInline(markdown).replace(CITATION_MARK, '')), cut, sourceChars);
}

/** The block cut to MAX_BLOCK_CHARS at a space; a cut block ends in "…" so that nobody reads it as complete. */
function boundBlock(text: string, cut: boolean, sourceChars: number): ProseBlock | undefined {
  if (!text) return undefined;
  if (text.length <= MAX_BLOCK_CHARS) return { text: cut ? text + '…' : text, cut, sourceChars };
  const space = text.lastIndexOf(' ', MAX_BLOCK_CHARS);
  const kept = text.slice(0, space > MAX_BLOCK_CHARS / 2 ? space : MAX_BLOCK_CHARS);
  return { text: kept + '…', cut: true, sourceChars };
}

const TERMINATORS = new Set(['.', '!', '?', '…', '。', '！', '？', '．', '؟', '।', '॥', '።', '։', '｡']);
const CLOSERS = new Set(['"', "'", '”', '’', '»', '›', ')', ']', '」', '』', '）', '】', '〉', '》']);

/** Whether `text` ends with sentence-final punctuation, possibly followed by closing quotes or brackets. */
export function endsSentence(text: string): boolean {
  let end = text.length;
  while (end > 0 && /\s/.test(text.charAt(end - 1))) end--;
  while (end > 0 && CLOSERS.has(text.charAt(end - 1))) end--;
  return end > 0 && TERMINATORS.has(text.charAt(end - 1));
}

const isAsciiPunctuation = (c: number): boolean =>
  (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
const isWordChar = (ch: string): boolean => ch !== '' && /[\p{L}\p{N}]/u.test(ch);

/**
 * Markdown inline syntax removed in one pass: backslash escapes resolved, images dropped (alt text included: it
 * describes a picture, it is not the article's prose), links replaced by their text, emphasis, strikethrough and
 * code-span delimiters dropped. Unmatched brackets are dropped too. Linear: each link destination is found through a
 * cached "next unescaped )" position that only moves forward.
 */
export function stripInline(src: string): string {
  let out = '';
  let copyFrom = 0;
  const opens: Array<{ image: boolean; at: number }> = [];
  let nextClose = -1;
  const closeAfter = (from: number): number => {
    if (nextClose >= from || nextClose === src.length) return nextClose;
    let j = src.indexOf(')', from);
    while (j > 0 && src.charCodeAt(j - 1) === 92) j = src.indexOf(')', j + 1);
    nextClose = j < 0 ? src.length : j;
    return nextClose;
  };
  const skip = (i: number, count: number): number => {
    out += src.slice(copyFrom, i);
    copyFrom = i + count;
    return i + count;
  };

  let i = 0;
  while (i < src.length) {
    const ch = src.charAt(i);
    const next = src.charAt(i + 1);
    if (ch === '\\' && i + 1 < src.length && isAsciiPunctuation(src.charCodeAt(i + 1))) {
      // Keep the escaped character: drop the backslash and move past both.
      out += src.slice(copyFrom, i) + next;
      copyFrom = i + 2;
      i += 2;
    } else if (ch === '!' && next === '[') {
      i = skip(i, 2);
      opens.push({ image: true, at: out.length });
    } else if (ch === '[') {
      i = skip(i, 1);
      opens.push({ image: false, at: out.length });
    } else if (ch === ']') {
      const close = next === '(' && opens.length ? closeAfter(i + 2) : src.length;
      if (close < src.length && close - i <= MAX_LINK_DEST_CHARS) {
        out += src.slice(copyFrom, i);
        const open = opens.pop();
        if (open?.image) out = out.slice(0, open.at);
        copyFrom = close + 1;
        i = close + 1;
      } else {
        i = skip(i, 1);
      }
    } else if (ch === '*' || ch === '`') {
      i = skip(i, 1);
    } else if (ch === '~' && next === '~') {
      i = skip(i, 2);
    } else if (ch === '_' && !(isWordChar(src.charAt(i - 1)) && isWordChar(next))) {
      // An underscore inside a word (snake_case) is not emphasis.
      i = skip(i, 1);
    } else {
      i++;
    }
  }
  return out + src.slice(copyFrom);
}
