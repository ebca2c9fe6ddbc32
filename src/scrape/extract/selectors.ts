// Validates client CSS selectors and applies include_tags / exclude_tags to the document body.
import { compile, selectAll } from 'css-select';
import { appendChild, contains, removeChildren, removeNode, type Element, type Page } from './dom.js';

/** Guards against pathological inputs; no real selector needs more. */
const MAX_SELECTOR_LENGTH = 1000;
const validity = new Map<string, boolean>();

/**
 * True when css-select (the engine include/exclude selectors run on) can compile the selector.
 * Validating with the same engine means a selector accepted here never throws at extraction time.
 */
export function isValidCssSelector(selector: string): boolean {
  if (typeof selector !== 'string') return false;
  const s = selector.trim();
  if (!s || s.length > MAX_SELECTOR_LENGTH) return false;
  const cached = validity.get(s);
  if (cached !== undefined) return cached;
  let ok: boolean;
  try {
    compile(s);
    ok = !hasDanglingParts(s);
  } catch {
    ok = false;
  }
  if (validity.size > 10_000) validity.clear();
  validity.set(s, ok);
  return ok;
}

/**
 * css-select accepts relative selectors ("> p", "+ p", "p >") and empty class names ("div..x")
 * because it also serves scoped queries; as a top-level include/exclude filter they are mistakes.
 */
function hasDanglingParts(selector: string): boolean {
  const skeleton = selector
    .replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '""')
    .replace(/\[[^\]]*\]/g, '[]')
    .replace(/\([^()]*\)/g, '()');
  return skeleton.split(',').some((part) => {
    const p = part.trim();
    return !p || /^[>+~]/.test(p) || /[>+~]$/.test(p) || /[.#](?![\w\u00a0-\uffff\\-])/.test(p);
  });
}

function validList(selectors: ReadonlyArray<string> | undefined): string | undefined {
  const valid = (selectors ?? []).map((s) => s.trim()).filter(isValidCssSelector);
  return valid.length ? valid.map(withDescendantCache).join(', ') : undefined;
}

/**
 * Matches every element (so it changes no result) but has css-select's "expensive" rating, which
 * turns on its per-element cache for every descendant combinator to its right.
 */
const CACHE_ON = ':is(*,:has(*))';

/**
 * The selector with CACHE_ON added to the first compound of each of its complex selectors.
 * css-select caches a descendant combinator's ancestor checks only after an expensive rule, so a
 * plain chain like `span div div div` backtracks over every ancestor combination: 9 s on a page of
 * 400 nested divs, 25 s with one more `div` on 200. Cached, each ancestor is checked once per rule.
 */
export function withDescendantCache(selector: string): string {
  let out = '';
  let start = 0;
  for (const end of [...topLevelIndexes(selector, (ch) => ch === ','), selector.length]) {
    const complex = selector.slice(start, end);
    const lead = complex.length - complex.trimStart().length;
    const firstEnd = topLevelIndexes(complex, (ch) => /[\s>+~]/.test(ch), lead)[0];
    out += firstEnd === undefined ? complex : complex.slice(0, firstEnd) + CACHE_ON + complex.slice(firstEnd);
    if (end < selector.length) out += ',';
    start = end + 1;
  }
  try {
    compile(out);
    return out;
  } catch {
    return selector;
  }
}

/** Indexes of characters outside strings, escapes, `[...]` and `(...)` for which `test` holds. */
function topLevelIndexes(text: string, test: (ch: string) => boolean, from = 0): number[] {
  const found: number[] = [];
  let depth = 0;
  let quote = '';
  for (let i = from; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      i++;
    } else if (quote !== '') {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '[' || ch === '(') {
      depth++;
    } else if ((ch === ']' || ch === ')') && depth > 0) {
      depth--;
    } else if (depth === 0 && test(ch)) {
      found.push(i);
    }
  }
  return found;
}

/** Matches under the body, in document order. */
function select(page: Page, list: string): Element[] {
  return selectAll(list, page.body.children);
}

/** Removes every element matching any selector. */
export function applyExcludeTags(page: Page, selectors: ReadonlyArray<string> | undefined): void {
  const list = validList(selectors);
  if (!list) return;
  for (const el of select(page, list)) removeNode(el);
}

/**
 * Keeps only the elements matching any selector (the outermost match when matches nest), in document
 * order, as the new body content (an empty body when nothing matches).
 */
export function applyIncludeTags(page: Page, selectors: ReadonlyArray<string> | undefined): void {
  const list = validList(selectors);
  if (!list) return;
  const kept: Element[] = [];
  for (const el of select(page, list)) {
    // Matches come in document order, so an ancestor match always precedes its descendants.
    const last = kept[kept.length - 1];
    if (last && contains(last, el)) continue;
    kept.push(el);
  }
  for (const el of kept) removeNode(el);
  removeChildren(page.body);
  for (const el of kept) appendChild(page.body, el);
}
