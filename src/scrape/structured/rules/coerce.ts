// Turning stated values into the schema's types. Nothing is guessed: a value that does not read as the type
// asked for is null (the next candidate is then tried by the filler). Numbers read the first number of a text
// ("$1,299.00", "1.299,00 €", "4.5 out of 5"); a single separator followed by exactly three digits is a
// thousands separator unless the page's language writes decimal commas ("1.299" is 1299 on a German page).
import { deref, isItem, type FactItem, type FactValue } from './facts.js';
import { localName, normalizeKey } from './keys.js';

export interface CoerceContext {
  byId: ReadonlyMap<string, FactItem>;
  /** The page's language writes 1.234,56 (de, fr, es, it, ...). */
  decimalComma: boolean;
}

/** Languages whose numbers use a decimal comma (the first subtag of the page's lang). */
const DECIMAL_COMMA_LANGUAGES = new Set(
  'de fr es it pt nl ru pl cs sk sl hr sr bg uk ro hu el tr da sv nb nn no fi et lv lt id vi is ca eu gl az kk'.split(
    ' ',
  ),
);

export function writesDecimalComma(language: string | undefined): boolean {
  const primary = (language ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return DECIMAL_COMMA_LANGUAGES.has(primary);
}

/** Item properties that hold an item's number (an Offer's price, a QuantitativeValue's value...). */
const NUMBER_KEYS = ['value', 'price', 'ratingvalue', 'amount', 'minvalue', 'lowprice'];
const MAX_ITEM_HOPS = 3;

/** Items whose words are their text, not their name. */
const TEXT_FIRST_TYPES = new Set(['HowToStep', 'HowToDirection', 'HowToTip', 'Comment', 'Answer']);
const URL_FIRST_TYPES = new Set(['ImageObject', 'VideoObject', 'AudioObject', 'MediaObject']);
const ADDRESS_KEYS = ['streetaddress', 'addresslocality', 'addressregion', 'postalcode', 'addresscountry'];

/** 'https://schema.org/InStock' -> 'InStock': enumeration members are read by their names. */
function stripVocabulary(s: string): string {
  return /^https?:\/\/schema\.org\/[A-Za-z]+$/.test(s) ? localName(s) : s;
}

/** The text an item stands for: its name (or text, value, url, address...), per its type. */
export function textOf(value: FactValue, ctx: CoerceContext, hops = 0): string | null {
  const v = deref(value, ctx.byId);
  if (typeof v === 'string') return v ? stripVocabulary(v) : null;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (hops >= MAX_ITEM_HOPS) return null;
  const first = (key: string): string | null => {
    for (const child of v.props.get(key) ?? []) {
      const t = textOf(child, ctx, hops + 1);
      if (t) return t;
    }
    return null;
  };
  if (v.types.some((t) => TEXT_FIRST_TYPES.has(t))) return first('text') ?? first('name');
  if (v.types.some((t) => URL_FIRST_TYPES.has(t))) return first('url') ?? first('contenturl') ?? first('name');
  // A PropertyValue's name says what its value is ("Req ID": "BLF-2291").
  if (v.types.includes('PropertyValue')) return first('value') ?? first('name');
  if (v.types.includes('PostalAddress') || (!v.props.has('name') && ADDRESS_KEYS.some((k) => v.props.has(k)))) {
    const parts = ADDRESS_KEYS.map(first).filter((p): p is string => p !== null);
    if (parts.length) return parts.join(', ');
  }
  const named = first('name');
  if (named) return named;
  const given = [first('givenname'), first('familyname')].filter((p): p is string => p !== null);
  if (given.length) return given.join(' ');
  for (const key of ['headline', 'text', 'value', 'url', 'contenturl', 'address']) {
    const t = first(key);
    if (t) return t;
  }
  const min = first('minvalue');
  const max = first('maxvalue');
  if (min && max) return `${min}–${max}`;
  return min ?? max;
}

/** The first number written in a text, separators read as described at the top. */
export function parseNumber(text: string, decimalComma: boolean): number | null {
  // An ISO 8601 duration ("PT1H30M") is no number: reading its first digits would be wrong.
  if (/^P(?:\d|T\d)/.test(text)) return null;
  const match = /[-+]?\d[\d.,'\u00a0\u202f ]*/.exec(text.length > 200 ? text.slice(0, 200) : text);
  if (!match) return null;
  // Spaces and apostrophes group thousands only when a group of three digits follows ("1 299,00").
  const groups = match[0].trim().split(/[\s\u00a0\u202f']/);
  let token = groups[0] ?? '';
  for (const g of groups.slice(1)) {
    if (/^\d{3}(?:[.,]\d*)?$/.test(g)) token += g;
    else break;
  }
  while (token.endsWith('.') || token.endsWith(',')) token = token.slice(0, -1);
  const negative = token.startsWith('-');
  token = token.replace(/^[-+]/, '');
  const lastDot = token.lastIndexOf('.');
  const lastComma = token.lastIndexOf(',');
  let normalized: string;
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? '.' : ',';
    const thousands = decimal === '.' ? ',' : '.';
    normalized = token.split(thousands).join('').replace(decimal, '.');
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const parts = token.split(sep);
    const tail = parts[parts.length - 1] ?? '';
    const thousands =
      parts.length > 2 || (tail.length === 3 && (sep === ',' ? !decimalComma : decimalComma) && parts[0] !== '0');
    normalized = thousands ? parts.join('') : `${parts.slice(0, -1).join('')}.${tail}`;
  } else normalized = token;
  const n = Number(normalized);
  if (!Number.isFinite(n)) return null;
  return negative ? -n : n;
}

export function toNumber(value: FactValue, ctx: CoerceContext, hops = 0): number | null {
  const v = deref(value, ctx.byId);
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return null;
  if (typeof v === 'string') return parseNumber(v, ctx.decimalComma);
  if (hops >= MAX_ITEM_HOPS) return null;
  for (const key of NUMBER_KEYS) {
    for (const child of v.props.get(key) ?? []) {
      const n = toNumber(child, ctx, hops + 1);
      if (n !== null) return n;
    }
  }
  // A season, an issue, a volume is its number: the one property named '...Number' (seasonNumber).
  const numbered = [...v.props.keys()].filter((k) => k.endsWith('number') && k.length > 6);
  if (numbered.length === 1) {
    for (const child of v.props.get(numbered[0] as string) ?? []) {
      const n = toNumber(child, ctx, hops + 1);
      if (n !== null) return n;
    }
  }
  return null;
}

export function toInteger(value: FactValue, ctx: CoerceContext): number | null {
  // "1.234 reviews" is 1234 whatever the language: a count has no decimals.
  const v = deref(value, ctx.byId);
  if (typeof v === 'string' && /^\D*\d{1,3}(?:[.,\s]\d{3})+\D*$/.test(v.trim().slice(0, 100))) {
    return Number(v.replace(/\D+/g, ''));
  }
  const n = toNumber(v, ctx);
  return n === null ? null : Math.round(n);
}

const TRUE_WORDS = new Set(
  // TELECOMMUTE: schema.org's only jobLocationType, read for a `remote` property.
  [
    'true',
    'yes',
    'y',
    '1',
    'on',
    'in stock',
    'instock',
    'available',
    'limited availability',
    'online only',
    'telecommute',
    // The same in German, Dutch, Swedish, Danish, French, Spanish, Italian, Portuguese and Polish.
    'ja',
    'oui',
    'sí',
    'si',
    'sim',
    'tak',
  ].map(normalizeKey),
);
const FALSE_WORDS = new Set(
  [
    'false',
    'no',
    'n',
    '0',
    'off',
    'out of stock',
    'sold out',
    'discontinued',
    'unavailable',
    'not available',
    // The same in German, Dutch, French, Spanish, Italian, Portuguese, Swedish, Danish and Polish.
    'nein',
    'nee',
    'non',
    'não',
    'nao',
    'nej',
    'nie',
  ].map(normalizeKey),
);

export function toBoolean(value: FactValue, ctx: CoerceContext): boolean | null {
  const v = deref(value, ctx.byId);
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v === 1 ? true : v === 0 ? false : null;
  if (isItem(v)) return null;
  return booleanWord(v);
}

/** The yes/no a text states ("yes", "In stock", "https://schema.org/SoldOut"), or null. */
export function booleanWord(text: string): boolean | null {
  const key = normalizeKey(stripVocabulary(text));
  if (TRUE_WORDS.has(key)) return true;
  if (FALSE_WORDS.has(key)) return false;
  return null;
}

/**
 * What schema.org's enumeration members are called in clients' enums (after normalizeKey): an event's status without
 * its "Event" prefix, its attendance mode as in person / online / hybrid.
 */
const ENUM_ALIASES: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    'event scheduled': ['scheduled'],
    'event cancelled': ['cancelled', 'canceled'],
    'event postponed': ['postponed'],
    'event rescheduled': ['rescheduled'],
    'event moved online': ['moved online', 'online'],
    'offline event attendance mode': ['in person', 'offline', 'on site', 'onsite', 'physical'],
    'online event attendance mode': ['online', 'virtual'],
    'mixed event attendance mode': ['hybrid', 'mixed'],
    // Offers: conditions and availability as a shop's enum names them.
    'new condition': ['new', 'brand new'],
    'used condition': ['used', 'pre owned', 'second hand', 'secondhand'],
    'refurbished condition': ['refurbished', 'renewed', 'reconditioned'],
    'damaged condition': ['damaged', 'for parts'],
    'in stock': [
      'in stock',
      'available',
      'instock',
      // German, French, Spanish, Italian, Portuguese, Dutch, Polish.
      'auf lager',
      'lieferbar',
      'verfugbar',
      'verfügbar',
      'en stock',
      'disponible',
      'disponibile',
      'disponivel',
      'disponível',
      'op voorraad',
      'leverbaar',
      'dostepny',
      'dostępny',
    ],
    'out of stock': [
      'out of stock',
      'unavailable',
      'sold out',
      'ausverkauft',
      'nicht lieferbar',
      'rupture de stock',
      'agotado',
      'esaurito',
      'esgotado',
      'uitverkocht',
      'niedostepny',
      'niedostępny',
    ],
    'sold out': ['sold out', 'out of stock', 'unavailable'],
    'pre order': ['preorder', 'pre order'],
    'back order': ['backorder', 'back order'],
    'limited availability': ['limited', 'low stock'],
    'in store only': ['in store', 'in store only'],
    'online only': ['online', 'online only'],
    // Jobs (Google's employmentType words and jobLocationType).
    'full time': [
      'full time',
      'fulltime',
      'permanent',
      'vollzeit',
      'temps plein',
      'tiempo completo',
      'tempo pieno',
      'voltijd',
    ],
    'part time': ['part time', 'parttime', 'teilzeit', 'temps partiel', 'media jornada', 'tempo parziale', 'deeltijd'],
    // Credentials (educationRequirements.credentialCategory) and salary periods (unitText).
    'bachelor degree': ['bachelor', 'bachelors', 'bachelor s', 'bachelors degree', 'undergraduate'],
    'master degree': ['master', 'masters', 'master s', 'postgraduate'],
    'postgraduate degree': ['master', 'postgraduate'],
    'associate degree': ['associate', 'associates'],
    'doctoral degree': ['phd', 'doctorate', 'doctoral'],
    'high school': ['high school', 'secondary'],
    'professional certificate': ['certificate', 'certification'],
    year: [
      'year',
      'yearly',
      'annual',
      'annually',
      'per year',
      'jahr',
      'jahrlich',
      'jährlich',
      'an',
      'annee',
      'año',
      'anno',
    ],
    month: ['month', 'monthly', 'per month', 'monat', 'monatlich', 'mois', 'mes', 'mese'],
    week: ['week', 'weekly', 'per week', 'woche', 'semaine', 'semana', 'settimana'],
    day: ['day', 'daily', 'per day', 'tag', 'jour', 'dia', 'giorno'],
    hour: ['hour', 'hourly', 'per hour', 'stunde', 'heure', 'hora', 'ora'],
    contractor: ['contract', 'contractor', 'freelance'],
    temporary: ['temporary', 'temp', 'fixed term'],
    intern: ['internship', 'intern'],
    volunteer: ['volunteer'],
    telecommute: ['remote', 'telecommute', 'work from home'],
    // Book formats.
    hardcover: ['hardcover', 'hardback'],
    paperback: ['paperback', 'softcover', 'broche', 'broché', 'taschenbuch'],
    'e book': ['ebook', 'e book', 'digital', 'kindle'],
    'audiobook format': ['audiobook', 'audio'],
  }).map(([member, aliases]) => [normalizeKey(member), aliases.map(normalizeKey)]),
);

/** The enum member a value names (exactly, case-insensitively, ignoring separators, or by alias), else null. */
export function matchEnum(value: unknown, members: ReadonlyArray<unknown>): unknown {
  if (value === null || value === undefined) return null;
  for (const m of members) if (m === value) return m;
  if (typeof value === 'number') return null;
  const text = String(value);
  const lower = text.toLowerCase();
  for (const m of members) if (typeof m === 'string' && m.toLowerCase() === lower) return m;
  const key = normalizeKey(text);
  for (const m of members) if (typeof m === 'string' && key && normalizeKey(m) === key) return m;
  for (const alias of ENUM_ALIASES.get(normalizeKey(stripVocabulary(text))) ?? [])
    for (const m of members) if (typeof m === 'string' && normalizeKey(m) === alias) return m;
  return null;
}
