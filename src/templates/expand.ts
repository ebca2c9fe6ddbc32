// Turning a template and a caller's input into the request it stands for (docs/templates.md, "Rules"): variables
// checked and typed, the caller's fields over the template's field by field, `{{name}}` placeholders filled, the URLs
// held to the template's allowed domains. The result is then validated as a direct request would be.
import type { ValidationIssue } from '../domain/errors.js';
import { LinearRegex } from '../util/linear-regex.js';
import { type AllowedDomains, TEMPLATE_LIMITS, type TemplateContent, type VariableSpec } from './schema.js';
import { isRecord } from '../util/text.js';

export type VariableValue = string | number | boolean;

/** Where a template is used: the request it becomes (batch scrapes take scrape templates). */
export type TemplateUse = 'scrape' | 'crawl' | 'search' | 'batch_scrape';

/** The largest request a template may expand into (characters of its JSON), as a direct request's body limit. */
const MAX_EXPANDED_CHARS = 1024 * 1024;
/**
 * A batch scrape's: its own `urls` may fill a body of BATCH_BODY_LIMIT_BYTES (8 MiB by default) before the template's
 * options and placeholders add theirs.
 */
const MAX_EXPANDED_BATCH_CHARS = 9 * 1024 * 1024;

// `{{ name }}`: a bounded class and no nested quantifier, so matching is linear.
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}/g;
const WHOLE_PLACEHOLDER = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}$/;

/** The names of the placeholders in every string value (object keys are never filled), in order of appearance. */
export function placeholdersIn(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    for (const m of value.matchAll(PLACEHOLDER)) found.add(m[1] as string);
  } else if (Array.isArray(value)) {
    for (const item of value) placeholdersIn(item, found);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) placeholdersIn(item, found);
  }
  return found;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A value of the variable's type, or the problem with it. */
function typed(spec: VariableSpec, value: unknown): { value: VariableValue } | { problem: string } {
  switch (spec.type) {
    case 'string':
      if (typeof value !== 'string') return { problem: `Must be a string (got ${kindOf(value)})` };
      if (value.length > TEMPLATE_LIMITS.maxStringChars)
        return { problem: `At most ${TEMPLATE_LIMITS.maxStringChars} characters` };
      return { value };
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value))
        return { problem: `Must be a number (got ${kindOf(value)})` };
      return { value };
    case 'boolean':
      if (typeof value !== 'boolean') return { problem: `Must be true or false (got ${kindOf(value)})` };
      return { value };
    case 'url':
      if (typeof value !== 'string' || !isHttpUrl(value) || value.length > 8192)
        return { problem: 'Must be an absolute http:// or https:// URL' };
      return { value };
  }
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/**
 * The variables' values: the caller's, checked against the declarations, then the defaults. An undeclared name, a
 * wrong type or a required variable without a value is an issue under `variables.<name>`.
 */
export function resolveVariables(
  declared: Record<string, VariableSpec>,
  given: Record<string, unknown> | undefined,
  issues: ValidationIssue[],
): Map<string, VariableValue> {
  const values = new Map<string, VariableValue>();
  if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given))) {
    issues.push({ field: 'variables', code: 'invalid_type', message: 'Must be an object of variable values' });
    return values;
  }
  for (const [name, value] of Object.entries(given ?? {})) {
    const spec = Object.hasOwn(declared, name) ? declared[name] : undefined;
    if (!spec) {
      const names = Object.keys(declared);
      issues.push({
        field: `variables.${name}`,
        code: 'custom',
        message: `The template declares no variable '${name}'${names.length > 0 ? ` (it declares: ${names.join(', ')})` : ' (it declares none)'}`,
      });
      continue;
    }
    const checked = typed(spec, value);
    if ('problem' in checked)
      issues.push({ field: `variables.${name}`, code: 'invalid_type', message: checked.problem });
    else values.set(name, checked.value);
  }
  for (const [name, spec] of Object.entries(declared)) {
    if (values.has(name) || (given && Object.hasOwn(given, name))) continue;
    if (spec.defaultValue !== undefined) values.set(name, spec.defaultValue);
    else if (spec.required === true)
      issues.push({ field: `variables.${name}`, code: 'custom', message: `The template needs the variable '${name}'` });
  }
  return values;
}

/** The problems of a template's own declarations: defaults of the wrong type, placeholders no variable declares. */
export function declarationIssues(content: Pick<TemplateContent, 'variables' | 'req_options'>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [name, spec] of Object.entries(content.variables)) {
    if (spec.defaultValue === undefined) continue;
    const checked = typed(spec, spec.defaultValue);
    if ('problem' in checked)
      issues.push({ field: `variables.${name}.defaultValue`, code: 'invalid_type', message: checked.problem });
  }
  for (const name of placeholdersIn(content.req_options)) {
    if (!Object.hasOwn(content.variables, name))
      issues.push({
        field: 'req_options',
        code: 'custom',
        message: `The placeholder {{${name}}} names no declared variable`,
      });
  }
  return issues;
}

/** The variables of one expansion: the values given or defaulted, and every declared name. */
interface Filling {
  values: ReadonlyMap<string, VariableValue>;
  declared: ReadonlySet<string>;
}

/**
 * Fills the placeholders of one string. In a URL (`inUrl`), a placeholder that is the whole value takes the value as
 * it is (a `url` variable), and one inside it takes the value percent-encoded; elsewhere values are inserted as they
 * are. A placeholder that is the whole of a non-URL string takes the variable's own type (a number stays a number).
 * A declared variable without a value becomes '' (a whole-value placeholder, undefined: the field is dropped); a name
 * no variable declares is left as written.
 */
function fillString(text: string, filling: Filling, inUrl: boolean): unknown {
  const whole = WHOLE_PLACEHOLDER.exec(text);
  if (whole) {
    const name = whole[1] as string;
    if (!filling.declared.has(name)) return text;
    const value = filling.values.get(name);
    if (value === undefined) return undefined;
    return inUrl ? String(value) : value;
  }
  return text.replace(PLACEHOLDER, (written: string, name: string) => {
    if (!filling.declared.has(name)) return written;
    const value = filling.values.get(name);
    if (value === undefined) return '';
    return inUrl ? encodeURIComponent(wellFormed(String(value))) : String(value);
  });
}

/** The text with each unpaired surrogate replaced by U+FFFD: encodeURIComponent throws on one. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** Fills every string of a value, recursively; fields whose whole value is an unset variable are dropped. */
function fill(value: unknown, filling: Filling, urlKeys: ReadonlySet<string>, key = ''): unknown {
  if (typeof value === 'string') return fillString(value, filling, urlKeys.has(key));
  if (Array.isArray(value)) {
    return value.map((item) => fill(item, filling, urlKeys, key)).filter((item) => item !== undefined);
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const filled = fill(v, filling, urlKeys, k);
      if (filled !== undefined) out[k] = filled;
    }
    return out;
  }
  return value;
}

/**
 * The template's options, then the caller's fields over them field by field; `scrape_options` (an object on both
 * sides) is merged one level down, as a crawl merges it over its top-level page options.
 */
export function mergeOver(base: Record<string, unknown>, own: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = structuredClone(base);
  for (const [key, value] of Object.entries(own)) {
    if (value === undefined) continue;
    const under = merged[key];
    if (key === 'scrape_options' && isRecord(under) && isRecord(value)) merged[key] = { ...under, ...value };
    else merged[key] = value;
  }
  return merged;
}

/** Compiles the allowed domains once: a hostname test. Globs run on the linear-time matcher. */
export function domainMatcher(domains: AllowedDomains): (hostname: string) => boolean {
  const patterns = domains.patterns.map((p) => p.toLowerCase());
  if (domains.type === 'exact') {
    const exact = new Set(patterns.map((p) => p.replace(/\.$/, '')));
    return (hostname) => exact.has(hostname.toLowerCase().replace(/\.$/, ''));
  }
  // `*` any run of characters (dots included), `?` one character; the rest (letters, digits, '.', '-') literal.
  const sources = patterns.map(
    (p) =>
      `^${p
        .split('')
        .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c === '.' ? '\\.' : c))
        .join('')}$`,
  );
  const regex = LinearRegex.compile(sources);
  return (hostname) => regex.matches(hostname.toLowerCase().replace(/\.$/, ''));
}

/** The fields of each use that hold target URLs (filled with percent-encoding, checked against the domains). */
const URL_KEYS: Record<TemplateUse, ReadonlySet<string>> = {
  scrape: new Set(['url']),
  crawl: new Set(['url']),
  batch_scrape: new Set(['urls']),
  search: new Set(),
};

export interface Expansion {
  /** The request, without template_id and variables: to be validated as a direct one. */
  body: Record<string, unknown>;
  issues: ValidationIssue[];
}

/**
 * The request a template and the caller's own fields (`own`, without template_id and variables) stand for. Issues
 * are returned, not thrown, so that the caller can add its own.
 */
export function expandTemplate(
  content: TemplateContent,
  use: TemplateUse,
  own: Record<string, unknown>,
  variables: Record<string, unknown> | undefined,
): Expansion {
  const issues: ValidationIssue[] = [];
  const expected = use === 'batch_scrape' ? 'scrape' : use;
  if (content.template_type !== expected) {
    issues.push({
      field: 'template_id',
      code: 'custom',
      message: `The template is a ${content.template_type} template; this request takes a ${expected} template`,
    });
    return { body: {}, issues };
  }
  const values = resolveVariables(content.variables, variables, issues);
  // AnyCrawl's SDK sends `engine: "auto"` with every scrape and crawl: the service's default is no choice of the
  // caller's, so it does not replace the engine a template chose.
  const ownFields = own.engine === 'auto' && content.req_options.engine !== undefined ? withoutKey(own, 'engine') : own;
  const merged = mergeOver(
    use === 'batch_scrape' ? withoutKey(content.req_options, 'url') : content.req_options,
    ownFields,
  );
  const filling = { values, declared: new Set(Object.keys(content.variables)) };
  // Placeholders can multiply a template's 64 KB (an 8 KB value in every one of 12,000 of them): the size is bounded
  // before anything is built, from the placeholders and the values' lengths.
  const limit = use === 'batch_scrape' ? MAX_EXPANDED_BATCH_CHARS : MAX_EXPANDED_CHARS;
  const tooBig = { field: 'variables', code: 'too_big', message: `The expanded request is over ${limit / 1024} KB` };
  if (expandedSizeBound(merged, filling, limit) > limit) return { body: {}, issues: [...issues, tooBig] };
  const body = fill(merged, filling, URL_KEYS[use]) as Record<string, unknown>;
  if (JSON.stringify(body).length > limit) return { body: {}, issues: [...issues, tooBig] };
  if (content.allowed_domains) issues.push(...domainIssues(body, use, domainMatcher(content.allowed_domains)));
  return { body, issues };
}

/**
 * An upper bound of the characters of the filled request's JSON: the request as written plus, for each placeholder,
 * its value at its longest (percent-encoded in a URL, or escaped in JSON elsewhere). Each value is measured once.
 */
function expandedSizeBound(merged: Record<string, unknown>, filling: Filling, limit: number): number {
  const longest = new Map<string, number>();
  for (const [name, value] of filling.values) {
    const text = String(value);
    longest.set(name, Math.max(encodeURIComponent(wellFormed(text)).length, JSON.stringify(text).length - 2));
  }
  let total = JSON.stringify(merged).length;
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const m of value.matchAll(PLACEHOLDER)) {
        total += longest.get(m[1] as string) ?? 0;
        if (total > limit) return;
      }
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (value !== null && typeof value === 'object') {
      for (const item of Object.values(value)) visit(item);
    }
  };
  visit(merged);
  return total;
}

function withoutKey(object: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...object };
  delete copy[key];
  return copy;
}

/** The target URLs outside the allowed domains (a URL that does not parse is left to the request's validation). */
function domainIssues(body: Record<string, unknown>, use: TemplateUse, allowed: (host: string) => boolean) {
  const issues: ValidationIssue[] = [];
  const check = (value: unknown, field: string) => {
    if (typeof value !== 'string') return;
    let host: string;
    try {
      host = new URL(value).hostname;
    } catch {
      return;
    }
    if (!allowed(host))
      issues.push({ field, code: 'custom', message: `${host} is outside the template's allowed domains` });
  };
  if (use === 'scrape' || use === 'crawl') check(body.url, 'url');
  if (use === 'batch_scrape' && Array.isArray(body.urls)) body.urls.forEach((u, i) => check(u, `urls.${i}`));
  return issues;
}
