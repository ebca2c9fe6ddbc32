// The unified, line-based diff of two normalized texts (jsdiff), with the measures the judgment reads, bounded in
// time and size.
import { createTwoFilesPatch } from 'diff';

export const DIFF_LIMITS = {
  /** Edits the diff may explore before it gives up and reports the texts as wholly replaced. */
  maxEditLength: 2_000,
  /** Time the diff may take before it gives up the same way (ms). */
  timeoutMs: 1_000,
  /** Characters of diff_text kept; a longer diff is cut (diff_text_truncated). */
  maxDiffChars: 64 * 1024,
} as const;

export interface TextDiff {
  /** Unified diff (3 lines of context), '' when the texts are equal. */
  diffText: string;
  diffTextTruncated: boolean;
  addedLines: string[];
  removedLines: string[];
  /** Characters added and removed, over the characters of the old text (0 when equal; at most 1). */
  changeRatio: number;
}

export function diffTexts(before: readonly string[], after: readonly string[], label: string): TextDiff {
  if (before.length === after.length && before.every((line, i) => line === after[i]))
    return { diffText: '', diffTextTruncated: false, addedLines: [], removedLines: [], changeRatio: 0 };
  const patch =
    createTwoFilesPatch(label, label, joined(before), joined(after), 'before', 'after', {
      context: 3,
      maxEditLength: DIFF_LIMITS.maxEditLength,
      timeout: DIFF_LIMITS.timeoutMs,
    }) ?? wholeReplacement(label, before, after);
  const addedLines: string[] = [];
  const removedLines: string[] = [];
  // The hunks' lines, from the first `@@` on (before it: the file headers): '+' added, '-' removed, ' ' context.
  const lines = patch.split('\n');
  for (let i = lines.findIndex((l) => l.startsWith('@@')); i >= 0 && i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith('+')) addedLines.push(line.slice(1));
    else if (line.startsWith('-')) removedLines.push(line.slice(1));
  }
  const oldChars = before.reduce((n, l) => n + l.length + 1, 0);
  const moved = [...addedLines, ...removedLines].reduce((n, l) => n + l.length + 1, 0);
  const diffTextTruncated = patch.length > DIFF_LIMITS.maxDiffChars;
  return {
    diffText: diffTextTruncated ? patch.slice(0, DIFF_LIMITS.maxDiffChars) : patch,
    diffTextTruncated,
    addedLines,
    removedLines,
    changeRatio: oldChars === 0 ? 1 : Math.min(1, moved / oldChars),
  };
}

/** Too different to align within the budget: one hunk in which every old line went and every new one came. */
function wholeReplacement(label: string, before: readonly string[], after: readonly string[]): string {
  const header = `--- ${label}\tbefore\n+++ ${label}\tafter\n`;
  const hunk = `@@ -1,${before.length} +1,${after.length} @@\n`;
  return `${header}${hunk}${before.map((l) => `-${l}\n`).join('')}${after.map((l) => `+${l}\n`).join('')}`;
}

function joined(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
