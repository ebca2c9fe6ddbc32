// Which items the answer comes from: the main entity (the item that states most of the schema's properties;
// ties go to the more specific type, then to the first), and the repeated structures an array of objects can
// be read from (ItemLists, several top-level items of one type).
import { deref, isItem, type FactItem, type FactValue, type PageFacts } from './facts.js';
import { normalizeKey } from './keys.js';
import { RULE_LIMITS } from './limits.js';
import { entityValues } from './match.js';

/** Types that describe the site or the page around the thing, not the thing: they lose ties. */
const GENERIC_TYPES = new Set(
  [
    'WebSite',
    'WebPage',
    'CollectionPage',
    'ItemPage',
    'AboutPage',
    'ContactPage',
    'SearchResultsPage',
    'BreadcrumbList',
    'Organization',
    'SearchAction',
    'ImageObject',
    'SiteNavigationElement',
    'WPHeader',
    'WPFooter',
    'WPSideBar',
    'ListItem',
  ].map(normalizeKey),
);

export function isGeneric(item: FactItem): boolean {
  return item.types.length === 0 || item.types.every((t) => GENERIC_TYPES.has(normalizeKey(t)));
}

/** Top-level items and the items they name as their main entity (a WebPage's mainEntity: Article). */
export function candidateEntities(page: PageFacts): FactItem[] {
  const out: FactItem[] = [];
  const seen = new Set<FactItem>();
  const add = (v: FactValue): void => {
    const d = deref(v, page.byId);
    if (isItem(d) && !seen.has(d) && out.length < RULE_LIMITS.maxItems) {
      seen.add(d);
      out.push(d);
    }
  };
  for (const item of page.items) {
    add(item);
    for (const v of item.props.get('mainentity') ?? []) add(v);
  }
  return out;
}

export interface RankedEntities {
  main: FactItem | undefined;
  /** Other items of the main entity's type that state something asked (the same thing in another syntax). */
  sameType: FactItem[];
}

/** The main entity for these property names; none when no item states any of them. */
export function rankEntities(candidates: FactItem[], names: string[], page: PageFacts): RankedEntities {
  let best: FactItem | undefined;
  let bestScore = 0;
  const scores = new Map<FactItem, number>();
  for (const item of candidates) {
    let score = 0;
    // A name listed twice counts twice, but is looked up once.
    const found = new Map<string, boolean>();
    for (const name of names) {
      let hit = found.get(name);
      if (hit === undefined) {
        hit = entityValues(item, name, page.byId).length > 0;
        found.set(name, hit);
      }
      if (hit) score++;
    }
    scores.set(item, score);
    if (score === 0) continue;
    if (!best || score > bestScore || (score === bestScore && isGeneric(best) && !isGeneric(item))) {
      best = item;
      bestScore = score;
    }
  }
  if (!best) return { main: undefined, sameType: [] };
  const main = best;
  const sameType = candidates.filter(
    (c) => c !== main && (scores.get(c) ?? 0) > 0 && c.types.some((t) => main.types.includes(t)),
  );
  return { main, sameType };
}

/** The first item that is not generic, else the first item: the schema-less answer's subject. */
export function firstSpecificEntity(candidates: FactItem[]): FactItem | undefined {
  return candidates.find((c) => !isGeneric(c)) ?? candidates[0];
}

/**
 * The elements of list-like values: an ItemList's or HowToSection's itemListElement, a ListItem's item (with
 * the ListItem's own position/url/name where the item lacks them). Two levels deep (sections of steps).
 */
export function expandLists(values: FactValue[], byId: ReadonlyMap<string, FactItem>, depth = 0): FactValue[] {
  const out: FactValue[] = [];
  for (const raw of values) {
    if (out.length >= RULE_LIMITS.maxArrayItems) break;
    const v = deref(raw, byId);
    if (!isItem(v)) {
      out.push(v);
      continue;
    }
    const elements = v.props.get('itemlistelement');
    if (elements && depth < 2) {
      out.push(...expandLists(elements, byId, depth + 1));
      continue;
    }
    const inner = v.types.includes('ListItem') ? v.props.get('item')?.map((x) => deref(x, byId)) : undefined;
    const target = inner?.find(isItem);
    out.push(target ? mergeListItem(target, v) : v);
  }
  return out.slice(0, RULE_LIMITS.maxArrayItems);
}

function mergeListItem(target: FactItem, listItem: FactItem): FactItem {
  const merged: FactItem = { ...target, props: new Map(target.props), names: new Map(target.names) };
  for (const [key, values] of listItem.props) {
    if (key === 'item' || merged.props.has(key)) continue;
    merged.props.set(key, values);
    merged.names.set(key, listItem.names.get(key) ?? key);
  }
  return merged;
}

/**
 * Repeated structures of the page, each a list of elements: every ItemList (top-level, or a top-level item's
 * direct property, e.g. a CollectionPage's mainEntity), then groups of two or more top-level items sharing a
 * specific type (a JSON-LD array of Products, repeated microdata scopes). Breadcrumbs only when asked for by
 * name (see fill.ts).
 */
export function repeatedStructures(page: PageFacts): Array<{ type: string; elements: FactValue[] }> {
  const lists: Array<{ type: string; elements: FactValue[] }> = [];
  const seen = new Set<FactItem>();
  const consider = (v: FactValue): void => {
    const d = deref(v, page.byId);
    if (!isItem(d) || seen.has(d) || !d.props.has('itemlistelement')) return;
    seen.add(d);
    lists.push({ type: d.types[0] ?? 'ItemList', elements: expandLists([d], page.byId) });
  };
  for (const item of page.items) {
    consider(item);
    for (const values of item.props.values()) for (const v of values.slice(0, 50)) consider(v);
  }
  const byType = new Map<string, FactItem[]>();
  for (const item of page.items) {
    if (isGeneric(item)) continue;
    const type = item.types[0] as string;
    const group = byType.get(type);
    if (group) group.push(item);
    else byType.set(type, [item]);
  }
  for (const [type, group] of byType) if (group.length >= 2) lists.push({ type, elements: group });
  return lists;
}
