// A list element stated as text where the schema asks for objects: an ingredient line ("Spaghetti 320 g",
// "2 cups flour") for {name, quantity}, an author's name for {name, url}. docs/structured-rules.md, "Text as items".
import { normalizeKey } from './keys.js';
import { kindOf, propertiesOf, resolveSchema } from './schema-view.js';
import type { JsonSchema } from '../types.js';

/** Properties that hold the text itself, in order of preference (compared after normalizeKey). */
const TEXT_NAMES = ['name', 'title', 'text', 'label', 'item', 'ingredient', 'value', 'step', 'description'].map(
  normalizeKey,
);
/** Properties that hold the measure of an ingredient line. */
const QUANTITY_NAMES = ['quantity', 'amount', 'qty', 'measure', 'measurement'].map(normalizeKey);

/** Units a leading quantity may name ("2 cups flour", "320 g spaghetti"); a bare number also leads. */
const UNITS =
  'kg|g|mg|l|ml|cl|dl|oz|lb|lbs|cups?|tbsp|tsp|tablespoons?|teaspoons?|cloves?|pinch(?:es)?|bunch(?:es)?|cans?|slices?|pieces?|sticks?|handfuls?|sprigs?|litres?|liters?|grams?|kilograms?|ounces?|pounds?';
const NUMBER = String.raw`(?:\d+(?:[.,]\d+)?(?:\s*\/\s*\d+)?|[½¼¾⅓⅔⅛])`;
// Bounded, unnested quantifiers: linear on any line (lines are at most a few hundred characters here).
const LEADING = new RegExp(
  String.raw`^(${NUMBER}(?:\s*(?:-|–|to)\s*${NUMBER})?(?:\s*(?:${UNITS})\b\.?)?)\s+(\S.*)$`,
  'i',
);
const TRAILING = new RegExp(
  String.raw`^(\S.*?)\s+(${NUMBER}(?:\s*(?:-|–)\s*${NUMBER})?(?:\s*[\p{L}.]{1,12})?|q\.\s?b\.|to taste|qb)$`,
  'iu',
);

// Japanese recipes write the measure after the name, its unit often first ("しょうゆ 大さじ1と1/2", "厚揚げ 1枚（150g）").
const TRAILING_CJK = new RegExp(
  String.raw`^(\S.*?)[\s\u3000]+((?:大さじ|小さじ|カップ)?\s*${NUMBER}\S{0,16}|少々|適量|ひとつまみ|お好みで)$`,
  'u',
);

const MAX_LINE = 500;

/**
 * The object of `schema` a text stands for, or null when the schema has no property for text. With a quantity
 * property the line is split into the measure (leading "2 cups", or trailing "320 g", "q.b.") and the rest.
 */
export function objectFromText(schema: JsonSchema, text: string, root: JsonSchema): Record<string, unknown> | null {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line === '' || line.length > MAX_LINE) return null;
  const props = propertiesOf(schema).filter(([, s]) => kindOf(resolveSchema(s, root)) === 'string');
  const find = (names: readonly string[]) =>
    names.map((n) => props.find(([name]) => normalizeKey(name) === n)?.[0]).find((n) => n !== undefined);
  const textKey = find(TEXT_NAMES);
  if (textKey === undefined) return null;
  // Every property, null where the text says nothing (as an object filled from an item); fromEntries keeps a
  // "__proto__" property a plain key.
  const out: Record<string, unknown> = Object.fromEntries(propertiesOf(schema).map(([name]) => [name, null]));
  out[textKey] = line;
  const quantityKey = find(QUANTITY_NAMES);
  if (quantityKey !== undefined) {
    const lead = LEADING.exec(line);
    const trail = lead ? null : (TRAILING.exec(line) ?? TRAILING_CJK.exec(line));
    if (lead) {
      out[quantityKey] = lead[1];
      out[textKey] = lead[2];
    } else if (trail) {
      out[textKey] = trail[1];
      out[quantityKey] = trail[2];
    }
  }
  return out;
}
