// Every event type the service can emit has one constructor, and every constructor a catalogue entry;
// the types nothing emits yet are the ones docs/webhooks.md names as such.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { EVENTS, NOT_YET_EMITTED } from '../../src/events/catalogue.js';

const SRC = join(import.meta.dirname, '../../src');

/** Every src/<folder>/events.ts: where event constructors live. */
function eventModules(): string[] {
  return readdirSync(SRC, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(SRC, d.name, 'events.ts'))
    .filter((file) => {
      try {
        readFileSync(file);
        return true;
      } catch {
        return false;
      }
    });
}

/** Constructor maps exported by the event modules: event type -> the module that builds it. */
async function constructors(): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const file of eventModules()) {
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const value of Object.values(module)) {
      if (typeof value !== 'object' || value === null) continue;
      for (const [type, build] of Object.entries(value)) {
        if (typeof build !== 'function') continue;
        found.set(type, [...(found.get(type) ?? []), relative(SRC, file)]);
      }
    }
  }
  return found;
}

describe('event catalogue and constructors', () => {
  it('finds the constructor modules', () => {
    assert.deepEqual(
      eventModules()
        .map((f) => relative(SRC, f))
        .sort(),
      [
        'crawl/events.ts',
        'map/events.ts',
        'monitors/events.ts',
        'scrape/events.ts',
        'search/events.ts',
        'tasks/events.ts',
        'webhooks/events.ts',
      ],
    );
  });

  it('has one constructor for every catalogued type that is emitted, and none for the others', async () => {
    const built = await constructors();
    for (const { name } of EVENTS) {
      const where = built.get(name) ?? [];
      if (NOT_YET_EMITTED.has(name))
        assert.deepEqual(where, [], `${name} is listed as not emitted yet, but has a constructor`);
      else assert.equal(where.length, 1, `${name} has ${where.length} constructors (${where.join(', ')})`);
    }
  });

  it('has a catalogue entry for every constructor', async () => {
    const catalogued = new Set<string>(EVENTS.map((e) => e.name));
    for (const [type, where] of await constructors())
      assert.ok(catalogued.has(type), `${where.join(', ')} builds ${type}, which the catalogue does not list`);
  });

  it('lists in docs/webhooks.md exactly the types nothing emits yet', () => {
    const docs = readFileSync(join(import.meta.dirname, '../../docs/webhooks.md'), 'utf8');
    const paragraph = docs.slice(docs.indexOf('Catalogued types that nothing emits yet'));
    const named = new Set([...paragraph.split('\n\n')[0]!.matchAll(/`([a-z_.]+)`/g)].map((m) => m[1]));
    assert.deepEqual([...named].sort(), [...NOT_YET_EMITTED].sort());
  });
});
