// Reading a client's JSON Schema as the filler needs it: the kind of value a (sub)schema asks for, its
// properties, its items, its enum. Local $refs ('#/$defs/...', '#/definitions/...') are followed a few hops;
// anyOf/oneOf take the first branch that is not just null; allOf merges its branches' properties.
import type { JsonSchema } from '../types.js';

export type SchemaKind = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'any';

const KINDS = new Set<string>(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
const MAX_REF_HOPS = 8;

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointer(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isSchema(node) || !Object.prototype.hasOwnProperty.call(node, part)) return undefined;
    node = node[part];
  }
  return isSchema(node) ? node : undefined;
}

/** The schema with $ref, anyOf/oneOf and allOf resolved as far as the filler cares. */
export function resolveSchema(schema: unknown, root: JsonSchema, depth = 0): JsonSchema {
  let s: JsonSchema = isSchema(schema) ? schema : {};
  for (let hop = 0; hop < MAX_REF_HOPS; hop++) {
    if (typeof s['$ref'] === 'string') {
      const target = pointer(root, s['$ref']);
      if (!target) return {};
      s = target;
      continue;
    }
    const union = Array.isArray(s['anyOf']) ? s['anyOf'] : Array.isArray(s['oneOf']) ? s['oneOf'] : null;
    if (union && s['type'] === undefined && s['properties'] === undefined) {
      const branch = union.find((b) => isSchema(b) && b['type'] !== 'null') ?? union[0];
      s = isSchema(branch) ? branch : {};
      continue;
    }
    if (Array.isArray(s['allOf']) && s['properties'] === undefined) {
      const merged: Record<string, unknown> = {};
      const out: JsonSchema = { type: 'object', properties: merged };
      for (const b of s['allOf']) {
        const r = isSchema(b) && depth < MAX_REF_HOPS ? resolveSchema(b, root, depth + 1) : {};
        if (isSchema(r['properties'])) Object.assign(merged, r['properties']);
        else if (r['type'] !== undefined && r['type'] !== 'object') return r;
      }
      return out;
    }
    break;
  }
  return s;
}

export function kindOf(s: JsonSchema): SchemaKind {
  const t = s['type'];
  if (typeof t === 'string' && KINDS.has(t)) return t as SchemaKind;
  if (Array.isArray(t)) {
    const first = t.find((x): x is string => typeof x === 'string' && x !== 'null' && KINDS.has(x));
    if (first) return first as SchemaKind;
  }
  if (isSchema(s['properties'])) return 'object';
  if (s['items'] !== undefined) return 'array';
  const members = enumOf(s);
  if (members?.length) {
    const m = members.find((x) => x !== null);
    if (typeof m === 'string') return 'string';
    if (typeof m === 'number') return Number.isInteger(m) ? 'integer' : 'number';
    if (typeof m === 'boolean') return 'boolean';
  }
  return 'any';
}

export function propertiesOf(s: JsonSchema): Array<[string, JsonSchema]> {
  const props = s['properties'];
  if (!isSchema(props)) return [];
  return Object.entries(props).map(([name, sub]) => [name, isSchema(sub) ? sub : {}]);
}

export function itemsOf(s: JsonSchema): JsonSchema {
  const items = s['items'];
  if (isSchema(items)) return items;
  const prefix = s['prefixItems'];
  if (Array.isArray(prefix) && isSchema(prefix[0])) return prefix[0];
  return {};
}

export function enumOf(s: JsonSchema): ReadonlyArray<unknown> | undefined {
  if (Array.isArray(s['enum'])) return s['enum'];
  if (s['const'] !== undefined) return [s['const']];
  return undefined;
}

/** The schema's maxItems, if a sane number. */
export function maxItemsOf(s: JsonSchema): number | undefined {
  const m = s['maxItems'];
  return typeof m === 'number' && Number.isInteger(m) && m >= 0 ? m : undefined;
}
