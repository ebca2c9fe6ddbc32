// The built-in judgment of a text change, without a model (docs/monitors.md, "Judgment"): is it something a person
// watching the page would want to hear about? Labelled `source: "rules"`.
import type { TextDiff } from './text-diff.js';

export interface Judgment {
  meaningful: boolean;
  confidence: 'low' | 'medium' | 'high';
  reason: string;
  status: 'complete';
  /** `rules`: the built-in judgment; `model`: the configured model's, against the monitor's goal. */
  source: 'rules' | 'model';
  /** Why the model's judgment is missing, when one was asked for and the rules answered instead. */
  model_error?: string;
}

const NUMBER = /\d+(?:[.,]\d+)*/g;
const WORD = /[\p{L}\p{N}]+/gu;

function words(line: string): number {
  return line.match(WORD)?.length ?? 0;
}

/** The numbers of some lines, as written, masks excluded. */
function numbersOf(lines: readonly string[]): string[] {
  return lines.flatMap((line) => line.replace(/⟨[a-z]+⟩/g, ' ').match(NUMBER) ?? []);
}

/**
 * Meaningful when a substantive line came or went (3 words or more), or a number changed (a price, a count, a date);
 * not when the only difference is punctuation, case or a word or two of chrome. Confidence grows with the share of
 * the text that changed.
 */
export function judgeTextChange(diff: TextDiff): Judgment {
  const changed = [...diff.addedLines, ...diff.removedLines];
  const substantive = changed.filter((line) => words(line) >= 3).length;
  const before = numbersOf(diff.removedLines).sort();
  const after = numbersOf(diff.addedLines).sort();
  const numbersMoved = before.join('|') !== after.join('|');
  const lowerBefore = diff.removedLines.map((l) => l.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ''));
  const lowerAfter = diff.addedLines.map((l) => l.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ''));
  const cosmetic = lowerBefore.join('\n') === lowerAfter.join('\n');
  const confidence = diff.changeRatio >= 0.1 || substantive >= 3 ? 'high' : substantive >= 1 ? 'medium' : 'low';
  if (cosmetic) return rules(false, 'low', 'Only punctuation, case or spacing changed');
  if (numbersMoved)
    return rules(
      true,
      confidence === 'low' ? 'medium' : confidence,
      `Numbers changed (${summary(before)} → ${summary(after)})`,
    );
  if (substantive > 0)
    return rules(true, confidence, `${diff.addedLines.length} line(s) added, ${diff.removedLines.length} removed`);
  return rules(false, 'low', 'Only a word or two changed, in short lines');
}

function summary(numbers: readonly string[]): string {
  if (numbers.length === 0) return 'none';
  const shown = numbers.slice(0, 3).join(', ');
  return numbers.length > 3 ? `${shown}, …` : shown;
}

function rules(meaningful: boolean, confidence: Judgment['confidence'], reason: string): Judgment {
  return { meaningful, confidence, reason, status: 'complete', source: 'rules' };
}
