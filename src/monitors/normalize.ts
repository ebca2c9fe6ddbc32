// What a monitor compares: a page's main-content text with what changes on every load masked out (docs/monitors.md,
// "Normalization"), so that a clock, a view counter's "updated 5 minutes ago" or a CSRF token is never a change.

/** Lines of text a snapshot keeps at most, and characters per line; the rest is cut (and the snapshot says so). */
export const NORMALIZE_LIMITS = { maxLines: 20_000, maxLineChars: 2_000, maxChars: 500_000 } as const;

// Every pattern is a bounded class or a fixed alternation, without nested quantifiers: linear on any line.
const MASKS: ReadonlyArray<readonly [RegExp, string]> = [
  // ISO 8601 date-times (2026-11-26T14:05:09Z, 2026-11-26 14:05:09+01:00) before bare times.
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g, '⟨datetime⟩'],
  // Clock times: 14:05, 14:05:09, 2:05 pm, 02:05:09.123.
  [/\b\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d{1,3})?)?(?:\s?[AaPp]\.?[Mm]\.?)?\b/g, '⟨time⟩'],
  // Relative times: "5 minutes ago", "an hour ago", "just now", "vor 3 Minuten".
  [/\b(?:\d{1,4}|an?|one)\s(?:sec(?:ond)?s?|min(?:ute)?s?|hours?|hrs?|days?|weeks?|months?|years?)\sago\b/gi, '⟨ago⟩'],
  [/\bvor\s\d{1,4}\s(?:Sekunden|Minuten|Stunden|Tagen|Wochen|Monaten|Jahren)\b/gi, '⟨ago⟩'],
  [/\bjust now\b/gi, '⟨ago⟩'],
  // Unix timestamps in text (10 or 13 digits starting 1…).
  [/\b1\d{9}(?:\d{3})?\b/g, '⟨timestamp⟩'],
  // Tokens, hashes, session and cache-busting ids: 24+ characters of letters and digits (with - or _) that mix both
  // (shorter runs are left alone: a model name such as iPhone15ProMax256GB is content).
  [/\b(?=[A-Za-z0-9_-]{0,200}\d)(?=[A-Za-z0-9_-]{0,200}[A-Za-z])[A-Za-z0-9_-]{24,200}\b/g, '⟨token⟩'],
];

/** One line, its volatile parts masked and its whitespace collapsed. */
export function normalizeLine(line: string): string {
  let text = line.length > NORMALIZE_LIMITS.maxLineChars ? line.slice(0, NORMALIZE_LIMITS.maxLineChars) : line;
  text = text.replace(/\s+/g, ' ').trim();
  for (const [pattern, mask] of MASKS) text = text.replace(pattern, mask);
  return text;
}

export interface NormalizedText {
  /** The lines compared, blank ones dropped. */
  lines: string[];
  /** Some of the page was cut at the limits. */
  truncated: boolean;
}

/** A page's text as compared: one line per block, volatile parts masked, blank lines dropped, bounded. */
export function normalizeText(text: string): NormalizedText {
  let truncated = text.length > NORMALIZE_LIMITS.maxChars;
  const source = truncated ? text.slice(0, NORMALIZE_LIMITS.maxChars) : text;
  const lines: string[] = [];
  for (const raw of source.split('\n')) {
    if (raw.length > NORMALIZE_LIMITS.maxLineChars) truncated = true;
    const line = normalizeLine(raw);
    if (line === '') continue;
    if (lines.length >= NORMALIZE_LIMITS.maxLines) {
      truncated = true;
      break;
    }
    lines.push(line);
  }
  return { lines, truncated };
}
