// The client's JSON Schema (json_options.schema): checked at request time (size, depth, a valid schema that
// compiles), then used to validate what a model answers. Ajv compiles it; `pattern` and `patternProperties`
// run on the service's linear-time matcher, so a crafted pattern cannot make validation backtrack.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { LinearRegex } from '../../util/linear-regex.js';
import { LruCache } from '../../util/lru.js';
import type { JsonSchema } from './types.js';

/** Bounds of one schema (docs/structured.md). */
export const SCHEMA_LIMITS = {
  /** Its JSON text. */
  maxBytes: 32 * 1024,
  /** Nesting of objects and arrays in the schema document itself. */
  maxDepth: 16,
} as const;

export interface SchemaIssue {
  /** Dotted path inside the schema document ('' for the schema as a whole). */
  path: string;
  message: string;
}

/** The `{ test }` Ajv calls for `pattern`: a match anywhere, in time linear in the input. */
const linearRegExp: RegExpEngine = Object.assign(
  (source: string, flags: string) => {
    const regex = LinearRegex.compile(source);
    // Ajv keys its cache of compiled patterns by toString(): without it every pattern would be "[object Object]"
    // and share the first one compiled (the meta-schema's own).
    return { test: (input: string) => regex.matches(input), toString: () => `/${source}/${flags}` };
  },
  // Only read by Ajv's standalone code generation, which is not used.
  { code: 'LinearRegex' },
);

function newAjv(): Ajv2020 {
  return new Ajv2020({
    allErrors: true,
    // Unknown keywords and formats are annotations here: clients send schemas written for other tools.
    strict: false,
    validateFormats: false,
    // No remote $ref is ever fetched: Ajv has no loader unless given one, so such a schema fails to compile.
    code: { regExp: linearRegExp },
  });
}

const ajv = newAjv();

function depthOf(value: unknown, limit: number): number {
  // Iterative, so a deeply nested document cannot overflow the stack before the limit is seen.
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function pathOf(error: ErrorObject): string {
  return error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

export type SchemaCheck = { ok: true; validate: ValidateFunction } | { ok: false; issues: SchemaIssue[] };

/** Keywords that name a schema resource: Ajv registers them process-wide, so one client's would meet another's. */
const RESOURCE_KEYWORDS = new Set(['$id', '$anchor', '$dynamicAnchor', '$recursiveAnchor']);
/** Keywords whose members are names (of properties, definitions), each mapping to a schema. */
const NAMED_SCHEMAS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** `$id` and anchors below the root, with their paths (walked iteratively; the depth is already bounded). */
function nestedResources(schema: JsonSchema): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const stack: Array<[unknown, string[]]> = [];
  for (const [key, value] of Object.entries(schema)) {
    if (NAMED_SCHEMAS.has(key) && value !== null && typeof value === 'object') {
      for (const [name, sub] of Object.entries(value)) stack.push([sub, [key, name]]);
    } else if (!RESOURCE_KEYWORDS.has(key)) {
      stack.push([value, [key]]);
    }
  }
  while (stack.length > 0 && issues.length < 10) {
    const [node, path] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      node.forEach((item, i) => stack.push([item, [...path, String(i)]]));
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      if (RESOURCE_KEYWORDS.has(key)) {
        issues.push({
          path: [...path, key].join('.'),
          message: `${key} inside the schema is not supported: put shared parts in $defs and point at them with $ref '#/$defs/…'`,
        });
      } else if (NAMED_SCHEMAS.has(key) && value !== null && typeof value === 'object') {
        for (const [name, sub] of Object.entries(value)) stack.push([sub, [...path, key, name]]);
      } else {
        stack.push([value, [...path, key]]);
      }
    }
  }
  return issues;
}

/**
 * The schema as it is compiled: without the root's `$schema` (whichever draft it names, the 2020-12 rules
 * apply, and draft-07 keywords such as `definitions` still work) and `$id` (no schema is looked up by it).
 */
function compilable(schema: JsonSchema): JsonSchema {
  const copy: JsonSchema = { ...schema };
  delete copy.$schema;
  delete copy.$id;
  return copy;
}

/** Validators of recent schemas by their text: a crawl's pages and a task's runs share one compile. */
const compiled = new LruCache<string, ValidateFunction>(256);

/** Checks a client's schema; a good one's validator is kept for the next pages with the same schema. */
export function checkJsonSchema(schema: JsonSchema): SchemaCheck {
  const text = JSON.stringify(schema);
  const cached = compiled.get(text);
  if (cached) return { ok: true, validate: cached };
  if (Buffer.byteLength(text) > SCHEMA_LIMITS.maxBytes) {
    return {
      ok: false,
      issues: [{ path: '', message: `The schema may have at most ${SCHEMA_LIMITS.maxBytes} bytes` }],
    };
  }
  if (depthOf(schema, SCHEMA_LIMITS.maxDepth) > SCHEMA_LIMITS.maxDepth) {
    return {
      ok: false,
      issues: [{ path: '', message: `The schema may nest objects and arrays at most ${SCHEMA_LIMITS.maxDepth} deep` }],
    };
  }
  if (schema.type !== undefined && schema.type !== 'object') {
    return { ok: false, issues: [{ path: 'type', message: "The schema must describe an object (type 'object')" }] };
  }
  const nested = nestedResources(schema);
  if (nested.length > 0) return { ok: false, issues: nested };
  const prepared = compilable(schema);
  try {
    if (!ajv.validateSchema(prepared)) {
      const issues = (ajv.errors ?? []).map((e) => ({
        path: pathOf(e),
        message: `Not a valid JSON Schema: ${e.message}`,
      }));
      return { ok: false, issues: issues.length > 0 ? issues : [{ path: '', message: 'Not a valid JSON Schema' }] };
    }
    const validate = ajv.compile(prepared);
    compiled.set(text, validate);
    return { ok: true, validate };
  } catch (err) {
    // An unresolvable $ref, a pattern the linear matcher refuses, a bad keyword value.
    return { ok: false, issues: [{ path: '', message: `The schema does not compile: ${(err as Error).message}` }] };
  } finally {
    // Ajv keeps every schema it compiled in a process-wide map; the validator lives on without it (and in the LRU).
    ajv.removeSchema(prepared);
  }
}

/** Ajv's errors as short lines, for a repair prompt and an error message. */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 20)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`)
    .join('; ');
}

/**
 * Schemas the shared Ajv instance holds (its meta-schemas and nothing else when client schemas are released); for the
 * test that they are. Ajv's cache is private, hence the cast.
 */
export function heldSchemaCount(): number {
  return (ajv as unknown as { _cache: Map<unknown, unknown> })._cache.size;
}
