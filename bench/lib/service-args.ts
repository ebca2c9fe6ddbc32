// The Node flags the service runs with: the ones of `npm start`, so a benchmark measures the service as users start it.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Flags between `node` and `dist/src/main.js` in package.json's start script, e.g. ['--max-old-space-size=384']. */
export function serviceNodeArgs(root: string): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const match = /\bnode((?:\s+--\S+)*)\s+dist\/src\/main\.js\b/.exec(pkg.scripts?.start ?? '');
  return match?.[1]?.trim().split(/\s+/).filter(Boolean) ?? [];
}
