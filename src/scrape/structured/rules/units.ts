// Units: a schema property whose name ends in a unit ('weight_kg', 'ram_gb', 'cook_time_minutes', 'price_eur')
// asks for a number in that unit. The filler looks the name up without the unit ('weight') as a second try, and
// a value found that way is accepted only if its own unit is the one asked for, or converts to it by the table
// below (TB -> GB x1000, h -> min x60, lb -> kg, °F -> °C...); a value stating no unit is taken as stated; a
// value stating another kind of unit ("1 TB" for `ram_mb`... is fine, "14 hours" for `battery_wh` is not) or an
// unknown word after its number is refused (null). ISO 8601 durations (PT1H15M) and written ones ("1 hr 15 min")
// read as durations. docs/structured-rules.md prints the table; keep them in step.
import { deref, isItem, type FactItem, type FactValue } from './facts.js';
import { parseNumber } from './coerce.js';

export interface Unit {
  /** What is measured: units of one dimension convert into each other. */
  dim: string;
  /** Value in the dimension's base unit = n * factor (+ offset). */
  factor: number;
  offset?: number;
}

const u = (dim: string, factor: number, offset?: number): Unit =>
  offset === undefined ? { dim, factor } : { dim, factor, offset };

const MASS = {
  g: u('mass', 1),
  kg: u('mass', 1000),
  mg: u('mass', 0.001),
  lb: u('mass', 453.59237),
  oz: u('mass', 28.349523),
};
const LENGTH = {
  mm: u('length', 1),
  cm: u('length', 10),
  m: u('length', 1000),
  km: u('length', 1e6),
  in: u('length', 25.4),
  ft: u('length', 304.8),
  mi: u('length', 1609344),
};
const VOLUME = { ml: u('volume', 1), cl: u('volume', 10), l: u('volume', 1000) };
const TIME = { s: u('time', 1), min: u('time', 60), h: u('time', 3600), d: u('time', 86400) };
const PERIOD = { d: u('period', 1), wk: u('period', 7), mo: u('period', 30.436875), yr: u('period', 365.2425) };
const DATA = { b: u('data', 1), kb: u('data', 1e3), mb: u('data', 1e6), gb: u('data', 1e9), tb: u('data', 1e12) };
const ENERGY = { wh: u('energy', 1), kwh: u('energy', 1000) };
const POWER = { w: u('power', 1), kw: u('power', 1000) };
const FREQ = { hz: u('freq', 1), khz: u('freq', 1e3), mhz: u('freq', 1e6), ghz: u('freq', 1e9) };
const TEMP = { c: u('temp', 1), f: u('temp', 5 / 9, -160 / 9) };
const AREA = { m2: u('area', 1), km2: u('area', 1e6), ha: u('area', 1e4), ft2: u('area', 0.09290304) };

/** Unit words as written after a number (lower-cased), in several languages. */
const WRITTEN: Record<string, Unit> = {
  g: MASS.g,
  gr: MASS.g,
  gram: MASS.g,
  grams: MASS.g,
  gramm: MASS.g,
  gramos: MASS.g,
  grammes: MASS.g,
  kg: MASS.kg,
  kgs: MASS.kg,
  kilo: MASS.kg,
  kilos: MASS.kg,
  kilogram: MASS.kg,
  kilograms: MASS.kg,
  kilogramm: MASS.kg,
  mg: MASS.mg,
  milligram: MASS.mg,
  milligrams: MASS.mg,
  lb: MASS.lb,
  lbs: MASS.lb,
  pound: MASS.lb,
  pounds: MASS.lb,
  oz: MASS.oz,
  ounce: MASS.oz,
  ounces: MASS.oz,
  mm: LENGTH.mm,
  cm: LENGTH.cm,
  m: LENGTH.m,
  km: LENGTH.km,
  in: LENGTH.in,
  inch: LENGTH.in,
  inches: LENGTH.in,
  zoll: LENGTH.in,
  pouces: LENGTH.in,
  pulgadas: LENGTH.in,
  '"': LENGTH.in,
  '″': LENGTH.in,
  ft: LENGTH.ft,
  feet: LENGTH.ft,
  ml: VOLUME.ml,
  cl: VOLUME.cl,
  l: VOLUME.l,
  liter: VOLUME.l,
  liters: VOLUME.l,
  litre: VOLUME.l,
  litres: VOLUME.l,
  s: TIME.s,
  sec: TIME.s,
  secs: TIME.s,
  second: TIME.s,
  seconds: TIME.s,
  sek: TIME.s,
  sekunden: TIME.s,
  min: TIME.min,
  mins: TIME.min,
  minute: TIME.min,
  minutes: TIME.min,
  minuten: TIME.min,
  minutos: TIME.min,
  h: TIME.h,
  hr: TIME.h,
  hrs: TIME.h,
  hour: TIME.h,
  hours: TIME.h,
  std: TIME.h,
  stunde: TIME.h,
  stunden: TIME.h,
  heure: TIME.h,
  heures: TIME.h,
  hora: TIME.h,
  horas: TIME.h,
  day: PERIOD.d,
  days: PERIOD.d,
  tag: PERIOD.d,
  tage: PERIOD.d,
  jour: PERIOD.d,
  jours: PERIOD.d,
  dias: PERIOD.d,
  días: PERIOD.d,
  week: PERIOD.wk,
  weeks: PERIOD.wk,
  woche: PERIOD.wk,
  wochen: PERIOD.wk,
  semaine: PERIOD.wk,
  semaines: PERIOD.wk,
  month: PERIOD.mo,
  months: PERIOD.mo,
  monat: PERIOD.mo,
  monate: PERIOD.mo,
  mois: PERIOD.mo,
  mes: PERIOD.mo,
  meses: PERIOD.mo,
  year: PERIOD.yr,
  years: PERIOD.yr,
  yr: PERIOD.yr,
  yrs: PERIOD.yr,
  jahr: PERIOD.yr,
  jahre: PERIOD.yr,
  an: PERIOD.yr,
  ans: PERIOD.yr,
  année: PERIOD.yr,
  années: PERIOD.yr,
  año: PERIOD.yr,
  años: PERIOD.yr,
  b: DATA.b,
  kb: DATA.kb,
  mb: DATA.mb,
  gb: DATA.gb,
  tb: DATA.tb,
  wh: ENERGY.wh,
  kwh: ENERGY.kwh,
  mah: u('charge', 1),
  ah: u('charge', 1000),
  w: POWER.w,
  watt: POWER.w,
  watts: POWER.w,
  kw: POWER.kw,
  hz: FREQ.hz,
  khz: FREQ.khz,
  mhz: FREQ.mhz,
  ghz: FREQ.ghz,
  '°c': TEMP.c,
  '℃': TEMP.c,
  '°f': TEMP.f,
  '℉': TEMP.f,
  'm²': AREA.m2,
  m2: AREA.m2,
  qm: AREA.m2,
  sqm: AREA.m2,
  'km²': AREA.km2,
  km2: AREA.km2,
  ha: AREA.ha,
  'ft²': AREA.ft2,
  ft2: AREA.ft2,
  sqft: AREA.ft2,
  nm: u('torque', 1),
  rpm: u('rpm', 1),
  'tr/min': u('rpm', 1),
  'u/min': u('rpm', 1),
  db: u('db', 1),
  'db(a)': u('db', 1),
  dba: u('db', 1),
  '%': u('percent', 1),
  mp: u('megapixel', 1),
  megapixels: u('megapixel', 1),
  mpx: u('megapixel', 1),
  kcal: u('kcal', 1),
  calories: u('kcal', 1),
  calorie: u('kcal', 1),
  cal: u('kcal', 1),
  kj: u('kj', 1),
  mbps: u('mbps', 1),
  fps: u('fps', 1),
  v: u('volt', 1),
  mpa: u('pa', 1e6),
  bar: u('pa', 1e5),
  mi: LENGTH.mi,
  mile: LENGTH.mi,
  miles: LENGTH.mi,
};

/** Units a schema name may end in ('weight_kg', 'cook_time_minutes', 'temperature_rating_c', 'price_eur'). */
const SUFFIXES: Record<string, Unit> = {
  g: MASS.g,
  grams: MASS.g,
  gram: MASS.g,
  kg: MASS.kg,
  kgs: MASS.kg,
  mg: MASS.mg,
  lb: MASS.lb,
  lbs: MASS.lb,
  oz: MASS.oz,
  mm: LENGTH.mm,
  cm: LENGTH.cm,
  m: LENGTH.m,
  km: LENGTH.km,
  in: LENGTH.in,
  inch: LENGTH.in,
  inches: LENGTH.in,
  ft: LENGTH.ft,
  mi: LENGTH.mi,
  miles: LENGTH.mi,
  ml: VOLUME.ml,
  l: VOLUME.l,
  liters: VOLUME.l,
  litres: VOLUME.l,
  s: TIME.s,
  sec: TIME.s,
  secs: TIME.s,
  seconds: TIME.s,
  min: TIME.min,
  mins: TIME.min,
  minutes: TIME.min,
  h: TIME.h,
  hr: TIME.h,
  hrs: TIME.h,
  hours: TIME.h,
  days: PERIOD.d,
  weeks: PERIOD.wk,
  months: PERIOD.mo,
  years: PERIOD.yr,
  kb: DATA.kb,
  mb: DATA.mb,
  gb: DATA.gb,
  tb: DATA.tb,
  wh: ENERGY.wh,
  kwh: ENERGY.kwh,
  mah: WRITTEN['mah'] as Unit,
  w: POWER.w,
  watts: POWER.w,
  kw: POWER.kw,
  hz: FREQ.hz,
  khz: FREQ.khz,
  mhz: FREQ.mhz,
  ghz: FREQ.ghz,
  c: TEMP.c,
  celsius: TEMP.c,
  f: TEMP.f,
  fahrenheit: TEMP.f,
  m2: AREA.m2,
  sqm: AREA.m2,
  km2: AREA.km2,
  ha: AREA.ha,
  ft2: AREA.ft2,
  sqft: AREA.ft2,
  nm: WRITTEN['nm'] as Unit,
  rpm: WRITTEN['rpm'] as Unit,
  db: WRITTEN['db'] as Unit,
  percent: WRITTEN['%'] as Unit,
  pct: WRITTEN['%'] as Unit,
  mp: WRITTEN['mp'] as Unit,
  kcal: WRITTEN['kcal'] as Unit,
  eur: u('EUR', 1),
  usd: u('USD', 1),
  gbp: u('GBP', 1),
  chf: u('CHF', 1),
  jpy: u('JPY', 1),
  cad: u('CAD', 1),
  aud: u('AUD', 1),
  sek: u('SEK', 1),
  nok: u('NOK', 1),
  dkk: u('DKK', 1),
  pln: u('PLN', 1),
  inr: u('INR', 1),
};

/** Currency signs and codes a price states, by ISO code. */
const CURRENCY_SIGNS: ReadonlyArray<[string, string]> = [
  ['€', 'EUR'],
  ['£', 'GBP'],
  ['¥', 'JPY'],
  ['₹', 'INR'],
  ['CHF', 'CHF'],
  ['EUR', 'EUR'],
  ['USD', 'USD'],
  ['GBP', 'GBP'],
  ['JPY', 'JPY'],
  ['CAD', 'CAD'],
  ['AUD', 'AUD'],
  ['SEK', 'SEK'],
  ['NOK', 'NOK'],
  ['DKK', 'DKK'],
  ['PLN', 'PLN'],
  ['INR', 'INR'],
  ['$', 'USD'],
];

/** UN/CEFACT unit codes of schema.org QuantitativeValue.unitCode. */
const UNIT_CODES: Record<string, Unit> = {
  KGM: MASS.kg,
  GRM: MASS.g,
  LBR: MASS.lb,
  ONZ: MASS.oz,
  MMT: LENGTH.mm,
  CMT: LENGTH.cm,
  MTR: LENGTH.m,
  KMT: LENGTH.km,
  INH: LENGTH.in,
  FOT: LENGTH.ft,
  SMI: LENGTH.mi,
  MTK: AREA.m2,
  FTK: AREA.ft2,
  KMK: AREA.km2,
  HAR: AREA.ha,
  LTR: VOLUME.l,
  MLT: VOLUME.ml,
  SEC: TIME.s,
  MIN: TIME.min,
  HUR: TIME.h,
  DAY: PERIOD.d,
  WEE: PERIOD.wk,
  MON: PERIOD.mo,
  ANN: PERIOD.yr,
  WTT: POWER.w,
  KWT: POWER.kw,
  CEL: TEMP.c,
  FAH: TEMP.f,
  HTZ: FREQ.hz,
  GHZ: FREQ.ghz,
  '4L': DATA.mb,
  E34: DATA.gb,
  E35: DATA.tb,
};

export interface UnitName {
  /** The name without its unit ('weight' for 'weight_kg', 'cook time' for 'cook_time_in_minutes'). */
  base: string;
  unit: Unit;
}

/** The unit a schema property name ends in, if any, and the name without it. */
export function unitOfName(name: string): UnitName | null {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
  if (words.length < 2) return null;
  const unit = SUFFIXES[words[words.length - 1] as string];
  if (!unit) return null;
  let rest = words.slice(0, -1);
  if (rest.length > 1 && rest[rest.length - 1] === 'in') rest = rest.slice(0, -1);
  return { base: rest.join(' '), unit };
}

function convert(n: number, from: Unit, to: Unit): number | null {
  if (from.dim !== to.dim) return null;
  if (from === to) return n;
  const base = n * from.factor + (from.offset ?? 0);
  const out = (base - (to.offset ?? 0)) / to.factor;
  // Conversions by factors like 1/60 or 2.54 leave float noise: 12 digits are more than any page states.
  return Number(out.toPrecision(12));
}

const ISO_DURATION =
  /^P(?:(\d+(?:[.,]\d+)?)D)?(?:T(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/i;

/**
 * Seconds of an ISO 8601 duration (days and below), or null. Some sites leave out the T ("P00H03M41S"): read that
 * too when it has hours or seconds, never when M could be ISO's months ("P3M").
 */
export function isoDurationSeconds(text: string): number | null {
  let t = text.trim();
  if (t.length > 40) return null;
  if (/^P\d/i.test(t) && !/T/i.test(t) && /\d[HS]/i.test(t)) t = t.replace(/^P((?:\d+(?:[.,]\d+)?D)?)/i, 'P$1T');
  const m = ISO_DURATION.exec(t);
  if (!m || t.length < 3) return null;
  const n = (s: string | undefined): number => (s ? Number(s.replace(',', '.')) : 0);
  return n(m[1]) * 86400 + n(m[2]) * 3600 + n(m[3]) * 60 + n(m[4]);
}

/** A number followed by a unit word: one step of the linear scan below. */
const AMOUNT = /(\d+(?:[.,]\d+)?)\s*([a-zäéíñ]+)/giy;

/** Seconds of a written duration: consecutive "number unit" pairs of time units ("1 hr 15 mins", "1h 30min"). */
function writtenDurationSeconds(text: string): number | null {
  const t = text.slice(0, 100);
  const start = t.search(/\d/);
  if (start < 0) return null;
  let total = 0;
  let found = false;
  let at = start;
  while (at < t.length) {
    AMOUNT.lastIndex = at;
    const m = AMOUNT.exec(t);
    if (!m) break;
    const unit = WRITTEN[(m[2] as string).toLowerCase()];
    if (!unit || unit.dim !== 'time') break;
    total += Number((m[1] as string).replace(',', '.')) * unit.factor;
    found = true;
    at = AMOUNT.lastIndex;
    while (at < t.length && /[\s,+&]/.test(t[at] as string)) at++;
    if (t.startsWith('and ', at)) at += 4;
  }
  return found ? total : null;
}

/** The unit written right after a number (letters, %, °C, ", tr/min), lower-cased; '' if none. */
function unitAfter(rest: string): string {
  const m = /^\s?(°\s?[cf]|["″%℃℉]|[a-zµäéíñ]+[²2]?(?:\/[a-z]+|\([a-z]\))?)/i.exec(rest.slice(0, 30));
  return m ? (m[1] as string).replace(/\s/g, '').toLowerCase() : '';
}

/** The first number of a text and where it ends. */
const NUMBER = /[-+\u2212]?\d[\d.,'\u00a0\u202f ]*/;

/** A stated amount in the unit asked for, or null if it states an incompatible or unknown unit. */
export function amountIn(
  value: FactValue,
  unit: Unit,
  byId: ReadonlyMap<string, FactItem>,
  decimalComma: boolean,
  hops = 0,
): number | null {
  const v = deref(value, byId);
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return null;
  if (isItem(v)) return hops < 2 ? itemAmount(v, unit, byId, decimalComma, hops) : null;
  const text = v.trim();
  if (unit.dim === 'time' || unit.dim === 'period') {
    const iso = isoDurationSeconds(text);
    if (iso !== null) return unit.dim === 'time' ? convert(iso, TIME.s, unit) : convert(iso / 86400, PERIOD.d, unit);
    // An ISO-looking duration that could not be read: its digits are not an amount ("P00H03M" is not 0 hours).
    if (/^P\d|^PT\d/i.test(text)) return null;
  }
  if (/^[A-Z]{3}$/.test(unit.dim)) return currencyAmount(text, unit.dim, decimalComma);
  const m = NUMBER.exec(text.length > 200 ? text.slice(0, 200) : text);
  if (!m) return null;
  const n = parseNumber(m[0].replace('\u2212', '-'), decimalComma);
  if (n === null) return null;
  const word = unitAfter(text.slice(m.index + m[0].trimEnd().length));
  if (!word || !/[a-z%"″℃℉°]/.test(word)) return n;
  const stated = WRITTEN[word];
  if (!stated) return null;
  if (unit.dim === 'time' && stated.dim === 'time') {
    const seconds = writtenDurationSeconds(text.slice(m.index));
    if (seconds !== null) return convert(seconds, TIME.s, unit);
  }
  return convert(n, stated, unit);
}

/** Dollars written with their country ("CA$ 12", "A$12"). */
const DOLLARS = new Map([
  ['CA', 'CAD'],
  ['C', 'CAD'],
  ['A', 'AUD'],
  ['AU', 'AUD'],
  ['NZ', 'NZD'],
  ['HK', 'HKD'],
  ['S', 'SGD'],
  ['US', 'USD'],
]);

/**
 * The currency an amount is written in ("€115", "$12", "1.299,00 EUR", "CA$ 40"), by its sign or ISO code in its
 * first 40 characters; null when it states none (or a dollar of an unknown country).
 */
export function currencyOfAmount(text: string): string | null {
  const head = text.slice(0, 40);
  for (const [sign, iso] of CURRENCY_SIGNS) {
    const at = head.indexOf(sign);
    if (at < 0) continue;
    if (sign !== '$') return iso;
    let start = at;
    while (start > 0 && start > at - 2 && /[A-Z]/.test(head[start - 1] as string)) start--;
    return start === at ? iso : (DOLLARS.get(head.slice(start, at)) ?? null);
  }
  return null;
}

function currencyAmount(text: string, code: string, decimalComma: boolean): number | null {
  const head = text.slice(0, 40);
  for (const [sign, iso] of CURRENCY_SIGNS) {
    if (head.includes(sign)) {
      // "$" is the US dollar unless written "CA$", "C$", "A$"... for the dollar asked for.
      const otherDollar = sign === '$' && code.endsWith('D') && /(?:^|[^A-Z])[A-Z]{1,2}\$/.test(head);
      if (iso !== code && !(otherDollar && head.includes(`${code[0] as string}`))) return null;
      break;
    }
  }
  return parseNumber(text, decimalComma);
}

/** A QuantitativeValue (value + unitText/unitCode) or a MonetaryAmount (value + currency). */
function itemAmount(
  item: FactItem,
  unit: Unit,
  byId: ReadonlyMap<string, FactItem>,
  decimalComma: boolean,
  hops: number,
): number | null {
  const value = item.props.get('value')?.[0] ?? item.props.get('price')?.[0] ?? item.props.get('amount')?.[0];
  if (value === undefined) return null;
  const unitText = item.props.get('unittext')?.[0];
  const unitCode = item.props.get('unitcode')?.[0];
  const currency = item.props.get('currency')?.[0] ?? item.props.get('pricecurrency')?.[0];
  let stated: Unit | undefined;
  if (typeof unitText === 'string') stated = WRITTEN[unitText.trim().toLowerCase()];
  else if (typeof unitCode === 'string') stated = UNIT_CODES[unitCode.trim().toUpperCase()];
  else if (typeof currency === 'string') stated = u(currency.trim().toUpperCase(), 1);
  const stating = unitText !== undefined || unitCode !== undefined || currency !== undefined;
  if (stating && !stated) return null;
  const n = amountIn(value, stated ?? unit, byId, decimalComma, hops + 1);
  if (n === null) return null;
  return stated ? convert(n, stated, unit) : n;
}
