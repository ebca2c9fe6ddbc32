// What changed between two extractions of a page (docs/monitors.md, "Structured tracking"): the leaves that differ,
// with the numeric delta and currency of amounts, and the kind of change they make (a price up or down, stock, other).

export interface JsonDiffEntry {
  path: string;
  from?: unknown;
  to?: unknown;
  /** to − from, when both are amounts. */
  delta?: number;
  currency?: string;
  /** The old currency, when it differs from the new one (no delta then). */
  fromCurrency?: string;
}

export type JsonChangeType = 'price_up' | 'price_down' | 'stock' | 'content';

/** Leaves compared at most, and their depth: an extraction is small; a hostile one is cut, never walked whole. */
export const JSON_DIFF_LIMITS = { maxLeaves: 1_000, maxDepth: 12, maxEntries: 200, maxValueChars: 1_000 } as const;

type Leaf = string | number | boolean | null;

/** The leaves of a JSON value by path (`offers[0].price`), at most maxLeaves of them. */
export function leavesOf(value: unknown): Map<string, Leaf> {
  const out = new Map<string, Leaf>();
  const walk = (node: unknown, path: string, depth: number): void => {
    if (out.size >= JSON_DIFF_LIMITS.maxLeaves) return;
    if (node === null || typeof node !== 'object') {
      out.set(path, node === undefined ? null : (node as Leaf));
      return;
    }
    if (depth >= JSON_DIFF_LIMITS.maxDepth) {
      out.set(path, JSON.stringify(node).slice(0, 200));
      return;
    }
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${path}[${i}]`, depth + 1));
    else for (const [key, item] of Object.entries(node)) walk(item, path === '' ? key : `${path}.${key}`, depth + 1);
  };
  walk(value, '', 0);
  return out;
}

const SYMBOLS: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR', '₩': 'KRW' };
const CODE = /\b([A-Z]{3})\b/;
// One run of digits with , . or space as group or decimal separators; bounded, no nested quantifiers.
const AMOUNT = /-?\d[\d.,\s]{0,30}/;

/** An amount and its currency, from a number or a price as written ("€1.199,00", "$12.50", "149.99 EUR"). */
export function parseAmount(value: unknown): { amount: number; currency?: string } | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return { amount: value };
  if (typeof value !== 'string' || value.length > 100) return undefined;
  const digits = AMOUNT.exec(value)?.[0]?.replace(/\s/g, '');
  if (!digits) return undefined;
  const amount = toNumber(digits);
  if (amount === undefined) return undefined;
  const symbol = [...value].find((c) => SYMBOLS[c] !== undefined);
  const currency = symbol ? SYMBOLS[symbol] : CODE.exec(value)?.[1];
  return currency ? { amount, currency } : { amount };
}

/** "1,199.00" and "1.199,00" are 1199; "12,50" is 12.5; "1,000" is 1000 (three digits after a lone comma group). */
function toNumber(text: string): number | undefined {
  const lastDot = text.lastIndexOf('.');
  const lastComma = text.lastIndexOf(',');
  let normalized: string;
  if (lastDot >= 0 && lastComma >= 0) {
    normalized = lastDot > lastComma ? text.replace(/,/g, '') : text.replace(/\./g, '').replace(',', '.');
  } else if (lastComma >= 0) {
    const decimals = text.length - lastComma - 1;
    normalized = decimals === 3 && text.indexOf(',') === lastComma ? text.replace(',', '') : text.replace(/,/g, '.');
    if (normalized.split('.').length > 2) normalized = text.replace(/,/g, '');
  } else {
    normalized = text.split('.').length > 2 ? text.replace(/\./g, '') : text;
  }
  const n = Number(normalized);
  return Number.isFinite(n) ? n : undefined;
}

const PRICE_KEY = /price|amount|cost|fee|total/i;
const STOCK_KEY = /stock|availab|inventory|sold.?out/i;
const lastKey = (path: string): string =>
  path
    .replace(/\[\d+\]$/, '')
    .split(/[.[]/)
    .pop() ?? path;

/** The currency a price leaf names itself, else its sibling `currency` / `priceCurrency` leaf. */
function currencyNear(leaves: Map<string, Leaf>, path: string): string | undefined {
  const parent = path.includes('.') ? path.slice(0, path.lastIndexOf('.') + 1) : '';
  for (const key of ['currency', 'priceCurrency', 'price_currency']) {
    const value = leaves.get(`${parent}${key}`);
    if (typeof value === 'string' && value.length <= 10) return value;
  }
  return undefined;
}

/** The leaves that differ, in path order, with deltas and currencies for amounts; at most maxEntries. */
export function diffJson(before: unknown, after: unknown): JsonDiffEntry[] {
  const a = leavesOf(before);
  const b = leavesOf(after);
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  const entries: JsonDiffEntry[] = [];
  for (const path of paths) {
    if (entries.length >= JSON_DIFF_LIMITS.maxEntries) break;
    const from = a.get(path);
    const to = b.get(path);
    if (from === to) continue;
    const entry: JsonDiffEntry = { path };
    if (a.has(path)) entry.from = clip(from);
    if (b.has(path)) entry.to = clip(to);
    if (PRICE_KEY.test(lastKey(path))) {
      const x = parseAmount(from);
      const y = parseAmount(to);
      const fromCurrency = x?.currency ?? currencyNear(a, path);
      const toCurrency = y?.currency ?? currencyNear(b, path);
      if (toCurrency) entry.currency = toCurrency;
      if (fromCurrency && toCurrency && fromCurrency !== toCurrency) entry.fromCurrency = fromCurrency;
      else if (x && y && x.amount !== y.amount) entry.delta = round(y.amount - x.amount);
      // "149.99" to 149.99: the same amount written differently is no change.
      if (x && y && x.amount === y.amount && entry.fromCurrency === undefined) continue;
    }
    entries.push(entry);
  }
  return entries;
}

/** Long strings are cut in entries (events must stay under the delivery size limit). */
function clip(value: Leaf | undefined): Leaf | undefined {
  return typeof value === 'string' && value.length > JSON_DIFF_LIMITS.maxValueChars
    ? `${value.slice(0, JSON_DIFF_LIMITS.maxValueChars)}…`
    : value;
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/** The kind of change a diff makes: the first price that moved decides up or down; else stock; else content. */
export function classifyJsonChange(entries: readonly JsonDiffEntry[]): JsonChangeType {
  const price = entries.find((e) => e.delta !== undefined);
  if (price) return (price.delta as number) > 0 ? 'price_up' : 'price_down';
  if (entries.some((e) => STOCK_KEY.test(lastKey(e.path)))) return 'stock';
  return 'content';
}

/** The largest price move in percent of the old price, over the entries with a delta (0 when there is none). */
export function largestPriceMovePct(entries: readonly JsonDiffEntry[]): number {
  let largest = 0;
  for (const e of entries) {
    if (e.delta === undefined) continue;
    const from = parseAmount(e.from)?.amount;
    if (from === undefined || from === 0) return Number.POSITIVE_INFINITY;
    largest = Math.max(largest, (Math.abs(e.delta) / Math.abs(from)) * 100);
  }
  return largest;
}
