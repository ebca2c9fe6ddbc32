#!/usr/bin/env node
// Compiles src/ into dist/ only when something the build reads is newer than the last build, so
// that `npm start` starts in about a second instead of running tsc (12-30 s) every time. Runs at
// install (the `prepare` script, with `--at-install`) and before every start; `--force` always builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Written after a successful build; its mtime is the time the build started.
const stamp = path.join(root, 'dist', '.build-stamp');
const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function newestMtime(target) {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted or renamed file changes its directory's mtime
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function isStale() {
  if (!existsSync(path.join(root, 'dist', 'src', 'main.js'))) return true;
  const built = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return inputs.some((input) => newestMtime(path.join(root, input)) > built);
}

function typescriptCompiler() {
  try {
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}

const forced = process.argv.includes('--force');
if (forced || isStale()) {
  const tsc = typescriptCompiler();
  if (!tsc) {
    // An install without dev dependencies (npm ci --omit=dev) has no compiler: a dist/ shipped
    // with the package is used as it is; without one the service cannot start.
    // At install (--at-install) that is not an error yet: only starting without dist/ is.
    if (existsSync(path.join(root, 'dist', 'src', 'main.js')) || process.argv.includes('--at-install')) process.exit(0);
    process.stderr.write(
      'dist/ is missing and TypeScript is not installed: run `npm ci` (with dev dependencies) first.\n',
    );
    process.exit(1);
  }
  const startedAt = new Date();
  const why = forced ? 'npm run build' : existsSync(stamp) ? 'src/ changed since the last build' : 'first build';
  process.stderr.write(`Compiling TypeScript into dist/ (${why})...\n`);
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stamp, `${startedAt.toISOString()}\n`);
  // The stamp's mtime is set to when the build began: a source saved during the build is newer.
  const seconds = startedAt.getTime() / 1000;
  utimesSync(stamp, seconds, seconds);
}
