// One check against its baseline (docs/monitors.md, "Checks, snapshots and changes"): the snapshot's status and at most
// one change, with its text and structured diffs and the rules' judgment. Pure: the runner fetches, stores and
// (with a model) asks for a second opinion.
import { createHash } from 'node:crypto';
import { type Judgment, judgeTextChange } from './judge.js';
import { classifyJsonChange, diffJson, type JsonDiffEntry, largestPriceMovePct } from './json-diff.js';
import type { MonitorType, TrackMode } from './schema.js';
import { diffTexts, type TextDiff } from './text-diff.js';

export type SnapshotStatus = 'new' | 'same' | 'changed' | 'removed' | 'error';
export type ChangeType = 'text' | 'price_up' | 'price_down' | 'stock' | 'content' | 'new' | 'removed';

export interface ComparedSettings {
  monitorType: MonitorType;
  trackMode: TrackMode;
  minChangeRatio: number;
  priceChangePct: number | undefined;
}

/** A snapshot the check compares with: the last one that reported a state (new, changed or removed). */
export interface Baseline {
  id: string;
  status: SnapshotStatus;
  lines: string[] | null;
  extracted: unknown;
}

export type Observation =
  { kind: 'page'; lines: string[]; extracted?: unknown } | { kind: 'removed'; statusCode: number };

export interface ChangeDraft {
  changeType: ChangeType;
  diffText: string | null;
  diffTextTruncated: boolean;
  diffJson: JsonDiffEntry[] | null;
  /** The text diff the judgment read (absent for structured-only changes). */
  textDiff?: TextDiff;
  judgment: Judgment;
}

export interface Comparison {
  status: Exclude<SnapshotStatus, 'error'>;
  change?: ChangeDraft;
}

export function contentHash(lines: readonly string[] | null, extracted: unknown): string {
  const hash = createHash('sha256');
  hash.update(lines ? lines.join('\n') : '');
  hash.update('\u0000');
  hash.update(extracted === undefined ? '' : JSON.stringify(extracted));
  return hash.digest('hex');
}

const sure = (reason: string): Judgment => ({
  meaningful: true,
  confidence: 'high',
  reason,
  status: 'complete',
  source: 'rules',
});

export function compare(
  settings: ComparedSettings,
  baseline: Baseline | undefined,
  now: Observation,
  url: string,
): Comparison {
  if (now.kind === 'removed') {
    if (!baseline || baseline.status === 'removed') return { status: 'removed' };
    return {
      status: 'removed',
      change: {
        changeType: 'removed',
        diffText: null,
        diffTextTruncated: false,
        diffJson: null,
        judgment: sure(`The page answered ${now.statusCode}: it is gone`),
      },
    };
  }
  if (!baseline) return { status: 'new' };
  if (baseline.status === 'removed') {
    return {
      status: 'new',
      change: {
        changeType: 'new',
        diffText: null,
        diffTextTruncated: false,
        diffJson: null,
        judgment: sure('The page is back after it was gone'),
      },
    };
  }
  const tracksText = settings.trackMode !== 'json';
  const tracksJson = settings.trackMode !== 'text';
  let text: TextDiff | undefined;
  if (tracksText) {
    const diff = diffTexts(baseline.lines ?? [], now.lines, url);
    if (diff.diffText !== '' && diff.changeRatio >= settings.minChangeRatio) text = diff;
  }
  const entries = tracksJson ? diffJson(baseline.extracted ?? null, now.extracted ?? null) : [];
  if (!text && entries.length === 0) return { status: 'same' };
  if (entries.length === 0) {
    const diff = text as TextDiff;
    return {
      status: 'changed',
      change: {
        changeType: 'text',
        diffText: diff.diffText,
        diffTextTruncated: diff.diffTextTruncated,
        diffJson: null,
        textDiff: diff,
        judgment: judgeTextChange(diff),
      },
    };
  }
  const changeType = classifyJsonChange(entries);
  return {
    status: 'changed',
    change: {
      changeType,
      diffText: text?.diffText ?? null,
      diffTextTruncated: text?.diffTextTruncated ?? false,
      diffJson: entries,
      ...(text ? { textDiff: text } : {}),
      judgment: judgeStructured(entries, changeType, settings.priceChangePct),
    },
  };
}

/** A price move is meaningful at or above the threshold (any move without one); stock and other fields always. */
function judgeStructured(
  entries: readonly JsonDiffEntry[],
  changeType: ChangeType,
  thresholdPct: number | undefined,
): Judgment {
  const fields = entries
    .map((e) => e.path)
    .slice(0, 5)
    .join(', ');
  if (changeType !== 'price_up' && changeType !== 'price_down') return sure(`Fields changed: ${fields}`);
  const pct = largestPriceMovePct(entries);
  const shown = Number.isFinite(pct) ? `${Math.round(pct * 100) / 100}%` : 'from 0';
  if (thresholdPct !== undefined && pct < thresholdPct)
    return {
      meaningful: false,
      confidence: 'high',
      reason: `The price moved ${shown}, under the ${thresholdPct}% threshold`,
      status: 'complete',
      source: 'rules',
    };
  return sure(`The price went ${changeType === 'price_up' ? 'up' : 'down'} ${shown} (${fields})`);
}
