// Filling the client's schema from the facts. Per property of the root object, in order of trust: the main
// entity (and other items of its type), the page's meta tags and metadata, the visible labelled content; an
// object or array of objects not found on the entity is also looked for among items of that type ('recipe' ->
// the Recipe item) and, for arrays, among the page's repeated structures and record tables. Nested objects are
// filled from the nested item found for them. Every property of every object filled is present; what is not
// found is null. Values are only ever copied and converted, never made up.
import type { PageMetadata } from '../../extract/metadata.js';
import type { JsonSchema } from '../types.js';
import { matchEnum, textOf, toBoolean, toInteger, toNumber, writesDecimalComma, type CoerceContext } from './coerce.js';
import { candidateEntities, expandLists, rankEntities, repeatedStructures } from './entities.js';
import {
  deref,
  isItem,
  type ContentFacts,
  type FactItem,
  type FactValue,
  type PageFacts,
  type RecordTable,
} from './facts.js';
import { normalizeKey } from './keys.js';
import { RULE_LIMITS } from './limits.js';
import { entityValues, groupsOf, labelContains, labelKeys, labelPhrases, labelWords, nameVariants } from './match.js';
import { enumOf, itemsOf, kindOf, maxItemsOf, propertiesOf, resolveSchema, type SchemaKind } from './schema-view.js';
import type { SynonymGroup } from './synonyms.js';
import { hoursFromPair, hoursFromText } from './hours.js';
import { amountIn, currencyOfAmount, unitOfName, type UnitName } from './units.js';
import { calendarDate } from './dates.js';
import { objectFromText } from './text-items.js';
import { englishNames } from './name-translations.js';
import { typeWords } from './structure.js';

interface FillContext extends CoerceContext {
  page: PageFacts;
  content: ContentFacts;
  metadata: PageMetadata;
  root: JsonSchema;
  /** repeatedStructures(page), computed on first use. */
  lists?: ReturnType<typeof repeatedStructures>;
  /** Currencies of the amounts written with a sign or code that were read as numbers ("€115" -> EUR). */
  currencies: Set<string>;
}

function listsOf(ctx: FillContext): ReturnType<typeof repeatedStructures> {
  ctx.lists ??= repeatedStructures(ctx.page);
  return ctx.lists;
}

/** What the property's name says about reading a list written as one text. */
type SplitHint = SynonymGroup['split'];

function splitHint(name: string): SplitHint {
  for (const g of groupsOf(name)) if (g.group.split) return g.group.split;
  return undefined;
}

function isEmptyObject(value: Record<string, unknown>): boolean {
  return Object.values(value).every((v) => v === null);
}

/** One scalar of the schema's kind from one candidate, or null. */
function scalar(kind: SchemaKind, schema: JsonSchema, value: FactValue, ctx: FillContext): unknown {
  let out: unknown;
  switch (kind) {
    case 'number':
    case 'integer':
      out = kind === 'number' ? toNumber(value, ctx) : toInteger(value, ctx);
      if (out !== null && typeof value === 'string') {
        const currency = currencyOfAmount(value);
        if (currency) ctx.currencies.add(currency);
      }
      break;
    case 'boolean':
      out = toBoolean(value, ctx);
      break;
    default:
      // 'string', 'any' and 'null' read as text; an untyped property gets the value as stated.
      out = kind === 'any' && (typeof value === 'number' || typeof value === 'boolean') ? value : textOf(value, ctx);
      // "format": "date" asks for the calendar date of a stated timestamp (2024-11-30T23:59:00-05:00).
      if (typeof out === 'string' && schema['format'] === 'date') out = calendarDate(out) ?? out;
  }
  const members = enumOf(schema);
  return members ? matchEnum(out, members) : (out ?? null);
}

/** A feature stated as absent (a LocationFeatureSpecification with `value: false`): not an element of a list. */
function statesAbsent(v: FactValue): boolean {
  if (!isItem(v)) return false;
  const value = v.props.get('value');
  return value?.length === 1 && (value[0] === false || value[0] === 'false');
}

/** A single text that is a list written out ("salt, pepper", one step per line). */
function splitText(value: FactValue, hint: SplitHint): FactValue[] {
  if (typeof value !== 'string' || !hint) return [value];
  // Keyword-like lists are written with commas, semicolons, middle dots or bars.
  const parts = hint === 'comma' ? value.split(/[,;·|]/) : value.split(/\n+/);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** The schema's value from candidate facts (best first), or null. */
export function fillValue(
  schema: JsonSchema,
  candidates: FactValue[],
  ctx: FillContext,
  depth: number,
  hint?: SplitHint,
): unknown {
  if (!candidates.length || depth > RULE_LIMITS.maxSchemaDepth) return null;
  const s = resolveSchema(schema, ctx.root);
  const kind = kindOf(s);
  if (kind === 'object') {
    for (const c of candidates) {
      if (!isItem(c)) continue;
      const filled = fillObject(s, c, ctx, depth + 1);
      if (!isEmptyObject(filled)) return filled;
    }
    return null;
  }
  if (kind === 'array') {
    const items = resolveSchema(itemsOf(s), ctx.root);
    const itemKind = kindOf(items);
    const limit = Math.min(maxItemsOf(s) ?? RULE_LIMITS.maxArrayItems, RULE_LIMITS.maxArrayItems);
    const out: unknown[] = [];
    if (itemKind === 'object') {
      const elements = expandLists(candidates, ctx.byId);
      for (const element of asksDay(items) ? elements.flatMap(perDay) : elements) {
        if (out.length >= limit) break;
        const filled =
          typeof element === 'string'
            ? objectFromText(items, element, ctx.root)
            : fillValue(items, [element], ctx, depth + 1);
        if (filled !== null) out.push(filled);
      }
    } else {
      const seen = new Set<string>();
      // A single stated text may be the whole list; several values are the list.
      const expanded = expandLists(candidates, ctx.byId);
      const values = expanded.length === 1 ? splitText(expanded[0] as FactValue, hint) : expanded;
      for (const v of values) {
        if (out.length >= limit) break;
        if (statesAbsent(v)) continue;
        const x = itemKind === 'array' ? null : scalar(itemKind, items, v, ctx);
        const key = JSON.stringify(x);
        if (x !== null && !seen.has(key)) {
          seen.add(key);
          out.push(x);
        }
      }
    }
    return out.length ? out : null;
  }
  for (const c of candidates) {
    const v = scalar(kind, s, c, ctx);
    if (v !== null) return v;
  }
  return null;
}

/** Whether an object schema asks for a day of the week (opening hours as one object per day). */
function asksDay(items: JsonSchema): boolean {
  return propertiesOf(items).some(([n]) => groupsOf(n).some((g) => g.group.paths.includes('dayOfWeek')));
}

/**
 * An OpeningHoursSpecification naming several days is one element per day (same opens/closes); so is an
 * openingHours text ("Mo-Fr 09:00-18:00").
 */
function perDay(element: FactValue): FactValue[] {
  if (typeof element === 'string') return hoursFromText(element) ?? [element];
  if (!isItem(element)) return [element];
  const days = element.props.get('dayofweek');
  if (!days || days.length < 2) return [element];
  return days.slice(0, 7).map((day) => ({ ...element, props: new Map(element.props).set('dayofweek', [day]) }));
}

/**
 * Opening hours the visible content states as day/hours pairs (a table of days, "Mon–Fri: 9–17"): one item per
 * day, in the page's order. At least two such pairs: one day line alone may be anything (a holiday note).
 */
function visibleHours(ctx: FillContext): FactItem[] {
  const out: FactItem[] = [];
  let pairs = 0;
  for (const pair of ctx.content.pairs) {
    const days = pair.values.length === 1 ? hoursFromPair(pair.label, pair.values[0] as string) : null;
    if (!days) continue;
    pairs++;
    out.push(...days);
    if (out.length >= RULE_LIMITS.maxArrayItems) break;
  }
  return pairs >= 2 ? out : [];
}

/** The unit a number property's name ends in ('weight_kg'), for the second lookup by the name without it. */
function unitLookup(name: string, schema: JsonSchema, ctx: FillContext): UnitName | null {
  const kind = kindOf(resolveSchema(schema, ctx.root));
  return kind === 'number' || kind === 'integer' ? unitOfName(name) : null;
}

/** Values in the unit asked for; values stating an incompatible or unknown unit are dropped. */
function inUnit(values: FactValue[], unit: UnitName, ctx: FillContext): FactValue[] {
  const out: FactValue[] = [];
  for (const v of values) {
    const n = amountIn(v, unit.unit, ctx.byId, ctx.decimalComma);
    if (n !== null) out.push(n);
  }
  return out;
}

/** Words that name a time of day on their own ('doors', 'curfew'); other names end in 'time' ('doors_time'). */
const TIME_OF_DAY_NAMES = new Set(['doors', 'doorsopen', 'curfew', 'kickoff']);

/**
 * A string property without a format whose name asks a time of day ('doors_time', 'curfew') gets the time a
 * stated date-time gives, as written ('2025-03-15T19:00:00+00:00' -> '19:00'); other values are kept.
 */
function asTimeOfDay(name: string, schema: JsonSchema, value: unknown, ctx: FillContext): unknown {
  if (typeof value !== 'string' || schema['format'] !== undefined) return value;
  if (kindOf(resolveSchema(schema, ctx.root)) !== 'string') return value;
  const words = labelWords(name);
  if (words[words.length - 1] !== 'time' && !TIME_OF_DAY_NAMES.has(normalizeKey(name))) return value;
  const m = /^\d{4}-\d{2}-\d{2}T(\d{2}:\d{2})/.exec(value.trim());
  return m ? m[1] : value;
}

/**
 * Names that mean another property when one value is asked: a recipe's `method` as a string is its cooking
 * method ("Baking"); as an array it is the steps.
 */
const SCALAR_MEANINGS: ReadonlyMap<string, string> = new Map([['method', 'cooking method']]);

/** The forms a property is looked up under, in order: a scalar's own meaning, the name, its English forms. */
function formsOf(name: string, schema: JsonSchema, ctx: FillContext): string[] {
  const kind = kindOf(resolveSchema(schema, ctx.root));
  const scalar = SCALAR_MEANINGS.get(normalizeKey(name));
  const first = scalar && kind !== 'array' && kind !== 'object' ? [scalar] : [];
  const forms = [...first, name, ...englishNames(name)];
  // A yes/no asked by a feature's name alone ('pool', 'parking') is whether the thing has it.
  if (kind === 'boolean' && !/^(?:has|is)[\s_A-Z]/.test(name)) forms.push(`has ${name}`);
  return forms;
}

function itemValue(item: FactItem, name: string, sub: JsonSchema, ctx: FillContext, depth: number): unknown {
  for (const asked of formsOf(name, sub, ctx)) {
    const v = asTimeOfDay(asked, sub, statedValue(item, asked, sub, ctx, depth), ctx);
    if (v !== null) return v;
  }
  return null;
}

/** What an item states for a property: under its name, else (a unit-suffixed number) under the name without it. */
function statedValue(item: FactItem, name: string, sub: JsonSchema, ctx: FillContext, depth: number): unknown {
  const stated = entityValues(item, name, ctx.byId);
  const v = fillValue(sub, stated, ctx, depth, splitHint(name));
  if (v !== null) return v;
  const unit = unitLookup(name, sub, ctx);
  if (!unit) return null;
  // Stated under the whole name in another form ('PT14H30M' for video_hours).
  const converted = fillValue(sub, inUnit(stated, unit, ctx), ctx, depth);
  if (converted !== null) return converted;
  // price_eur: the item's own stated currency, if any, must be the one asked for.
  if (/^[A-Z]{3}$/.test(unit.unit.dim)) {
    const stated = fillValue({ type: 'string' }, entityValues(item, 'currency', ctx.byId), ctx, depth);
    if (typeof stated === 'string' && stated.trim().toUpperCase() !== unit.unit.dim) return null;
  }
  return fillValue(sub, inUnit(entityValues(item, unit.base, ctx.byId), unit, ctx), ctx, depth);
}

/** Whether a name (or one of its English forms) belongs to a group reading one of these paths first. */
function readsFirst(name: string, paths: ReadonlyArray<string>): boolean {
  return [name, ...englishNames(name)].some((form) =>
    groupsOf(form).some((g) => paths.includes(g.group.paths[0] ?? '')),
  );
}

/** Every property of the object schema, from one item. */
function fillObject(schema: JsonSchema, item: FactItem, ctx: FillContext, depth: number): Record<string, unknown> {
  const props = propertiesOf(schema);
  // An address asked beside its city or postal code is the street line ({address, city, postal_code}).
  const split = props.some(([n]) => readsFirst(n, ['addressLocality', 'postalCode']));
  // fromEntries: a property named "__proto__" is a plain key, not the object's prototype.
  return Object.fromEntries(
    props.map(([name, sub]) => {
      const street = split && readsFirst(name, ['address']) ? itemValue(item, 'street address', sub, ctx, depth) : null;
      return [name, street ?? itemValue(item, name, sub, ctx, depth)];
    }),
  );
}

/** Types of a page that lists things (a category, a collection, search results) rather than being one. */
const LISTING_TYPES = new Set(['CollectionPage', 'ItemList', 'WebPage', 'SearchResultsPage', 'OfferCatalog']);

/**
 * The name of a listing page: the last step of its breadcrumb trail (the category it shows), else its title
 * without the site's name, else its first heading (last: themes put the shop's logo in an h1). Nothing when the
 * page is one thing (a product's page names the product there, not its category): its main entity is not a
 * listing, or it has none and its og:type is not `website`.
 */
function listingName(entities: FactItem[], ctx: FillContext): FactValue[] {
  const main = entities[0];
  if (main && !main.types.some((t) => LISTING_TYPES.has(t))) return categoryCrumb(main, ctx);
  // With no entity, Open Graph says whether the page is one thing (an article, a product, a video).
  const ogType = (ctx.page.meta.get('og:type') ?? 'website').toLowerCase();
  if (!main && ogType !== 'website' && ogType !== 'product.group') return [];
  const out: FactValue[] = [];
  for (const item of breadcrumbLists(ctx)) {
    const steps = expandLists(item.props.get('itemlistelement') ?? [], ctx.byId);
    const last = steps[steps.length - 1];
    const named = last === undefined ? undefined : isItem(last) ? last.props.get('name')?.[0] : last;
    if (named !== undefined) out.push(named);
  }
  for (const key of ['og:title', 'twitter:title']) {
    const title = ctx.page.meta.get(key);
    if (title) out.push(pageTitle(title, ctx));
  }
  if (ctx.page.h1) out.push(ctx.page.h1);
  return out;
}

/** The page's breadcrumb trails: top-level BreadcrumbLists and those a page states as its `breadcrumb`. */
function breadcrumbLists(ctx: FillContext): FactItem[] {
  const out: FactItem[] = [];
  for (const item of ctx.page.items) {
    if (item.types.includes('BreadcrumbList')) out.push(item);
    for (const v of (item.props.get('breadcrumb') ?? []).slice(0, 5)) {
      const d = deref(v, ctx.byId);
      if (isItem(d) && d.types.includes('BreadcrumbList') && !out.includes(d)) out.push(d);
    }
  }
  return out;
}

/**
 * The category a thing's page files it under: the last step of the page's breadcrumb trail that is not the thing
 * itself (a product page's trail ends with the category, or with the product after it).
 */
function categoryCrumb(main: FactItem, ctx: FillContext): FactValue[] {
  const own = new Set((main.props.get('name') ?? []).filter((n) => typeof n === 'string').map((n) => foldTitle(n)));
  for (const item of breadcrumbLists(ctx)) {
    const names = expandLists(item.props.get('itemlistelement') ?? [], ctx.byId)
      .map((step) => (isItem(step) ? step.props.get('name')?.[0] : step))
      .filter((n): n is string => typeof n === 'string' && n.trim() !== '');
    while (names.length && own.has(foldTitle(names[names.length - 1] as string))) names.pop();
    // One step (Home) is no category.
    if (names.length > 1) return [names[names.length - 1] as string];
  }
  return [];
}

/** Meta tags and page metadata a property name may be read from (the root object only: they describe the page). */
function metaValues(name: string, ctx: FillContext): FactValue[] {
  const out: FactValue[] = [];
  for (const g of groupsOf(name)) {
    const add = (v: string | undefined): void => {
      if (v) out.push(g.group.pageTitle ? pageTitle(v, ctx) : v);
    };
    for (const key of g.group.meta ?? []) add(ctx.page.meta.get(key));
    const field = g.group.metadata;
    add(field ? ctx.metadata[field] : undefined);
  }
  return out;
}

/** Vocabularies whose meta keys are '<namespace><separator><property>' (citation_doi, dc.rights, og:locale). */
const META_NAMESPACE = /^(?:citation_|dc\.|dcterms\.|prism\.|og:|article:|book:|music:|video:|product:|profile:)(.+)$/;

/**
 * Meta tags of a namespaced vocabulary whose property is this name ('doi' <- citation_doi, 'first_page' <-
 * citation_firstpage, 'authors' <- every citation_author, 'journal' <- citation_journal_title), or of a site's own
 * `prefix:...:property` vocabulary ('latitude' <- place:location:latitude): each stated value, repeated keys one per
 * line.
 */
function namespacedMeta(name: string, ctx: FillContext): FactValue[] {
  const key = normalizeKey(name);
  const wanted = new Set([key, `${key}title`, `${key}name`]);
  if (key.endsWith('s') && key.length > 3) wanted.add(key.slice(0, -1));
  for (const [metaKey, value] of ctx.page.meta) {
    const m = META_NAMESPACE.exec(metaKey);
    // A site's own vocabulary ('place:location:latitude', 'hearthly:city'): its last segment; not Twitter's.
    const last = !m && !metaKey.startsWith('twitter:') && metaKey.includes(':') ? metaKey.split(':').pop() : undefined;
    const property = m ? (m[1] as string) : last;
    if (property && wanted.has(normalizeKey(property))) return value.split('\n').filter((v) => v.trim() !== '');
  }
  return [];
}

/** Characters that separate a page title from the site's name ("Product – Shop", "Post | Blog"). */
const TITLE_SEPARATORS = new Set(['|', '-', '\u2013', '\u2014', '\u00b7', '\u2022', ':', '/', '\u00bb', '\u203a']);
const foldTitle = (s: string): string =>
  s
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/**
 * A <title> (or og:title) names the thing and then the site: when the page's <h1> is the title's start, up to a
 * separator ("Kestrelby - Northshire Wiki" with <h1>Kestrelby</h1>), the h1 is the name; else a trailing
 * " | <og:site_name>" is dropped. Otherwise the title is kept as written.
 */
function pageTitle(title: string, ctx: FillContext): string {
  const t = foldTitle(title);
  const h1 = ctx.page.h1;
  if (h1) {
    const h = foldTitle(h1);
    const rest = t.slice(h.length).trimStart();
    if (h && t.startsWith(h) && (rest === '' || TITLE_SEPARATORS.has(rest[0] as string))) return h1;
  }
  const site = ctx.page.meta.get('og:site_name')?.trim();
  const raw = title.trim();
  if (site && raw.length > site.length && foldTitle(raw.slice(raw.length - site.length)) === foldTitle(site)) {
    const head = raw.slice(0, raw.length - site.length).trimEnd();
    const last = head[head.length - 1];
    const kept = head.slice(0, -1).trimEnd();
    if (last && TITLE_SEPARATORS.has(last.replace(/[\u2010-\u2015\u2212]/, '-')) && kept) return kept;
  }
  return title;
}

/** Values of visible labels that name this property. */
function labelledValues(name: string, ctx: FillContext): FactValue[] {
  const keys = labelKeys(name);
  const out: FactValue[] = [];
  for (const pair of ctx.content.pairs) if (keys.has(pair.key)) out.push(...pair.values);
  return out;
}

/**
 * A unit-suffixed number property from visible labels: labels naming it without the unit ("Weight" for
 * weight_kg), then labels containing those words ("Max. torque (hard)" for torque_nm); values in the unit asked.
 */
function labelledAmounts(unit: UnitName, ctx: FillContext): FactValue[] {
  const exact = inUnit(labelledValues(unit.base, ctx), unit, ctx);
  if (exact.length) return exact;
  const phrases = labelPhrases(unit.base);
  const out: FactValue[] = [];
  for (const pair of ctx.content.pairs) if (labelContains(pair.label, phrases)) out.push(...pair.values);
  return inUnit(out, unit, ctx);
}

/** Items of the page whose type is the property's name ('recipe' -> Recipe, 'products' -> Product). */
function itemsOfNamedType(name: string, ctx: FillContext): FactItem[] {
  const wanted = new Set<string>();
  for (const key of nameVariants(name)) {
    wanted.add(key);
    if (key.endsWith('s') && key.length > 3) wanted.add(key.slice(0, -1));
  }
  const out: FactItem[] = [];
  const seen = new Set<FactItem>();
  const add = (v: FactValue): void => {
    if (isItem(v) && !seen.has(v) && v.types.some((t) => wanted.has(normalizeKey(t)))) {
      seen.add(v);
      out.push(v);
    }
  };
  for (const c of candidateEntities(ctx.page)) add(c);
  for (const list of listsOf(ctx)) for (const e of list.elements) add(e);
  return out;
}

/** An object schema filled from visible label/value pairs (a spec table for `specs: {weight, color}`). */
function objectFromLabels(schema: JsonSchema, ctx: FillContext, depth: number): Record<string, unknown> | null {
  const out = Object.fromEntries(
    propertiesOf(schema).map(([name, sub]) => {
      const kind = kindOf(resolveSchema(sub, ctx.root));
      let value = kind === 'object' ? null : fillValue(sub, labelledValues(name, ctx), ctx, depth + 1, splitHint(name));
      const unit = value === null ? unitLookup(name, sub, ctx) : null;
      if (unit) value = fillValue(sub, labelledAmounts(unit, ctx), ctx, depth + 1);
      return [name, value];
    }),
  );
  return isEmptyObject(out) ? null : out;
}

/** Properties that name a table's row (the row header's column: "Plan", "Room"). */
const ROW_NAME_KEYS = new Set(['name', 'title', 'type', 'label']);

/**
 * The column of a record table stating each property of the item schema: a header naming it (like a label); for
 * a unit-suffixed number, a header naming or containing it without the unit ("SSD storage" for storage_gb);
 * a header containing the name's last word, when only one does ("Price / month" for monthly_price); and for a
 * name/title/type, the column headed by the list's own noun ("Plan" for plans[].name), else the first column
 * when no other property claims it.
 */
function tableColumns(
  table: RecordTable,
  items: JsonSchema,
  arrayName: string,
  ctx: FillContext,
): Array<{ name: string; sub: JsonSchema; column: number; unit: UnitName | null }> {
  const used = new Set<number>();
  const columns = propertiesOf(items).map(([name, sub]) => {
    const keys = labelKeys(name);
    const column = table.keys.findIndex((k) => keys.has(k));
    if (column >= 0) used.add(column);
    return { name, sub, column, unit: null as UnitName | null };
  });
  const unique = (test: (i: number) => boolean): number => {
    const hits = table.headers.map((_, i) => i).filter((i) => !used.has(i) && test(i));
    return hits.length === 1 ? (hits[0] as number) : -1;
  };
  for (const c of columns) {
    if (c.column >= 0) continue;
    const unit = unitLookup(c.name, c.sub, ctx);
    if (unit) {
      const keys = labelKeys(unit.base);
      const phrases = labelPhrases(unit.base);
      c.column = unique((i) => keys.has(table.keys[i] as string) || labelContains(table.headers[i] as string, phrases));
      c.unit = unit;
    } else {
      const words = labelWords(c.name);
      const last = words[words.length - 1];
      if (words.length > 1 && last) c.column = unique((i) => labelContains(table.headers[i] as string, [[last]]));
    }
    if (c.column >= 0) used.add(c.column);
  }
  const listNouns = new Set(nameVariants(arrayName).flatMap((k) => (k.endsWith('s') ? [k, k.slice(0, -1)] : [k])));
  for (const c of columns) {
    if (c.column >= 0 || !ROW_NAME_KEYS.has(normalizeKey(c.name))) continue;
    c.column = unique((i) => listNouns.has(table.keys[i] as string));
    if (c.column < 0 && c.name !== 'type' && !used.has(0)) c.column = 0;
    if (c.column >= 0) used.add(c.column);
  }
  return columns;
}

/** A record table's rows as objects of the item schema (columns as tableColumns finds them). */
function objectsFromTable(
  table: RecordTable,
  items: JsonSchema,
  arrayName: string,
  ctx: FillContext,
  depth: number,
): unknown[] {
  const columns = tableColumns(table, items, arrayName, ctx);
  if (!columns.some((c) => c.column >= 0)) return [];
  const out: unknown[] = [];
  for (const row of table.rows) {
    if (out.length >= RULE_LIMITS.maxArrayItems) break;
    const obj: Record<string, unknown> = Object.fromEntries(
      columns.map(({ name, sub, column, unit }) => {
        const cell = column >= 0 ? row[column] : undefined;
        if (!cell) return [name, null];
        const values = unit ? inUnit([cell], unit, ctx) : [cell];
        return [name, fillValue(sub, values, ctx, depth + 1, splitHint(name))];
      }),
    );
    if (!isEmptyObject(obj)) out.push(obj);
  }
  return out;
}

/** How many of the item schema's properties the first elements of a list state (the best of three). */
function listScore(elements: unknown[]): number {
  let best = 0;
  for (const e of elements.slice(0, 3)) {
    if (typeof e !== 'object' || e === null) continue;
    best = Math.max(best, Object.values(e).filter((v) => v !== null).length);
  }
  return best;
}

/** An array of objects from the page's repeated structures and record tables: the list that fits best. */
function arrayFromRepeated(name: string, schema: JsonSchema, ctx: FillContext, depth: number): unknown {
  const items = resolveSchema(itemsOf(schema), ctx.root);
  const wantsBreadcrumbs = normalizeKey(name).includes('breadcrumb');
  const best: { list: unknown[] | null; score: number } = { list: null, score: 0 };
  const consider = (list: unknown[]): void => {
    const score = listScore(list);
    if (score > best.score) {
      best.list = list;
      best.score = score;
    }
  };
  for (const list of listsOf(ctx)) {
    if ((list.type === 'BreadcrumbList') !== wantsBreadcrumbs) continue;
    const filled = fillValue(schema, list.elements, ctx, depth);
    if (Array.isArray(filled)) consider(filled);
  }
  for (const table of ctx.content.tables) consider(objectsFromTable(table, items, name, ctx, depth));
  const chosen = best.list;
  if (!chosen) return null;
  const max = maxItemsOf(schema);
  return max !== undefined ? chosen.slice(0, max) : chosen;
}

/**
 * An array of objects from the lists nested in the main entity (a Restaurant's menu sections' items): the things
 * stated under one property anywhere in the entity, four levels down at most, form one list; the list filling
 * most properties (two at least) wins. A property an element lacks that names its container's type ('section'
 * for a MenuSection's item) is the container's name.
 */
function nestedList(schema: JsonSchema, main: FactItem, ctx: FillContext): unknown[] | null {
  const items = resolveSchema(itemsOf(schema), ctx.root);
  const groups = new Map<string, Array<{ element: FactItem; parent: FactItem }>>();
  const seen = new Set<FactItem>([main]);
  let level: FactItem[] = [main];
  for (let depth = 0; depth < 4 && level.length; depth++) {
    const next: FactItem[] = [];
    for (const parent of level) {
      for (const [key, values] of parent.props) {
        for (const v of expandLists(values.slice(0, RULE_LIMITS.maxArrayItems), ctx.byId)) {
          if (!isItem(v) || seen.has(v) || seen.size >= RULE_LIMITS.maxItems) continue;
          seen.add(v);
          next.push(v);
          const group = groups.get(key) ?? [];
          group.push({ element: v, parent });
          groups.set(key, group);
        }
      }
    }
    level = next;
  }
  let best: unknown[] | null = null;
  let bestScore = 1;
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const filled: unknown[] = [];
    for (const { element, parent } of group.slice(0, RULE_LIMITS.maxArrayItems)) {
      const obj = fillObject(items, element, ctx, 2);
      const parentWords = typeWords(parent);
      for (const [prop, sub] of propertiesOf(items)) {
        if (obj[prop] !== null || parent === main || !parentWords.has(normalizeKey(prop))) continue;
        obj[prop] = fillValue(sub, parent.props.get('name') ?? [], ctx, 2);
      }
      if (!isEmptyObject(obj)) filled.push(obj);
    }
    const score = listScore(filled);
    if (score > bestScore) {
      best = filled;
      bestScore = score;
    }
  }
  const max = maxItemsOf(schema);
  return best && max !== undefined ? best.slice(0, max) : best;
}

function isArrayOfObjects(schema: JsonSchema, ctx: FillContext): boolean {
  return kindOf(schema) === 'array' && kindOf(resolveSchema(itemsOf(schema), ctx.root)) === 'object';
}

/** Names of objects that group the main thing's own facts rather than naming another thing. */
const GROUPING = new Set(
  [
    'specs',
    'specifications',
    'spec',
    'technical specs',
    'tech specs',
    'attributes',
    'features',
    'details',
    'properties',
    'characteristics',
    'dimensions',
    'measurements',
    'product details',
    'key facts',
    'facts',
    'info',
    'information',
    'original post',
    'first post',
    'main post',
    'op',
  ].map(normalizeKey),
);

/** One property of the root object, from every source in order of trust. */
function fillRootProperty(name: string, schema: JsonSchema, entities: FactItem[], ctx: FillContext): unknown {
  // A name in the client's own language ('prezzo', 'data_parution') is read as its English forms when it finds
  // nothing as written (name-translations.ts).
  // What the page states for machines under any of the forms comes before visible labels under the first.
  const asked = formsOf(name, schema, ctx);
  for (const form of asked) {
    const v = asTimeOfDay(form, schema, statedRootValue(form, schema, entities, ctx), ctx);
    if (v !== null) return v;
  }
  for (const form of asked) {
    const v = asTimeOfDay(form, schema, visibleValue(form, schema, ctx), ctx);
    if (v !== null) return v;
  }
  return null;
}

/** A root property's value from what the page states for machines: the entity, its things, meta tags. */
function statedRootValue(name: string, schema: JsonSchema, entities: FactItem[], ctx: FillContext): unknown {
  const s = resolveSchema(schema, ctx.root);
  const kind = kindOf(s);
  const hint = splitHint(name);
  if (groupsOf(name).some((g) => g.group.metaFirst)) {
    for (const value of metaValues(name, ctx)) {
      const fromMeta = fillValue(s, [value], ctx, 1, hint);
      if (fromMeta !== null) return fromMeta;
    }
  }
  for (const entity of entities) {
    const v = itemValue(entity, name, s, ctx, 1);
    if (v !== null) return v;
  }
  if (kind === 'object') {
    const typed = fillValue(s, itemsOfNamedType(name, ctx), ctx, 1);
    if (typed !== null) return typed;
    // An object that only groups the thing's own facts ('specs', 'details', 'dimensions', 'original_post') is
    // filled from the main entity itself.
    const main = entities[0];
    if (main && GROUPING.has(normalizeKey(name))) {
      const own = fillObject(s, main, ctx, 1);
      if (!isEmptyObject(own)) return own;
    }
    return null;
  }
  if (groupsOf(name).some((g) => g.group.listing)) {
    const listing = fillValue(s, listingName(entities, ctx), ctx, 1);
    if (listing !== null) return listing;
  }
  if (isArrayOfObjects(s, ctx)) {
    // Another top-level thing of another type may hold the list (a FAQPage's questions beside a Restaurant);
    // things of the main entity's type are related ones (another product's reviews) and are not read.
    const mainTypes = entities[0]?.types ?? [];
    for (const other of candidateEntities(ctx.page)) {
      if (entities.includes(other) || other.types.some((t) => mainTypes.includes(t))) continue;
      const v = fillValue(s, entityValues(other, name, ctx.byId), ctx, 1, hint);
      if (v !== null) return v;
    }
    const typed = itemsOfNamedType(name, ctx);
    // One item of the named type is not a list; several (or an ItemList of them) are.
    if (typed.length > 1) {
      const v = fillValue(s, typed, ctx, 1);
      if (v !== null) return v;
    }
    if (asksDay(resolveSchema(itemsOf(s), ctx.root))) {
      const v = fillValue(s, visibleHours(ctx), ctx, 1);
      if (v !== null) return v;
    }
    const nested = entities[0] ? nestedList(s, entities[0], ctx) : null;
    const repeated = arrayFromRepeated(name, s, ctx, 1);
    if (!nested) return repeated;
    return Array.isArray(repeated) && listScore(repeated) >= listScore(nested) ? repeated : nested;
  }
  // One meta value at a time: each is a whole statement (a keywords list is one text to split, not an element).
  for (const value of metaValues(name, ctx)) {
    const fromMeta = fillValue(s, [value], ctx, 1, hint);
    if (fromMeta !== null) return fromMeta;
  }
  const namespaced = namespacedMeta(name, ctx);
  if (namespaced.length) {
    const v = kind === 'array' ? fillValue(s, namespaced, ctx, 1) : fillValue(s, namespaced.slice(0, 1), ctx, 1);
    if (v !== null) return v;
  }
  const unit = unitLookup(name, s, ctx);
  if (unit) {
    const fromMeta = fillValue(s, inUnit(metaValues(unit.base, ctx), unit, ctx), ctx, 1);
    if (fromMeta !== null) return fromMeta;
  }
  return null;
}

/**
 * A root property's value from the visible labelled content (label/value pairs, spec tables); lists of objects are
 * read from the page's structures and tables by statedRootValue, never here.
 */
function visibleValue(name: string, schema: JsonSchema, ctx: FillContext): unknown {
  const s = resolveSchema(schema, ctx.root);
  if (kindOf(s) === 'object') return objectFromLabels(s, ctx, 1);
  if (isArrayOfObjects(s, ctx)) return null;
  const labelled = fillValue(s, labelledValues(name, ctx), ctx, 1, splitHint(name));
  const unit = unitLookup(name, s, ctx);
  return labelled ?? (unit ? fillValue(s, labelledAmounts(unit, ctx), ctx, 1) : null);
}

/** The one currency the entity's nested things state (priceCurrency, currency), or null (none, or several). */
function nestedCurrency(main: FactItem, ctx: FillContext): string | null {
  const found = new Set<string>();
  const seen = new Set<FactItem>([main]);
  let level: FactItem[] = [main];
  for (let depth = 0; depth < 5 && level.length; depth++) {
    const next: FactItem[] = [];
    for (const item of level) {
      for (const [key, values] of item.props) {
        for (const raw of values.slice(0, 100)) {
          const v = deref(raw, ctx.byId);
          if (isItem(v)) {
            if (!seen.has(v) && seen.size < RULE_LIMITS.maxItems) {
              seen.add(v);
              next.push(v);
            }
          } else if (depth > 0 && (key === 'pricecurrency' || key === 'currency') && typeof v === 'string') {
            const code = v.trim().toUpperCase();
            if (/^[A-Z]{3}$/.test(code)) found.add(code);
          }
        }
      }
    }
    level = next;
  }
  return found.size === 1 ? ([...found][0] as string) : null;
}

/** The twitter:labelN / twitter:dataN pairs of the page's meta tags, as labelled values. */
function twitterPairs(meta: ReadonlyMap<string, string>): ContentFacts['pairs'] {
  const out: ContentFacts['pairs'] = [];
  for (let n = 1; n <= 8; n++) {
    const label = meta.get(`twitter:label${n}`);
    const data = meta.get(`twitter:data${n}`);
    if (label && data) out.push({ label, key: normalizeKey(label), values: [data] });
  }
  return out;
}

export function fillSchema(
  schema: JsonSchema,
  page: PageFacts,
  content: ContentFacts,
  metadata: PageMetadata,
): Record<string, unknown> {
  const ctx: FillContext = {
    page,
    // Twitter's label/data pairs ("Reading time" / "7 min read") are labelled facts the page states for machines.
    content: { pairs: [...twitterPairs(page.meta), ...content.pairs], tables: content.tables },
    metadata,
    root: schema,
    byId: page.byId,
    decimalComma: writesDecimalComma(metadata.language),
    currencies: new Set(),
  };
  const root = resolveSchema(schema, schema);
  const props = propertiesOf(root);
  // A unit-suffixed number is stated under its name without the unit ('weight' for weight_kg).
  // A name in another language ranks by its English forms too.
  const names = props.flatMap(([name, sub]) => [unitLookup(name, sub, ctx)?.base ?? name, ...formsOf(name, sub, ctx)]);
  const { main, sameType } = rankEntities(candidateEntities(page), names, page);
  const entities = main ? [main, ...sameType] : [];
  const out = Object.fromEntries(props.map(([name, sub]) => [name, fillRootProperty(name, sub, entities, ctx)]));
  // A currency the main entity states only on its nested priced things (a menu's items, an album's releases,
  // a how-to's estimated cost), when they all state the same one.
  const nested = main ? nestedCurrency(main, ctx) : null;
  if (nested) ctx.currencies.add(nested);
  // A currency the page states nowhere as such is the one its amounts read above are written in ("€115"), when
  // they agree on one.
  if (ctx.currencies.size === 1) {
    const [code] = ctx.currencies;
    for (const [name, sub] of props) {
      if (out[name] === null && groupsOf(name).some((g) => g.group.paths.includes('offers.priceCurrency'))) {
        out[name] = fillValue(sub, [code as string], ctx, 1);
      }
    }
  }
  return out;
}
