// Matching a schema's property name to what a page states: the entity's own property of that name, then the
// synonym group's paths, then the same with a type prefix stripped ('product_price' -> 'price'). Also the meta
// keys and visible labels a name may be read from. Names compare after normalizeKey.
import { booleanWord } from './coerce.js';
import { isItem, type FactItem, type FactValue } from './facts.js';
import { localName, normalizeKey } from './keys.js';
import { RULE_LIMITS } from './limits.js';
import { structuralValues } from './structure.js';
import { SYNONYMS, TYPE_PREFIXES, type SynonymGroup } from './synonyms.js';

interface CompiledGroup {
  group: SynonymGroup;
  paths: string[][];
  labels: Set<string>;
}

const GROUPS = new Map<string, CompiledGroup>();
for (const group of SYNONYMS) {
  const compiled: CompiledGroup = {
    group,
    paths: group.paths.map((p) => p.split('.').map(normalizeKey)),
    labels: new Set([...group.names, ...(group.labels ?? [])].map(normalizeKey)),
  };
  // The first group naming a key owns it.
  for (const name of group.names) if (!GROUPS.has(normalizeKey(name))) GROUPS.set(normalizeKey(name), compiled);
}

/** The keys a property name is looked up under: itself, then without a type prefix. */
export function nameVariants(name: string): string[] {
  const key = normalizeKey(name);
  const out = [key];
  for (const prefix of TYPE_PREFIXES) {
    if (key.startsWith(prefix) && key.length > prefix.length) out.push(key.slice(prefix.length));
  }
  return out;
}

/** Kinds of LocalBusiness a schema may call a "business" (`business_name` on a Bakery). */
const BUSINESS_TYPES = new Set(
  (
    'LocalBusiness Store Restaurant Bakery CafeOrCoffeeShop BarOrPub Brewery Winery FastFoodRestaurant ' +
    'IceCreamShop FoodEstablishment LodgingBusiness Hotel Motel Hostel BedAndBreakfast Resort ' +
    'HealthAndBeautyBusiness BeautySalon HairSalon DaySpa AutomotiveBusiness AutoRepair MedicalBusiness ' +
    'Dentist Pharmacy VeterinaryCare ProfessionalService LegalService FinancialService HomeAndConstructionBusiness ' +
    'SportsActivityLocation ExerciseGym EntertainmentBusiness'
  )
    .split(' ')
    .map(normalizeKey),
);

/**
 * The name without a prefix naming the item's own type (`hotel_name` on a Hotel, `business_name` on a Bakery):
 * the schema's author named the thing by its kind. Only for items of that kind, never for other things.
 */
function typeStripped(key: string, item: FactItem): string[] {
  const out: string[] = [];
  const prefixes = new Set<string>();
  for (const type of item.types) {
    prefixes.add(normalizeKey(type));
    for (const word of type.split(/(?=[A-Z])/)) if (word.length > 2) prefixes.add(normalizeKey(word));
    if (BUSINESS_TYPES.has(normalizeKey(type))) prefixes.add('business');
  }
  for (const p of prefixes) {
    if (key.length > p.length && key.startsWith(p) && !TYPE_PREFIXES.includes(p)) out.push(key.slice(p.length));
  }
  return out;
}

export function synonymGroup(key: string): CompiledGroup | undefined {
  return GROUPS.get(key);
}

/** An item that only references another (`{"@id": ...}`) stands for the item of that id. */
export function deref(value: FactValue, byId: ReadonlyMap<string, FactItem>): FactValue {
  if (isItem(value) && value.props.size === 0 && value.id) return byId.get(value.id) ?? value;
  return value;
}

/** The values at a path of normalized keys, every branch followed. */
export function valuesAt(
  item: FactItem,
  path: ReadonlyArray<string>,
  byId: ReadonlyMap<string, FactItem>,
): FactValue[] {
  let current: FactValue[] = [item];
  for (const key of path) {
    const next: FactValue[] = [];
    for (const v of current) {
      const d = deref(v, byId);
      if (!isItem(d)) continue;
      for (const child of d.props.get(key) ?? []) {
        if (next.length >= RULE_LIMITS.maxValuesPerProp) break;
        next.push(deref(child, byId));
      }
    }
    current = next;
    if (!current.length) break;
  }
  return current;
}

/**
 * What an entity states for a schema property name, most specific first: the name itself (and its singular,
 * 'offers' -> 'offer'), the synonym group's paths, then both for the name without a type prefix.
 */
export function entityValues(item: FactItem, name: string, byId: ReadonlyMap<string, FactItem>): FactValue[] {
  const out: FactValue[] = [];
  const seen = new Set<FactValue>();
  const take = (values: FactValue[]): void => {
    for (const v of values) {
      if (!seen.has(v)) {
        seen.add(v);
        out.push(v);
      }
    }
  };
  const variants = nameVariants(name);
  for (const v of typeStripped(variants[0] as string, item)) if (!variants.includes(v)) variants.push(v);
  for (const key of variants) {
    take(valuesAt(item, [key], byId));
    if (key.endsWith('s') && key.length > 3) take(valuesAt(item, [key.slice(0, -1)], byId));
    const group = synonymGroup(key);
    for (const path of group?.paths ?? []) {
      const values = valuesAt(item, path, byId);
      take(group?.group.negate ? negated(values) : group?.group.member ? namedMember(values, key) : values);
    }
  }
  // Last, the same key one level down in the parts of the thing itself (an address's postalCode, an offer's
  // sku): the page states it under this very name. Not in related things (a review's author is not the
  // product's), and not for the words every nested thing has (a brand's name is not the product's name).
  if (!out.length && !SHALLOW_ONLY.has(variants[0] as string)) {
    for (const part of PARTS) {
      for (const v of (item.props.get(part) ?? []).slice(0, 20)) {
        const d = deref(v, byId);
        if (isItem(d)) take(d.props.get(variants[0] as string) ?? []);
      }
    }
  }
  // Last of all, by structure: the item's own type, counts, parts of related things, camel-case words.
  if (!out.length) take(structuralValues(item, name, (i, n) => entityValues(i, n, byId), byId));
  return out;
}

/** `true` when one of the stated members holds the name's words ('is vegan' in VeganDiet), else nothing. */
function namedMember(values: FactValue[], name: string): FactValue[] {
  const key = normalizeKey(name);
  // "is_vegan": the words after "is" (the group's names say which names reach here).
  const words = key.startsWith('is') && key.length > 4 ? key.slice(2) : key;
  const named = values.some((v) => typeof v === 'string' && normalizeKey(localName(v)).includes(words));
  return named ? [true] : [];
}

/** The opposite yes/no of stated booleans ("false" -> true, "SoldOut" -> true); anything else is dropped. */
function negated(values: FactValue[]): FactValue[] {
  const out: FactValue[] = [];
  for (const v of values) {
    if (typeof v === 'boolean') out.push(!v);
    else if (typeof v === 'string') {
      const stated = booleanWord(v);
      if (stated !== null) out.push(!stated);
    }
  }
  return out;
}

/** Properties that hold parts of the thing itself, searched one level down. */
const PARTS = [
  'address',
  'location',
  'offers',
  'geo',
  'contactpoint',
  'joblocation',
  'basesalary',
  'nutrition',
  'aggregaterating',
  // an episode's or a recording's media file (its duration, its size)
  'associatedmedia',
  'audio',
  'video',
];

/** Keys read on the entity itself only. */
const SHALLOW_ONLY = new Set(
  ['name', 'title', 'headline', 'description', 'url', 'image', 'text', 'value', 'id', 'type', 'position'].map(
    normalizeKey,
  ),
);

/** The synonym groups of a name and its prefix-stripped variants, in lookup order. */
export function groupsOf(name: string): CompiledGroup[] {
  const out: CompiledGroup[] = [];
  for (const key of nameVariants(name)) {
    const g = synonymGroup(key);
    if (g && !out.includes(g)) out.push(g);
  }
  return out;
}

/** Normalized visible labels that can state a property of this name. */
export function labelKeys(name: string): Set<string> {
  const keys = new Set(nameVariants(name));
  for (const g of groupsOf(name)) for (const l of g.labels) keys.add(l);
  return keys;
}

/** Words of a label or name: lower case, letters and digits ("Max. torque (hard)" -> max, torque, hard). */
export function labelWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** Words that make a label another value than the plain one ("Old price", "Minimum RAM", "Preis statt"). */
const QUALIFIERS = new Set(
  'old was regular list original rrp msrp uvp before previous former statt ancien alter min minimum recommended avg average per'.split(
    ' ',
  ),
);

/**
 * The word sequences a label may contain to state a property of this name (its own words and its synonym
 * group's names and labels): "Max. torque (hard)" contains "torque", "Capacité de lavage" contains "capacité".
 */
export function labelPhrases(name: string): string[][] {
  const phrases = [labelWords(name)];
  for (const g of groupsOf(name)) {
    for (const l of [...g.group.names, ...(g.group.labels ?? [])]) phrases.push(labelWords(l));
  }
  return phrases.filter((p) => p.length > 0);
}

/** Whether a label's words contain one of the phrases, with no qualifier word and at most 6 words. */
export function labelContains(label: string, phrases: ReadonlyArray<ReadonlyArray<string>>): boolean {
  const words = labelWords(label);
  if (words.length > 6 || words.some((w) => QUALIFIERS.has(w))) return false;
  return phrases.some((p) => {
    for (let i = 0; i + p.length <= words.length; i++) {
      if (p.every((w, j) => words[i + j] === w)) return true;
    }
    return false;
  });
}
