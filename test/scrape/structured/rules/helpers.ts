// Fixture pages of the rules-based JSON extractor (test/fixtures/structured/).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { extractJsonByRules } from '../../../../src/scrape/structured/rules/index.js';
import type { JsonSchema } from '../../../../src/scrape/structured/types.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/structured/', import.meta.url));

export function fixture(name: string): string {
  return readFileSync(`${FIXTURES}${name}`, 'utf8');
}

/** The rules' answer for a fixture page and a schema. */
export function extract(name: string, schema: JsonSchema, url = 'https://example.com/page'): Record<string, unknown> {
  return extractJsonByRules(fixture(name), url, { schema });
}

/** An object schema from property name -> schema. */
export function objectSchema(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', properties };
}

export const STRING: JsonSchema = { type: 'string' };
export const NUMBER: JsonSchema = { type: 'number' };
export const INTEGER: JsonSchema = { type: 'integer' };
export const BOOLEAN: JsonSchema = { type: 'boolean' };
export const STRINGS: JsonSchema = { type: 'array', items: { type: 'string' } };
export const arrayOf = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'array',
  items: objectSchema(properties),
});
