// Scores the rules-based JSON extractor (src/scrape/structured/rules) on a labelled set and times it.
//
//   npx tsx bench/structured/index.ts [set-dir ...] [--rounds N] [--wrong all|dev|held-out|none]
//
// Several set directories are scored as one set (pages named <set>/<page>): two blind sets of 20 pages measured
// with the same code give one figure over 40 pages.
//
// Accuracy is also printed per split: pages whose name starts with an even number are the development pages
// (rules are designed by reading their wrong fields), odd-numbered ones are held out (only their figures are
// read). `--wrong dev` lists the wrong fields of the development pages only (default: all).
//
// The set (bench/structured/set/ by default) holds <name>.html and <name>.truth.json =
// { url, kind, schema, user_prompt?, expected, in_structured_form: string[] }; in_structured_form lists the dotted
// leaf paths of `expected` (array elements as items.0.name, or the array path itself) the page also states in
// machine-readable form (JSON-LD, microdata, RDFa, meta tags).
//
// How fields are compared (a "field" is one leaf of `expected`):
// - numbers: equal within 0.5% of the expected value or 0.01, whichever is larger; a got string is wrong;
// - strings: equal after whitespace collapse, case folding and dash folding (hyphen, en/em dash and minus are
//   one character: the set's README says labels copy the page's dashes and that a scorer should fold them);
//   two ISO date-times with a time zone are equal when they name the same instant ("2025-06-13T18:00:00-06:00"
//   = "2025-06-14T00:00:00Z"); two times of day are equal when hour and minute agree ("07:30" = "7:30" =
//   "07:30:00", the README's 24-hour convention). A bare date is never equal to a date-time: a schema asking
//   "format": "date" must get YYYY-MM-DD;
// - booleans: equal;
// - null expected: correct only if got is null (or missing); an expected empty array likewise accepts null;
// - arrays of scalars: an order-insensitive set; each expected element is one field (correct when got has it),
//   and each got element that expected lacks is one more wrong field; all of them carry the array's own path;
// - arrays of objects: element by element in order (items.0.name against got.items[0].name); missing elements'
//   leaves are wrong, extra got elements count one wrong field each;
// - objects: property by property; a got null where an object was expected makes all its leaves wrong.
// A field counts as "in structured form" when its path, or a prefix of it followed by '.', is listed.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractJsonByRules } from '../../src/scrape/structured/rules/index.js';
import type { JsonRequest, JsonSchema } from '../../src/scrape/structured/types.js';

interface Truth {
  url: string;
  kind: string;
  schema?: JsonSchema;
  user_prompt?: string;
  expected: Record<string, unknown>;
  in_structured_form: string[];
}

interface Case {
  name: string;
  html: string;
  truth: Truth;
}

type Split = 'dev' | 'held-out';

/** Even-numbered pages are the development split, odd-numbered (and unnumbered) ones are held out. */
function splitOf(name: string): Split {
  const n = /^(\d+)/.exec(name.slice(name.lastIndexOf('/') + 1));
  return n && Number(n[1]) % 2 === 0 ? 'dev' : 'held-out';
}

interface FieldResult {
  path: string;
  ok: boolean;
  expected: unknown;
  got: unknown;
}

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Math.max(1, Number(args[roundsAt + 1]) || 5) : 5;
const wrongAt = args.indexOf('--wrong');
const WRONG = wrongAt >= 0 ? (args[wrongAt + 1] ?? 'all') : 'all';
const positional = args.filter(
  (a, i) => !a.startsWith('--') && args[i - 1] !== '--rounds' && args[i - 1] !== '--wrong',
);
const DEFAULT_SET = fileURLToPath(new URL('./set/', import.meta.url));
const SET_DIRS = positional.length ? positional : [DEFAULT_SET];

function loadSet(dir: string): Case[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.truth.json'))
    .sort()
    .map((file) => {
      const name = file.slice(0, -'.truth.json'.length);
      const truth = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Truth;
      return { name, truth, html: readFileSync(join(dir, `${name}.html`), 'utf8') };
    });
}

const fold = (s: string): string =>
  s
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;
const TIME_OF_DAY = /^(\d{1,2}):(\d{2})(?::00)?$/;

/** The same instant (both zoned ISO date-times) or the same time of day (both HH:MM[:00]). */
function sameTime(expected: string, got: string): boolean {
  const e = expected.trim();
  const g = got.trim();
  if (DATE_TIME.test(e) && DATE_TIME.test(g)) return Date.parse(e) === Date.parse(g);
  const te = TIME_OF_DAY.exec(e);
  const tg = TIME_OF_DAY.exec(g);
  return te !== null && tg !== null && Number(te[1]) === Number(tg[1]) && te[2] === tg[2];
}

function scalarEqual(expected: unknown, got: unknown): boolean {
  if (typeof expected === 'number') {
    return typeof got === 'number' && Math.abs(got - expected) <= Math.max(0.01, Math.abs(expected) * 0.005);
  }
  if (typeof expected === 'string') {
    return typeof got === 'string' && (fold(got) === fold(expected) || sameTime(expected, got));
  }
  return expected === got;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every leaf of `expected` as a field, compared with `got`. */
function compare(path: string, expected: unknown, got: unknown, out: FieldResult[]): void {
  const push = (p: string, ok: boolean, e: unknown, g: unknown): void =>
    void out.push({ path: p, ok, expected: e, got: g });
  if (expected === null || expected === undefined) {
    push(path, got === null || got === undefined, expected, got);
    return;
  }
  if (Array.isArray(expected)) {
    if (expected.length === 0) {
      push(path, got === null || got === undefined || (Array.isArray(got) && got.length === 0), expected, got);
      return;
    }
    const gotList = Array.isArray(got) ? got : [];
    if (expected.some((e) => typeof e === 'object' && e !== null)) {
      expected.forEach((e, i) => compare(`${path}.${i}`, e, gotList[i], out));
      for (let i = expected.length; i < gotList.length; i++) push(`${path}.${i}`, false, undefined, gotList[i]);
      return;
    }
    const used = new Set<number>();
    for (const e of expected) {
      const hit = gotList.findIndex((g, i) => !used.has(i) && scalarEqual(e, g));
      if (hit >= 0) used.add(hit);
      push(path, hit >= 0, e, hit >= 0 ? gotList[hit] : got);
    }
    gotList.forEach((g, i) => {
      if (!used.has(i)) push(path, false, undefined, g);
    });
    return;
  }
  if (isPlainObject(expected)) {
    const gotObj = isPlainObject(got) ? got : {};
    for (const [key, e] of Object.entries(expected)) compare(path ? `${path}.${key}` : key, e, gotObj[key], out);
    return;
  }
  push(path, scalarEqual(expected, got), expected, got);
}

function inStructuredForm(path: string, listed: ReadonlyArray<string>): boolean {
  return listed.some((p) => path === p || path.startsWith(`${p}.`));
}

function request(truth: Truth): JsonRequest {
  const r: JsonRequest = {};
  if (truth.schema) r.schema = truth.schema;
  if (truth.user_prompt) r.userPrompt = truth.user_prompt;
  return r;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1) + 0.5))] as number;
}

const pct = (ok: number, all: number): string => (all ? `${((100 * ok) / all).toFixed(1)}%` : 'n/a');
const show = (v: unknown): string => (v === undefined ? '(missing)' : JSON.stringify(v));

function main(): void {
  const several = SET_DIRS.length > 1;
  const cases = SET_DIRS.flatMap((dir) =>
    (existsSync(dir) ? loadSet(dir) : []).map((c) => (several ? { ...c, name: `${basename(dir)}/${c.name}` } : c)),
  );
  if (!cases.length) {
    console.log(`no *.truth.json in ${SET_DIRS.join(', ')}`);
    return;
  }
  const all: FieldResult[] = [];
  const structured: FieldResult[] = [];
  const byKind = new Map<string, FieldResult[]>();
  const wrong: Array<{ name: string; field: FieldResult; stated: boolean }> = [];
  const bySplit = new Map<Split, { all: FieldResult[]; structured: FieldResult[] }>([
    ['dev', { all: [], structured: [] }],
    ['held-out', { all: [], structured: [] }],
  ]);
  for (const c of cases) {
    const fields: FieldResult[] = [];
    let got: Record<string, unknown>;
    try {
      got = extractJsonByRules(c.html, c.truth.url, request(c.truth));
    } catch (err) {
      console.log(`${c.name}: threw ${String(err)}`);
      got = {};
    }
    compare('', c.truth.expected, got, fields);
    all.push(...fields);
    const stated = fields.filter((f) => inStructuredForm(f.path, c.truth.in_structured_form ?? []));
    structured.push(...stated);
    const split = bySplit.get(splitOf(c.name));
    split?.all.push(...fields);
    split?.structured.push(...stated);
    const kind = byKind.get(c.truth.kind) ?? [];
    kind.push(...fields);
    byKind.set(c.truth.kind, kind);
    for (const f of fields) if (!f.ok) wrong.push({ name: c.name, field: f, stated: stated.includes(f) });
  }
  const ok = (list: FieldResult[]): number => list.filter((f) => f.ok).length;

  // Timing: every page, ROUNDS times (the first round also warms the JIT).
  const samples: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    for (const c of cases) {
      const start = performance.now();
      try {
        extractJsonByRules(c.html, c.truth.url, request(c.truth));
      } catch {
        // counted above
      }
      if (round > 0) samples.push(performance.now() - start);
    }
  }
  samples.sort((a, b) => a - b);

  console.log(`structured rules benchmark: ${cases.length} pages from ${SET_DIRS.join(', ')}`);
  console.log(`fields overall:             ${ok(all)}/${all.length} = ${pct(ok(all), all.length)}`);
  console.log(
    `fields in structured form:  ${ok(structured)}/${structured.length} = ${pct(ok(structured), structured.length)}`,
  );
  for (const [name, split] of bySplit) {
    const a = split.all;
    const st = split.structured;
    console.log(
      `  ${name.padEnd(9)} overall ${ok(a)}/${a.length} = ${pct(ok(a), a.length)}, structured form ${ok(st)}/${st.length} = ${pct(ok(st), st.length)}`,
    );
  }
  console.log('per kind:');
  for (const [kind, list] of [...byKind].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(
      `  ${kind.padEnd(34)} ${String(ok(list)).padStart(4)}/${String(list.length).padEnd(4)} ${pct(ok(list), list.length)}`,
    );
  }
  console.log(
    `time per page (${ROUNDS} rounds): median ${percentile(samples, 0.5).toFixed(2)} ms, p95 ${percentile(samples, 0.95).toFixed(2)} ms`,
  );
  const listed = wrong.filter(({ name }) =>
    WRONG === 'all' ? true : WRONG === 'none' ? false : splitOf(name) === WRONG,
  );
  console.log(`wrong fields (${wrong.length}; listed: ${WRONG}, ${listed.length}; * = in structured form):`);
  for (const { name, field, stated } of listed) {
    console.log(
      `  ${stated ? '*' : ' '}${name}  ${field.path || '(root)'}: expected ${show(field.expected)}, got ${show(field.got)}`,
    );
  }
}

main();
