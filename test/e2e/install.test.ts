// A clean install: the README promises a Node.js version and an install without warnings to wonder
// about. npm's own check (`npm ci --dry-run`) on a copy of the manifest and lock file, and every
// locked package's engine range against the lowest Node.js version the manifest promises.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import semver from 'semver';
import { tempDir } from '../helpers/databases.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface LockFile {
  packages: Record<string, { engines?: { node?: string } | string[] }>;
}

describe('install', () => {
  it('npm ci prints no warnings (unknown project config, unsupported engine)', () => {
    const dir = tempDir();
    for (const file of ['package.json', 'package-lock.json', '.npmrc']) {
      if (existsSync(path.join(ROOT, file))) copyFileSync(path.join(ROOT, file), path.join(dir, file));
    }
    const result = spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(result.status, 0, result.stderr);
    const warnings = `${result.stdout}\n${result.stderr}`.split('\n').filter((l) => /^npm (warn|WARN)/.test(l));
    assert.deepEqual(warnings, []);
  });

  it('every locked package runs on the lowest Node.js version the manifest promises', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    const lowest = semver.minVersion(manifest.engines.node);
    assert.ok(lowest, manifest.engines.node);
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    assert.match(
      readme,
      new RegExp(`Node\\.js ${lowest.major}\\.${lowest.minor}\\+`),
      'the README names the same version',
    );
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as LockFile;
    const tooNew = Object.entries(lock.packages)
      .map(([name, entry]) => ({ name, range: Array.isArray(entry.engines) ? undefined : entry.engines?.node }))
      .filter((p): p is { name: string; range: string } => p.range !== undefined && !semver.satisfies(lowest, p.range))
      .map((p) => `${p.name} needs node ${p.range}`);
    assert.deepEqual(tooNew, []);
  });
});
