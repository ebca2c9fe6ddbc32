// The answer without a schema (json_options with a user_prompt only): the rules cannot read a prompt, so they
// return what the page states about its main thing, flattened to plain values under stable names, plus the
// page's title and description. Nothing is added that the page does not state.
import type { PageMetadata } from '../../extract/metadata.js';
import type { JsonSchema } from '../types.js';
import { textOf, writesDecimalComma, type CoerceContext } from './coerce.js';
import { candidateEntities, firstSpecificEntity } from './entities.js';
import type { ContentFacts, FactItem, PageFacts } from './facts.js';
import { snakeCase } from './keys.js';
import { fillSchema } from './fill.js';

const STRING: JsonSchema = { type: 'string' };
const NUMBER: JsonSchema = { type: 'number' };
const INTEGER: JsonSchema = { type: 'integer' };
const STRINGS: JsonSchema = { type: 'array', items: { type: 'string' } };

/** The output's fields, in order, each read through the synonym table like a schema property of that name. */
const FIELDS: ReadonlyArray<[string, JsonSchema]> = [
  ['name', STRING],
  ['description', STRING],
  ['price', NUMBER],
  ['currency', STRING],
  ['availability', STRING],
  ['brand', STRING],
  ['sku', STRING],
  ['rating', NUMBER],
  ['review_count', INTEGER],
  ['author', STRING],
  ['publisher', STRING],
  ['date_published', STRING],
  ['date_modified', STRING],
  ['start_date', STRING],
  ['end_date', STRING],
  ['location', STRING],
  ['company', STRING],
  ['salary', STRING],
  ['ingredients', STRINGS],
  ['instructions', STRINGS],
  ['image', STRING],
  ['url', STRING],
  ['keywords', STRINGS],
];

/** Other plain properties of the entity kept under their own (snake_case) names, up to this many. */
const MAX_EXTRA_FIELDS = 40;
const MAX_DETAILS = 50;

function extraFields(entity: FactItem, ctx: CoerceContext, out: Record<string, unknown>): void {
  let added = 0;
  for (const [key, values] of entity.props) {
    if (added >= MAX_EXTRA_FIELDS) break;
    const name = snakeCase(entity.names.get(key) ?? key);
    if (!name || Object.prototype.hasOwnProperty.call(out, name)) continue;
    const first = values[0];
    // Nested things (offers, ratings, authors) were read into the fields above; the rest is left out.
    if (first === undefined || typeof first === 'object') continue;
    out[name] = typeof first === 'string' ? textOf(first, ctx) : first;
    added++;
  }
}

export function flattenPage(page: PageFacts, content: ContentFacts, metadata: PageMetadata): Record<string, unknown> {
  const entity = firstSpecificEntity(candidateEntities(page));
  const ctx: CoerceContext = { byId: page.byId, decimalComma: writesDecimalComma(metadata.language) };
  const out: Record<string, unknown> = {};
  if (metadata.title) out['title'] = metadata.title;
  if (entity?.types[0]) out['type'] = entity.types[0];
  // The same filler as with a schema: the main entity first, then meta tags and visible labels.
  const schema: JsonSchema = { type: 'object', properties: Object.fromEntries(FIELDS) };
  const filled = fillSchema(schema, entity ? { ...page, items: [entity] } : { ...page, items: [] }, content, metadata);
  for (const [name, value] of Object.entries(filled)) {
    if (value !== null && !Object.prototype.hasOwnProperty.call(out, name)) out[name] = value;
  }
  // Without an entity the name would only repeat the page title.
  if (!entity && out['name'] === out['title']) delete out['name'];
  if (metadata.description && !Object.prototype.hasOwnProperty.call(out, 'description'))
    out['description'] = metadata.description;
  if (entity) extraFields(entity, ctx, out);
  if (content.pairs.length) {
    const details = new Map<string, string>();
    for (const pair of content.pairs.slice(0, MAX_DETAILS)) {
      if (!details.has(pair.label)) details.set(pair.label, pair.values.join('; '));
    }
    // fromEntries: a label such as "__proto__" becomes a plain key, not the object's prototype.
    out['details'] = Object.fromEntries(details);
  }
  return out;
}
