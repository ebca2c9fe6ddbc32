// The HTTP layer sits above the domain: only the wiring and the capabilities' routes import src/http/,
// and the domain's errors depend on nothing else in src/ (docs/architecture.md, "Errors").
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const HTTP = join(SRC, 'http');
const DOMAIN = join(SRC, 'domain');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

// Static imports and re-exports (type-only ones too, multi-line ones included), side-effect imports, dynamic imports.
const IMPORT =
  /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The files of src/ that `file` imports, as absolute paths (package imports left out). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (spec?.startsWith('.')) out.push(resolve(dirname(file), spec));
  }
  return out;
}

const within = (path: string, dir: string) => path === dir || path.startsWith(dir + sep);
const name = (path: string) => relative(SRC, path).split(sep).join('/');

/**
 * Who may import src/http/: the wiring, each capability's HTTP routes, and src/firecrawl/, which is an HTTP adapter
 * as a whole (Firecrawl's v2 paths and shapes over the capabilities' services).
 */
function mayImportHttp(file: string): boolean {
  const path = name(file);
  return path === 'app.ts' || /^[^/]+\/routes\.ts$/.test(path) || path.startsWith('firecrawl/');
}

const FILES = sourceFiles(SRC);

it('finds the imports it checks (the wiring imports the server, a route imports auth)', () => {
  assert.ok(
    importsOf(join(SRC, 'app.ts')).some((target) => within(target, HTTP)),
    'src/app.ts -> src/http/',
  );
  assert.ok(
    importsOf(join(SRC, 'scrape/routes.ts')).some((target) => within(target, HTTP)),
    'src/scrape/routes.ts -> src/http/',
  );
  assert.ok(FILES.length > 50, `${FILES.length} files under src/`);
});

it('lets no file outside src/http/ import it but src/app.ts, src/<capability>/routes.ts and src/firecrawl/', () => {
  const offenders = FILES.filter((file) => !within(file, HTTP) && !mayImportHttp(file)).flatMap((file) =>
    importsOf(file)
      .filter((target) => within(target, HTTP))
      .map((target) => `${name(file)} imports ${name(target)}`),
  );
  assert.deepEqual(
    offenders,
    [],
    'services, schemas, stores and workers throw domain errors (src/domain/errors.ts), never HTTP ones',
  );
});

it('keeps src/domain/ free of imports from the rest of src/', () => {
  const offenders = FILES.filter((file) => within(file, DOMAIN)).flatMap((file) =>
    importsOf(file)
      .filter((target) => !within(target, DOMAIN))
      .map((target) => `${name(file)} imports ${name(target)}`),
  );
  assert.deepEqual(offenders, []);
});
