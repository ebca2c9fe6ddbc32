// The service started the README's way, `npm start`, and stopped the way a process manager stops
// it: SIGTERM to the PID it started (npm's), which must end the service itself, cleanly.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { type SiteServer, startSiteServer } from '../fixtures/site-server.js';
import { tempDir } from '../helpers/databases.js';
import { until } from '../helpers/until.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHUTDOWN_TIMEOUT_MS = 10_000;

interface NpmStart {
  npm: ChildProcess;
  exited: Promise<number | null>;
  out: () => string;
  err: () => string;
}

function npmStart(env: Record<string, string>): NpmStart {
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  npm.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  npm.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  return { npm, exited, out: () => out, err: () => err };
}

/** The service's own pid and address, from its "listening" log line. */
async function listening(run: NpmStart, timeoutMs: number): Promise<{ pid: number; address: string }> {
  return until(
    `npm start to listen:\n${run.out()}\n${run.err()}`,
    async () => {
      const line = run
        .out()
        .split('\n')
        .find((l) => l.includes('"msg":"listening"'));
      return line ? (JSON.parse(line) as { pid: number; address: string }) : undefined;
    },
    timeoutMs,
  );
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function portOpen(address: string): Promise<boolean> {
  const { hostname, port } = new URL(address);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const npmWarnings = (stderr: string): string[] =>
  stderr.split('\n').filter((l) => /^npm (warn|WARN|error|ERR)/.test(l));

describe('npm start', () => {
  it('stops the service when the npm process gets SIGTERM, after finishing in-flight work; a second start answers without compiling', async () => {
    const site: SiteServer = await startSiteServer();
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, API_KEYS: 'npm-start-key', ALLOW_LOCAL_TARGETS: 'true' };
    try {
      // The first start may compile (when src/ changed since the last build).
      const first = npmStart(env);
      const { pid, address } = await listening(first, 180_000);
      assert.notEqual(pid, first.npm.pid, 'the service runs in its own process under npm');
      const pending = fetch(`${address}/v1/scrape`, {
        method: 'POST',
        headers: { authorization: 'Bearer npm-start-key', 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${site.url}/slow?ms=1500`, max_age: 0 }),
      });
      await new Promise((r) => setTimeout(r, 500));

      first.npm.kill('SIGTERM');
      const res = await pending;
      assert.equal(res.status, 200, 'the in-flight scrape finished');
      const exitCode = await first.exited;
      await until(
        'the service process to be gone',
        async () => (processAlive(pid) ? undefined : true),
        SHUTDOWN_TIMEOUT_MS + 2_000,
      );
      assert.equal(await portOpen(address), false, 'the port is closed');
      assert.match(first.out(), /"msg":"stopped"/, 'the graceful shutdown ran');
      assert.equal(exitCode, 0, first.err());
      assert.deepEqual(npmWarnings(first.err()), []);

      const startedAt = Date.now();
      const second = npmStart(env);
      const again = await listening(second, 30_000);
      const health = await fetch(`${again.address}/health`);
      const elapsedMs = Date.now() - startedAt;
      assert.equal(health.status, 200);
      assert.ok(
        !second.err().includes('Compiling TypeScript'),
        `an unchanged tree is not compiled again:\n${second.err()}`,
      );
      assert.deepEqual(npmWarnings(second.err()), []);
      // The figure, not a timed assertion (bench/startup measures it): about a second here.
      console.log(`# second npm start answered /health after ${elapsedMs} ms`);
      second.npm.kill('SIGTERM');
      assert.equal(await second.exited, 0);
      assert.equal(processAlive(again.pid), false);
    } finally {
      await site.close();
    }
  });
});
