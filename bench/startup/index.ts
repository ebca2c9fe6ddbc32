// Start-up benchmark: time from spawning the service to its first 200 on /health, for `npm start`
// on an unchanged tree (the README's way) and for `node dist/src/main.js serve` directly, each on
// a fresh SQLite DATA_DIR (so migrations run every time). Prints median and worst of N rounds.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const ROUNDS = Number(args[args.indexOf('--rounds') + 1] ?? 5) || 5;

async function timeToHealth(command: string, commandArgs: string[]): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
  const startedAt = performance.now();
  const child: ChildProcess = spawn(command, commandArgs, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATA_DIR: dataDir, API_KEYS: 'bench' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  try {
    for (;;) {
      const line = out.split('\n').find((l) => l.includes('"msg":"listening"'));
      if (line) {
        const { address } = JSON.parse(line) as { address: string };
        const res = await fetch(`${address}/health`).catch(() => undefined);
        if (res?.status === 200) return performance.now() - startedAt;
      }
      if (child.exitCode !== null) throw new Error(`exited early:\n${out}`);
      if (performance.now() - startedAt > 120_000) throw new Error('no /health after 120 s');
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function summary(name: string, ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  return `${name.padEnd(36)} median ${median.toFixed(0).padStart(5)} ms   worst ${(sorted.at(-1) ?? NaN).toFixed(0).padStart(5)} ms`;
}

async function main(): Promise<void> {
  // One start first, so that a stale tree is compiled outside the measured rounds.
  await timeToHealth('npm', ['start']);
  const viaNpm: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    viaNpm.push(await timeToHealth('npm', ['start']));
    direct.push(await timeToHealth(process.execPath, ['--max-old-space-size=384', 'dist/src/main.js', 'serve']));
  }
  console.log(`start to first 200 on /health, ${ROUNDS} rounds, ${os.availableParallelism()} cores`);
  console.log(summary('npm start (unchanged tree)', viaNpm));
  console.log(summary('node dist/src/main.js serve', direct));
}

await main();
