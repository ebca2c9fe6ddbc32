// Shared helpers for the extraction tests: fixture loading and the fixture-site URL of a page.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PAGES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'pages');

export function fixture(file: string): string {
  return readFileSync(join(PAGES_DIR, file), 'utf8');
}

/** The URL the local fixture site serves a page under. */
export function pageUrl(name: string): string {
  return `http://site.test/pages/${name}.html`;
}
