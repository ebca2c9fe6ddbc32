// The direction of imports between src/ folders (docs/architecture.md, "Engines and the page layer"):
// the scrape pipeline above two engines, fetch/ (plain HTTP) and browser/, which sit side by side
// above the page layer, page/, that both need.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Folders below the pipeline and what each may import from the rest of src/ (besides itself and packages). */
const ALLOWED: Record<string, readonly string[]> = {
  page: [],
  fetch: ['page', 'net', 'util'],
  browser: ['page', 'net', 'util'],
};

interface Edge {
  /** File that imports, relative to src/, e.g. 'browser/render.ts'. */
  file: string;
  /** The specifier as written. */
  specifier: string;
  /** Imported file relative to src/, e.g. 'page/content-type.js'. */
  target: string;
}

/** The folder (or root file without extension) a src/-relative path belongs to: 'scrape/extract/x.ts' -> 'scrape'. */
function moduleOf(relative: string): string {
  const [first = ''] = relative.split('/');
  return relative.includes('/') ? first : first.replace(/\.(d\.)?[cm]?[jt]s$/, '');
}

/** Every relative import of every src/ file: static, `export ... from`, `import type` and dynamic `import()`. */
function sourceImports(): Edge[] {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => /\.[cm]?ts$/.test(f));
  const edges: Edge[] = [];
  for (const file of files) {
    const relativeFile = file.split(path.sep).join('/');
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(SRC, file), 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (!specifier.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(relativeFile), specifier));
      edges.push({ file: relativeFile, specifier, target });
    }
  }
  return edges;
}

const EDGES = sourceImports();

function importsFrom(from: string, to: string): Edge[] {
  return EDGES.filter((e) => moduleOf(e.file) === from && moduleOf(e.target) === to);
}

function describeEdges(edges: Edge[]): string {
  return edges.map((e) => `${e.file} imports '${e.specifier}'`).join('\n');
}

describe('import direction between src/ folders', () => {
  it('reads the imports of src/ (static, type-only, re-exports and dynamic)', () => {
    const has = (file: string, target: string): boolean => EDGES.some((e) => e.file === file && e.target === target);
    assert.ok(has('scrape/pipeline.ts', 'browser/types.js'), 'pipeline -> browser/types');
    assert.ok(has('scrape/pipeline.ts', 'fetch/index.js'), 'pipeline -> fetch/index');
    assert.ok(has('browser/lazy-drivers.ts', 'browser/playwright-driver.js'), 'a dynamic import()');
    assert.ok(has('fetch/charset.ts', 'page/content-type.js'), 'an import type');
    assert.ok(has('fetch/index.ts', 'fetch/errors.js'), 'an export ... from');
    assert.ok(
      EDGES.every((e) => !e.target.startsWith('..')),
      describeEdges(EDGES.filter((e) => e.target.startsWith('..'))),
    );
  });

  it('src/browser imports nothing from src/scrape', () => {
    const edges = importsFrom('browser', 'scrape');
    assert.deepEqual(edges, [], describeEdges(edges));
  });

  it('the two engines, src/fetch and src/browser, do not import each other', () => {
    const edges = [...importsFrom('browser', 'fetch'), ...importsFrom('fetch', 'browser')];
    assert.deepEqual(edges, [], describeEdges(edges));
  });

  it('the engines and the page layer import only what sits below them', () => {
    const wrong = EDGES.filter((e) => {
      const from = moduleOf(e.file);
      const to = moduleOf(e.target);
      const allowed = ALLOWED[from];
      return allowed !== undefined && to !== from && !allowed.includes(to);
    });
    assert.deepEqual(
      wrong,
      [],
      `imports against the direction scrape -> fetch | browser -> page:\n${describeEdges(wrong)}`,
    );
  });

  it('the pipeline chooses between the engines, and both use the page layer', () => {
    assert.ok(importsFrom('scrape', 'fetch').length > 0);
    assert.ok(importsFrom('scrape', 'browser').length > 0);
    assert.ok(importsFrom('fetch', 'page').length > 0);
    assert.ok(importsFrom('browser', 'page').length > 0);
  });
});

/** A cycle in the folder graph, as 'a > b > a', or undefined (depth-first search from every folder). */
function folderCycle(edges: readonly Edge[]): string | undefined {
  const graph = new Map<string, Set<string>>();
  for (const e of edges) {
    const from = moduleOf(e.file);
    const to = moduleOf(e.target);
    if (from !== to) graph.set(from, (graph.get(from) ?? new Set()).add(to));
  }
  const done = new Set<string>();
  const visit = (node: string, path: string[]): string | undefined => {
    if (path.includes(node)) return [...path.slice(path.indexOf(node)), node].join(' > ');
    if (done.has(node)) return undefined;
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next, [...path, node]);
      if (cycle) return cycle;
    }
    done.add(node);
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node, []);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('folders import one another without cycles (docs/architecture.md, "The map")', () => {
  it('finds a cycle when there is one (the check is not blind)', () => {
    const edge = (file: string, target: string): Edge => ({ file, specifier: '', target });
    assert.equal(
      folderCycle([edge('keys/a.ts', 'tasks/b.js'), edge('tasks/b.ts', 'http/c.js'), edge('http/c.ts', 'keys/a.js')]),
      'keys > tasks > http > keys',
    );
    assert.equal(folderCycle([edge('keys/a.ts', 'tasks/b.js'), edge('http/c.ts', 'keys/a.js')]), undefined);
  });

  it('has none in src/', () => {
    const cycle = folderCycle(EDGES);
    assert.equal(
      cycle,
      undefined,
      `a folder cycle: ${cycle}\n${describeEdges(EDGES.filter((e) => cycle?.includes(moduleOf(e.file)) && cycle.includes(moduleOf(e.target)) && moduleOf(e.file) !== moduleOf(e.target)))}`,
    );
  });
});
