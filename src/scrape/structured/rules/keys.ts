// How property names, labels and types are compared: case, separators and vocabulary prefixes do not count, so
// `datePublished`, `date_published`, `Date published:` and `schema:datePublished` are one key.

import { memoized } from './memo.js';

const NOT_ALPHANUMERIC = /[^\p{L}\p{N}]+/gu;

/** Lower-case letters and digits only (cached: the same names and labels are compared again and again). */
export const normalizeKey: (name: string) => string = memoized((name) =>
  name.normalize('NFKC').toLowerCase().replace(NOT_ALPHANUMERIC, ''),
);

/**
 * The local name of a vocabulary term: 'https://schema.org/Product', 'schema:Product' and 'Product' are all
 * 'Product'. The last '/', '#' or ':' separates it (a trailing one is ignored).
 */
export function localName(term: string): string {
  let end = term.trimEnd().length;
  while (end > 0 && '/#:'.includes(term[end - 1] as string)) end--;
  const t = term.slice(0, end).trim();
  let cut = -1;
  for (let i = t.length - 1; i >= 0; i--) {
    const c = t[i];
    if (c === '/' || c === '#' || c === ':') {
      cut = i;
      break;
    }
  }
  return t.slice(cut + 1);
}

/** Space-separated terms of an attribute (itemtype, itemprop, typeof, property), as local names. */
export function terms(value: string | null | undefined): string[] {
  if (!value) return [];
  const out: string[] = [];
  for (const part of value.split(/\s+/)) {
    const name = part ? localName(part) : '';
    if (name) out.push(name);
  }
  return out;
}

/** 'datePublished' -> 'date_published', 'recipeIngredient' -> 'recipe_ingredient': the schema-less output's keys. */
export function snakeCase(name: string): string {
  const parts = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((p) => p !== '');
  return parts.join('_').toLowerCase();
}
