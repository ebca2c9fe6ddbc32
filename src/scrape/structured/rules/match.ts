// Matching a schema's property name to what a page states: the entity's own property of that name, then the
// synonym group's paths, then the same with a type prefix stripped ('product_price' -> 'price'). Also the meta
// keys and visible labels a name may be read from. Names compare after normalizeKey.
import { booleanWord } from './coerce.js';
import { deref, isItem, type FactItem, type FactValue } from './facts.js';
import { localName, normalizeKey } from './keys.js';
import { RULE_LIMITS } from './limits.js';
import { memoized } from './memo.js';
import { structuralValues } from './structure.js';
import { SYNONYMS, TYPE_PREFIXES, type SynonymGroup } from './synonyms.js';
import { VOCABULARY } from './synonyms-vocabulary.js';
import { englishNames } from './name-translations.js';

/** One step of a path: a property (normalized), and the kinds of thing it accepts when the path names them. */
export interface PathStep {
  key: string;
  /** Normalized type names (or priceType/additionalType members), and `has:<property>` as 'has' + the key. */
  types?: Set<string>;
}

interface CompiledGroup {
  group: SynonymGroup;
  paths: PathStep[][];
  labels: Set<string>;
}

/** 'priceSpecification[ListPrice|StrikethroughPrice]' -> {key: 'pricespecification', types: {listprice, ...}}. */
function compileStep(step: string): PathStep {
  const m = /^([^[]+)\[([^\]]+)\]$/.exec(step);
  if (!m) return { key: normalizeKey(step) };
  const kinds = (m[2] as string)
    .split('|')
    .map((k) => (k.startsWith('has:') ? `has:${normalizeKey(k.slice(4))}` : normalizeKey(k)));
  return { key: normalizeKey(m[1] as string), types: new Set(kinds) };
}

const GROUPS = new Map<string, CompiledGroup>();
for (const group of [...SYNONYMS, ...VOCABULARY]) {
  const compiled: CompiledGroup = {
    group,
    paths: group.paths.map((p) => p.split('.').map(compileStep)),
    labels: new Set([...group.names, ...(group.labels ?? [])].map(normalizeKey)),
  };
  // The first group naming a key owns it.
  for (const name of group.names) if (!GROUPS.has(normalizeKey(name))) GROUPS.set(normalizeKey(name), compiled);
}

/** The keys a property name is looked up under: itself, then without a type prefix. */
export function nameVariants(name: string): string[] {
  const key = normalizeKey(name);
  const out = [key];
  // 'is_paywalled', 'hasParking': the yes/no asked, without its verb.
  const words = labelWords(name);
  if (words.length > 1 && (words[0] === 'is' || words[0] === 'has')) out.push(normalizeKey(words.slice(1).join(' ')));
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

/**
 * Whether a thing is of one of the kinds a path step accepts: by its type, or by the priceType (a
 * PriceSpecification's 'https://schema.org/ListPrice') or additionalType it states.
 */
function ofKind(value: FactValue, types: ReadonlySet<string>): boolean {
  if (!isItem(value)) return false;
  if (value.types.some((t) => types.has(normalizeKey(t)))) return true;
  for (const key of value.props.keys()) if (types.has(`has:${key}`)) return true;
  for (const key of ['pricetype', 'additionaltype']) {
    for (const t of value.props.get(key) ?? []) {
      if (typeof t === 'string' && types.has(normalizeKey(localName(t)))) return true;
    }
  }
  return false;
}

/**
 * A product's offers with the one for the variant the page shows first: the offer whose sku is the product's
 * sku, or whose url is the product's url (a Shopify product lists every variant's offer and names the selected
 * variant's sku and url on the product).
 */
function selectedFirst(item: FactItem, offers: FactValue[], byId: ReadonlyMap<string, FactItem>): FactValue[] {
  if (offers.length < 2) return offers;
  const own = (key: string): string[] =>
    (item.props.get(key) ?? []).filter((v): v is string => typeof v === 'string').map((v) => v.trim());
  const skus = own('sku');
  const urls = own('url');
  if (!skus.length && !urls.length) return offers;
  const index = offers.findIndex((o) => {
    const d = deref(o, byId);
    if (!isItem(d)) return false;
    const has = (key: string, wanted: string[]): boolean =>
      (d.props.get(key) ?? []).some((v) => typeof v === 'string' && wanted.includes(v.trim()));
    return has('sku', skus) || has('url', urls);
  });
  return index > 0 ? [offers[index] as FactValue, ...offers.slice(0, index), ...offers.slice(index + 1)] : offers;
}

/** The values at a path of steps, every branch followed. */
export function valuesAt(
  item: FactItem,
  path: ReadonlyArray<PathStep>,
  byId: ReadonlyMap<string, FactItem>,
): FactValue[] {
  let current: FactValue[] = [item];
  for (const [step, { key, types }] of path.entries()) {
    // The selected variant's offer first when reading through offers (its price), not when listing them.
    const reorder = key === 'offers' && step < path.length - 1;
    const next: FactValue[] = [];
    for (const v of current) {
      const d = deref(v, byId);
      if (!isItem(d)) continue;
      const children = d.props.get(key) ?? [];
      for (const child of reorder ? selectedFirst(d, children, byId) : children) {
        if (next.length >= RULE_LIMITS.maxValuesPerProp) break;
        const c = deref(child, byId);
        if (!types || ofKind(c, types)) next.push(c);
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
export function entityValues(
  item: FactItem,
  name: string,
  byId: ReadonlyMap<string, FactItem>,
  depth = 0,
): FactValue[] {
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
  // 'video_id' on a VideoObject: the thing's own id is its identifier.
  if (variants.includes('id')) variants.push('identifier');
  // A rating's 'value' is its ratingValue, its 'count' its ratingCount: the key after the item's type word.
  for (const type of item.types) {
    for (const word of type.split(/(?=[A-Z])/)) {
      const key = `${normalizeKey(word)}${variants[0] as string}`;
      if (word.length > 2 && item.props.has(key) && !variants.includes(key)) variants.push(key);
    }
  }
  // An offer's kind ('type', 'option': a ticket type, a room option) is its name.
  if (OFFER_KIND_NAMES.has(variants[0] as string) && item.types.some((t) => OFFER_TYPES.has(t))) variants.push('name');
  for (const key of variants) {
    take(valuesAt(item, [{ key }], byId));
    if (key.endsWith('s') && key.length > 3) take(valuesAt(item, [{ key: key.slice(0, -1) }], byId));
    const group = synonymGroup(key);
    for (const path of group?.paths ?? []) {
      const values = valuesAt(item, path, byId);
      const g = group?.group;
      if (g?.interval) take(intervalParts(values, g.interval));
      else if (g?.divide) take(divided(values, g.divide));
      else take(g?.negate ? negated(values) : g?.member ? namedMember(values, key, g.member === 'exclusive') : values);
    }
  }
  if (groupsOf(name).some((g) => g.group.pick === 'lowest')) out.sort(byAmount);
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
  if (!out.length) take(socialProfiles(item, variants[0] as string, byId));
  if (!out.length) take(additionalProperties(item, name, byId));
  if (!out.length && depth === 0) take(qualifiedValues(item, name, byId));
  if (!out.length) take(amenityValues(item, name, byId));
  // A wrapper states its thing's facts on the thing: a listing's home (about), a page's main entity, an offer's
  // item, a product group's variants (each variant's value, in order), a book's editions (workExample).
  if (!out.length && depth === 0) {
    for (const key of WRAPPED) {
      for (const v of (item.props.get(key) ?? []).slice(0, RULE_LIMITS.maxArrayItems)) {
        const d = deref(v, byId);
        if (isItem(d) && d !== item) take(entityValues(d, name, byId, depth + 1));
      }
      if (out.length) return out;
    }
  }
  // Last of all, by structure: the item's own type, counts, parts of related things, camel-case words.
  if (!out.length) take(structuralValues(item, name, (i, n) => entityValues(i, n, byId, depth), byId));
  return out;
}

const OFFER_KIND_NAMES = new Set(['type', 'kind', 'option', 'label', 'category']);
const OFFER_TYPES = new Set(['Offer', 'AggregateOffer']);

/**
 * A product's additionalProperty (PropertyValue name/value pairs: "Waterdicht": "Ja") named as the schema names
 * the property, or as its English form ("Inhoud" for capacity); a value with a unitText carries it ("32 liter").
 */
function additionalProperties(item: FactItem, name: string, byId: ReadonlyMap<string, FactItem>): FactValue[] {
  const pairs = item.props.get('additionalproperty');
  if (!pairs?.length) return [];
  const wanted = new Set([...nameVariants(name), ...englishNames(name).map(normalizeKey)]);
  for (const raw of pairs.slice(0, RULE_LIMITS.maxArrayItems)) {
    const pair = deref(raw, byId);
    if (!isItem(pair)) continue;
    const label = pair.props.get('name')?.[0];
    if (typeof label !== 'string') continue;
    const keys = [normalizeKey(label), ...englishNames(label).map(normalizeKey)];
    if (!keys.some((k) => wanted.has(k))) continue;
    const value = pair.props.get('value')?.[0];
    const unit = pair.props.get('unittext')?.[0];
    if (value === undefined) continue;
    return [
      typeof unit === 'string' && (typeof value === 'string' || typeof value === 'number') ? `${value} ${unit}` : value,
    ];
  }
  return [];
}

/** The texts a thing states about itself (its name, format, size, sku...), normalized, for matching a qualifier. */
function ownText(item: FactItem, byId: ReadonlyMap<string, FactItem>): string {
  const parts: string[] = [...item.types];
  for (const [key, values] of item.props) {
    if (key === 'offers' || key === 'url' || key === 'image') continue;
    for (const v of values.slice(0, 5)) {
      const d = deref(v, byId);
      if (typeof d === 'string') parts.push(localName(d).slice(0, 200));
      else if (isItem(d))
        for (const n of (d.props.get('name') ?? []).slice(0, 1)) if (typeof n === 'string') parts.push(n);
    }
  }
  return normalizeKey(parts.join(' '));
}

/**
 * The priced things of an item a qualifier may pick among: its offers (an AggregateOffer's own offers too), its
 * variants, and its nested things that carry offers (an album's releases: the vinyl, the download).
 */
function pricedThings(item: FactItem, byId: ReadonlyMap<string, FactItem>): FactItem[] {
  const out: FactItem[] = [];
  for (const [key, values] of item.props) {
    for (const v of values.slice(0, RULE_LIMITS.maxArrayItems)) {
      const d = deref(v, byId);
      if (!isItem(d)) continue;
      if (key === 'offers') {
        const inner = (d.props.get('offers') ?? []).map((o) => deref(o, byId)).filter(isItem);
        out.push(...(inner.length ? inner : [d]));
      } else if (key === 'hasvariant' || d.props.has('offers')) out.push(d);
    }
  }
  return out;
}

/**
 * A name that is a qualifier and a known property ('vinyl_price', 'digital_price', 'price_hardcover',
 * 'vinyl_available'): that property of the one priced thing (offer, variant, release) whose own text holds the
 * qualifier's words. Two or more priced things are needed (with one, the qualifier picks nothing); the first
 * that matches is read.
 */
function qualifiedValues(item: FactItem, name: string, byId: ReadonlyMap<string, FactItem>): FactValue[] {
  const words = labelWords(name);
  if (words.length < 2 || words.length > 5) return [];
  const things = pricedThings(item, byId);
  if (things.length < 2) return [];
  // The things' texts, read once and only when a head of the name is an offer's property.
  let texts: string[] | undefined;
  for (let k = 1; k < words.length; k++) {
    for (const [qualifier, head] of [
      [words.slice(0, k), words.slice(k)],
      [words.slice(words.length - k), words.slice(0, words.length - k)],
    ] as const) {
      // Only what an offer states (its price, availability, currency, sku): a qualified name ('conference_name')
      // is not an offer's.
      const group = synonymGroup(normalizeKey(head.join(' ')));
      if (!group?.paths.some((p) => p[0]?.key === 'offers')) continue;
      const keys = qualifier.map(normalizeKey);
      texts ??= things.map((t) => ownText(t, byId));
      const read = texts;
      const picked = things.find((_, i) => keys.every((q) => (read[i] as string).includes(q)));
      if (picked) {
        const values = entityValues(picked, head.join(' '), byId, 1);
        if (values.length) return values;
      }
    }
  }
  return [];
}

/**
 * A yes/no about a place's feature ('has_pool', 'with_free_wifi', 'sauna_available'): the stated value of the first
 * amenity whose name holds the name's other words; a feature not listed says nothing.
 */
function amenityValues(item: FactItem, name: string, byId: ReadonlyMap<string, FactItem>): FactValue[] {
  const features = item.props.get('amenityfeature');
  if (!features?.length) return [];
  const all = labelWords(name);
  // Only names that ask a yes/no ('has_pool', 'with_parking', 'pool_available'): a plain 'parking' may ask a text.
  // 'free_parking' asks whether the parking is free: the amenity's name holds both words.
  const asksYesNo =
    ['has', 'is', 'with', 'offers', 'free'].includes(all[0] as string) || all[all.length - 1] === 'available';
  const words = all.filter((w) => !['has', 'is', 'with', 'offers', 'available'].includes(w));
  if (!asksYesNo || !words.length || words.length > 3) return [];
  for (const raw of features.slice(0, RULE_LIMITS.maxArrayItems)) {
    const f = deref(raw, byId);
    if (!isItem(f)) continue;
    const label = normalizeKey((f.props.get('name') ?? []).filter((n) => typeof n === 'string').join(' '));
    if (!label || !words.every((w) => label.includes(normalizeKey(w)))) continue;
    const value = f.props.get('value');
    return value?.length ? value.slice(0, 1) : [true];
  }
  return [];
}

/** Properties whose thing is what the wrapper is about (see entityValues). */
const WRAPPED = ['about', 'mainentity', 'itemoffered', 'hasvariant', 'workexample', 'containsplace'];

/** Social networks a schema names by their name ('instagram', 'facebook_url') and the hosts of their profiles. */
const SOCIAL_HOSTS: Readonly<Record<string, readonly string[]>> = {
  instagram: ['instagram.com'],
  facebook: ['facebook.com', 'fb.com'],
  twitter: ['twitter.com', 'x.com'],
  x: ['x.com', 'twitter.com'],
  linkedin: ['linkedin.com'],
  youtube: ['youtube.com', 'youtu.be'],
  tiktok: ['tiktok.com'],
  pinterest: ['pinterest.com'],
  github: ['github.com'],
  mastodon: ['mastodon.social'],
  threads: ['threads.net'],
  bluesky: ['bsky.app'],
};

/** The stated profile links (sameAs, url) on the network a name names ('instagram_url' <- instagram.com/...). */
function socialProfiles(item: FactItem, key: string, byId: ReadonlyMap<string, FactItem>): FactValue[] {
  const network = /^(.+?)(?:url|link|profile|profileurl|page|handle|account)?$/.exec(key)?.[1] ?? key;
  const hosts = SOCIAL_HOSTS[network];
  if (!hosts) return [];
  const out: FactValue[] = [];
  for (const prop of ['sameas', 'url']) {
    for (const v of (item.props.get(prop) ?? []).slice(0, 50)) {
      const d = deref(v, byId);
      if (typeof d !== 'string') continue;
      let host: string;
      try {
        host = new URL(d.trim()).hostname.toLowerCase().replace(/^www\./, '');
      } catch {
        continue;
      }
      if (hosts.some((h) => host === h || host.endsWith(`.${h}`))) out.push(d);
    }
  }
  return out;
}

/** The start or end of ISO 8601 intervals ('2015-01-01/2023-12-31'); values that are no interval are dropped. */
function intervalParts(values: FactValue[], part: 'start' | 'end'): FactValue[] {
  const out: FactValue[] = [];
  for (const v of values) {
    if (typeof v !== 'string') continue;
    const halves = v.split('/');
    if (halves.length !== 2) continue;
    const half = (part === 'start' ? halves[0] : halves[1])?.trim();
    // '..' is an open end.
    if (half && half !== '..') out.push(half);
  }
  return out;
}

/** Stated numbers divided (months as years); what is no number is dropped. */
function divided(values: FactValue[], by: number): FactValue[] {
  const out: FactValue[] = [];
  for (const v of values) {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+(?:\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
    if (Number.isFinite(n)) out.push(Math.round((n / by) * 100) / 100);
  }
  return out;
}

/** The amount a candidate states, for ordering prices ('22.00' and 22 alike); things and texts last. */
function amountOf(v: FactValue): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    // The first amount written ('118 € - 240 €' -> 118); thousands separators do not change the order much.
    const m = /\d[\d,]*(?:\.\d+)?/.exec(v);
    return m ? Number(m[0].replace(/,/g, '')) : Infinity;
  }
  return Infinity;
}

function byAmount(a: FactValue, b: FactValue): number {
  return amountOf(a) - amountOf(b);
}

/**
 * `true` when one of the stated members holds the name's words ('is vegan' in VeganDiet); when the members are
 * exclusive (one attendance mode, one return-fee policy), `false` when one is stated and none holds them;
 * otherwise nothing.
 */
function namedMember(values: FactValue[], name: string, exclusive: boolean): FactValue[] {
  const key = normalizeKey(name);
  // "is_vegan": the words after "is" (the group's names say which names reach here); "free_returns" also as
  // its singular (FreeReturn).
  const words = key.startsWith('is') && key.length > 4 ? key.slice(2) : key;
  const forms = words.endsWith('s') && words.length > 4 ? [words, words.slice(0, -1)] : [words];
  const members = values.filter((v): v is string => typeof v === 'string').map((v) => normalizeKey(localName(v)));
  if (members.some((m) => forms.some((f) => m.includes(f)))) return [true];
  return exclusive && members.length ? [false] : [];
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
function splitLabel(text: string): string[] {
  return text
    .normalize('NFKC')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

export const labelWords: (text: string) => readonly string[] = memoized(splitLabel);

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
export function labelPhrases(name: string): Array<readonly string[]> {
  const phrases: Array<readonly string[]> = [labelWords(name)];
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
