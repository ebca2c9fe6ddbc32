// Builds dist/ when it is missing or older than src/, so a benchmark measures the code as it is now.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

export function ensureBuilt(root: string, log: (message: string) => void): void {
  const main = path.join(root, 'dist/src/main.js');
  if (existsSync(main) && statSync(main).mtimeMs >= newestMtime(path.join(root, 'src'))) return;
  log('dist/ is missing or older than src/: npm run build');
  const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  // tsc still emits on type errors; other engineers' work in progress must not stop the benchmark.
  if (r.status !== 0) log(`build exited ${r.status}; continuing with what it emitted`);
  if (!existsSync(main)) throw new Error('build produced no dist/src/main.js');
}
