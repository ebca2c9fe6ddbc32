// Runs the service's command line as a real child process, for end-to-end tests.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RunningService {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Runs a CLI command to completion. */
export function runCli(
  args: string[],
  env: Record<string, string>,
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every service a test file started: one still running when the file's tests are done is killed. */
const started = new Set<ChildProcess>();
// A test that failed before it stopped its services (one start timed out, an assertion threw
// between two starts) must not leave them running: the file's process would wait on them forever.
after(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/**
 * Starts `serve` (or `api`) on a free port and resolves once it listens; a `worker` resolves once
 * its roles run, with an empty `url`. A service that does not get there is killed.
 */
export async function startService(
  env: Record<string, string>,
  role: 'serve' | 'api' | 'worker' = 'serve',
): Promise<RunningService> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, role], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    // Generous: a start is a few seconds, but on a loaded 2-core machine (test files run side by
    // side, each starting processes) loading the service was seen to take over 30 s.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`service did not start within 60 s:\n${out}\n${err}`));
    }, 60_000);
    const check = () => {
      const ready = role === 'worker' ? '"msg":"worker running"' : '"msg":"listening"';
      const line = out.split('\n').find((l) => l.includes(ready));
      if (line) {
        clearTimeout(timer);
        resolve(role === 'worker' ? '' : (JSON.parse(line) as { address: string }).address);
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}:\n${out}\n${err}`));
    });
  });
  return { child, url, stdout: () => out, stderr: () => err, exited };
}
