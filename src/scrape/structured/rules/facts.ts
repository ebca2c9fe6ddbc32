// The shapes every reader produces and the filler consumes: items (JSON-LD, microdata, RDFa), meta tags, and the
// label/value facts of the visible main content. Plain data, so the readers and the filler stay independent.

/** Where an item was read; the order is the order of trust. */
export type FactSource = 'jsonld' | 'microdata' | 'rdfa';

/** One value as the page states it: a literal, or a nested item. */
export type FactValue = string | number | boolean | FactItem;

/** A typed thing the page describes in machine-readable form (a Product, an Article, an Offer...). */
export interface FactItem {
  /** Types without their vocabulary prefix ('Product', not 'https://schema.org/Product'). */
  types: string[];
  /** @id / itemid / resource, when given: JSON-LD references are resolved through PageFacts.byId. */
  id?: string;
  source: FactSource;
  /** Property values by normalized key (see normalizeKey); a property stated several times keeps every value. */
  props: Map<string, FactValue[]>;
  /** The property names as written (normalized key -> first spelling seen), for the schema-less output. */
  names: Map<string, string>;
}

/** A label and its value(s) read from the visible content (a spec table row, a dt/dd, "Weight: 2 kg"). */
export interface LabelledValue {
  label: string;
  /** normalizeKey(label). */
  key: string;
  values: string[];
}

/** A table with a header row: one record per data row. */
export interface RecordTable {
  headers: string[];
  /** normalizeKey of each header. */
  keys: string[];
  rows: string[][];
}

/** What the page states in machine-readable form; read before main-content extraction removes the head. */
export interface PageFacts {
  /** Top-level items: JSON-LD, then microdata, then RDFa (the order of trust), each in document order. */
  items: FactItem[];
  /** Items by @id / itemid, for JSON-LD references (`"author": {"@id": "#jane"}`). */
  byId: Map<string, FactItem>;
  /** <meta> values by lower-case key (og:title, product:price:amount, description...). */
  meta: Map<string, string>;
  /** The text of the page's first non-empty <h1> (capped), for telling a title from its site-name suffix. */
  h1?: string;
}

/** What the visible main content states as labelled data. */
export interface ContentFacts {
  pairs: LabelledValue[];
  tables: RecordTable[];
}

export function newItem(source: FactSource, types: string[], id?: string): FactItem {
  const item: FactItem = { types, source, props: new Map(), names: new Map() };
  if (id) item.id = id;
  return item;
}

/** Adds a value under a property as written (several names can arrive for one normalized key). */
export function addProp(item: FactItem, name: string, key: string, value: FactValue): void {
  const list = item.props.get(key);
  if (list) list.push(value);
  else {
    item.props.set(key, [value]);
    item.names.set(key, name);
  }
}

export function isItem(value: FactValue | undefined): value is FactItem {
  return typeof value === 'object' && value !== null;
}

/**
 * A reference (`{"@id": "#jane"}`, or one repeating a name: `{"@id": "#jane", "name": "Jane"}`) stands for the
 * item of that id that states more: byId keeps the richest item of each id.
 */
export function deref(value: FactValue, byId: ReadonlyMap<string, FactItem>): FactValue {
  if (!isItem(value) || !value.id) return value;
  const full = byId.get(value.id);
  return full && full.props.size > value.props.size ? full : value;
}
