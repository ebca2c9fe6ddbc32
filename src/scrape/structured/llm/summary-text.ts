// The summary as kept: the model's text without reasoning block, fences or wrapping quotes, within the
// character bound (a model overshooting it loses whole sentences, not half a word).
import { stripReasoning } from './answer.js';

export function cleanSummary(answer: string, maxChars: number): string {
  let text = stripReasoning(answer);
  const fenced = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```$/.exec(text);
  if (fenced?.[1] !== undefined) text = fenced[1].trim();
  if (text.length >= 2 && /^["“«]/.test(text) && /["”»]$/.test(text)) text = text.slice(1, -1).trim();
  if (text.length <= maxChars) return text;
  const head = text.slice(0, maxChars);
  // The last sentence end (., !, ?, or the CJK ones), if it keeps at least half of the bound.
  const sentenceEnds = [...head.matchAll(/[.!?。！？](?=\s|$)|[。！？]/g)];
  const lastEnd = sentenceEnds.at(-1);
  if (lastEnd?.index !== undefined && lastEnd.index + 1 >= maxChars / 2) return head.slice(0, lastEnd.index + 1);
  // Else the last word boundary, marked as cut; the mark counts in the bound.
  const space = head.lastIndexOf(' ');
  return (space >= maxChars / 2 ? head.slice(0, space) : head.slice(0, maxChars - 1)).trimEnd() + '…';
}
