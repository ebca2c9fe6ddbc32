// JSON-LD: every <script type="application/ld+json"> of the page, parsed leniently (real sites wrap it in HTML
// comments or CDATA, leave trailing commas and raw newlines in strings), turned into FactItems. Top-level arrays
// and @graph members are items of their own; nested objects become nested items; @value literals and @list/@set
// unwrap. Bounded: scripts over the size cap are skipped, nesting beyond the depth cap and items beyond the
// item budget are dropped.
import { toAbsoluteUrl } from '../../extract/absolutize.js';
import { getAttr, parsedTags, textContent, type Page } from '../../extract/dom.js';
import { addProp, newItem, type FactItem, type FactValue } from './facts.js';
import { localName, normalizeKey } from './keys.js';
import { RULE_LIMITS } from './limits.js';
import { cleanText } from './text.js';

/** Shared by every reader of a page: the item budget is per page, not per source. */
export interface ItemBudget {
  left: number;
}

/** Keys whose string values are URLs: resolved against the page's base, as microdata's href/src are. */
const URL_KEYS = new Set(['url', 'image', 'logo', 'contenturl', 'thumbnailurl', 'embedurl', 'sameas', 'thumbnail']);

function isJsonLdScript(type: string | null): boolean {
  if (!type) return false;
  const t = type.split(';')[0]?.trim().toLowerCase();
  return t === 'application/ld+json';
}

/** Strips what sites put around the JSON: HTML comment markers, CDATA markers (also behind // or /* comments). */
function unwrap(text: string): string {
  let t = text.trim();
  for (const marker of ['<!--', '//<![CDATA[', '/*<![CDATA[*/', '<![CDATA[']) {
    if (t.startsWith(marker)) t = t.slice(marker.length).trim();
  }
  for (const marker of ['-->', '//]]>', '/*]]>*/', ']]>']) {
    if (t.endsWith(marker)) t = t.slice(0, t.length - marker.length).trim();
  }
  return t;
}

/**
 * JSON.parse, then the usual repairs: control characters (raw newlines inside strings) become spaces (outside
 * strings they are whitespace anyway), and trailing commas before } or ] go. Each repair is one linear pass.
 */
export function parseLenient(text: string): unknown {
  const t = unwrap(text);
  if (!t) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    // repaired below
  }
  // eslint-disable-next-line no-control-regex -- raw control characters are exactly what is being removed
  const noControls = t.replace(/[\u0000-\u001f]+/g, ' ');
  const noTrailingCommas = noControls.replace(/,\s*([}\]])/g, '$1');
  try {
    return JSON.parse(noTrailingCommas);
  } catch {
    return undefined;
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/**
 * JSON-LD strings written from a CMS often carry HTML (a job description's <p>s, "&amp;"): tags become spaces
 * and the common entities their characters. `<[^<>]*>` cannot cross a '<', so it stays linear.
 */
function stripMarkup(s: string): string {
  if (!s.includes('<') && !s.includes('&')) return s;
  return s
    .replace(/<[^<>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (m, name: string) => ENTITIES[name] ?? m);
}

class JsonLdReader {
  readonly items: FactItem[] = [];

  constructor(
    private readonly budget: ItemBudget,
    private readonly baseUrl: string | undefined,
  ) {}

  /** A script's top level: an item, an array of items, or a @graph container (whose members are top-level). */
  readTop(node: unknown, depth = 0): void {
    if (depth > 2 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const n of node.slice(0, RULE_LIMITS.maxValuesPerProp)) this.readTop(n, depth + 1);
      return;
    }
    const obj = node as Record<string, unknown>;
    const graph = obj['@graph'];
    if (graph !== undefined) {
      const members = Array.isArray(graph) ? graph : [graph];
      for (const n of members.slice(0, RULE_LIMITS.maxValuesPerProp)) this.readTop(n, depth + 1);
      // A container with only @context and @graph is no item itself.
      if (!Object.keys(obj).some((k) => k !== '@context' && k !== '@graph')) return;
    }
    const value = this.toValue(obj, 1, '');
    if (value.length === 1 && typeof value[0] === 'object') this.items.push(value[0]);
  }

  /** The fact values of one JSON value; arrays flatten into several values. */
  private toValue(node: unknown, depth: number, key: string): FactValue[] {
    if (node === null || node === undefined || depth > RULE_LIMITS.maxDepth) return [];
    if (typeof node === 'string') {
      const s = cleanText(stripMarkup(node));
      if (!s) return [];
      return [URL_KEYS.has(key) ? (toAbsoluteUrl(s, this.baseUrl) ?? s) : s];
    }
    if (typeof node === 'number') return Number.isFinite(node) ? [node] : [];
    if (typeof node === 'boolean') return [node];
    if (Array.isArray(node)) {
      const out: FactValue[] = [];
      for (const n of node) {
        if (out.length >= RULE_LIMITS.maxValuesPerProp) break;
        out.push(...this.toValue(n, depth + 1, key));
      }
      return out;
    }
    if (typeof node !== 'object') return [];
    const obj = node as Record<string, unknown>;
    if ('@value' in obj) return this.toValue(obj['@value'], depth + 1, key);
    if ('@list' in obj) return this.toValue(obj['@list'], depth + 1, key);
    if ('@set' in obj) return this.toValue(obj['@set'], depth + 1, key);
    if (this.budget.left <= 0) return [];
    this.budget.left--;
    const rawTypes = obj['@type'];
    const types = (Array.isArray(rawTypes) ? rawTypes : [rawTypes])
      .filter((t): t is string => typeof t === 'string')
      .map(localName)
      .filter((t) => t !== '');
    const rawId = obj['@id'];
    const id = typeof rawId === 'string' ? (toAbsoluteUrl(rawId, this.baseUrl) ?? rawId) : undefined;
    const item = newItem('jsonld', types, id);
    for (const [name, child] of Object.entries(obj)) {
      if (name.startsWith('@') || name.length > RULE_LIMITS.maxKeyChars) continue;
      const local = localName(name);
      const childKey = normalizeKey(local);
      if (!childKey) continue;
      for (const v of this.toValue(child, depth + 1, childKey)) addProp(item, local, childKey, v);
    }
    return [item];
  }
}

/** The JSON-LD items of the page, in document order. */
export function readJsonLd(page: Page, baseUrl: string | undefined, budget: ItemBudget): FactItem[] {
  const reader = new JsonLdReader(budget, baseUrl);
  let scripts = 0;
  for (const script of parsedTags(page, 'script')) {
    if (!isJsonLdScript(getAttr(script, 'type'))) continue;
    if (++scripts > RULE_LIMITS.maxJsonLdScripts || budget.left <= 0) break;
    const text = textContent(script);
    if (text.length > RULE_LIMITS.maxJsonLdChars) continue;
    reader.readTop(parseLenient(text));
  }
  return reader.items;
}
