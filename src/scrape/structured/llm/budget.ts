// Cuts the page content to the input budget. The caller puts the main content first, so what is cut is
// the least useful end; the cut falls on a paragraph or line boundary so the model never sees half a
// sentence as if it were the page's last word.
import { cutUtf16 } from '../../../util/text.js';

/** A boundary earlier than this share of the budget wastes too much of it; the next finer cut is used then. */
const MIN_KEPT_SHARE = 0.5;

function lastBlankLineEnd(text: string): number {
  // The start of the last blank line (a line break followed by optional spaces and another line break).
  const blank = /\n[ \t]*\r?\n/g;
  let at = -1;
  for (let m = blank.exec(text); m !== null; m = blank.exec(text)) at = m.index;
  return at;
}

export function cutToBudget(content: string, maxChars: number): { content: string; truncated: boolean } {
  if (content.length <= maxChars) return { content, truncated: false };
  const head = content.slice(0, Math.max(0, maxChars));
  const minimum = Math.floor(maxChars * MIN_KEPT_SHARE);
  const paragraph = lastBlankLineEnd(head);
  if (paragraph >= minimum && paragraph > 0) return { content: head.slice(0, paragraph).trimEnd(), truncated: true };
  const line = head.lastIndexOf('\n');
  if (line >= minimum && line > 0) return { content: head.slice(0, line).trimEnd(), truncated: true };
  // No boundary in reach: cut at the budget, but not between the two halves of a surrogate pair.
  return { content: cutUtf16(content, maxChars), truncated: true };
}
