// Per-process figures from /proc (peak RSS, CPU time) and child-process helpers shared by the crawl benchmark.
import { type ChildProcess, spawn, type SpawnOptions } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';

/** Clock ticks per second of /proc/<pid>/stat times; 100 on every Linux this runs on (getconf CLK_TCK). */
const CLK_TCK = 100;

export interface ProcSample {
  /** Peak resident set size so far (VmHWM), bytes. */
  peakRss: number;
  /** Current resident set size (VmRSS), bytes. */
  rss: number;
  /** utime + stime of every thread of the process, ms. */
  cpuMs: number;
}

export function sample(pid: number): ProcSample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  // The command name (field 2) may hold spaces; fields are counted after its closing parenthesis.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  return { peakRss: kb('VmHWM'), rss: kb('VmRSS'), cpuMs: ((utime + stime) * 1000) / CLK_TCK };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface Child {
  proc: ChildProcess;
  pid: number;
  exited: Promise<number | null>;
  /** First stdout line that parses as JSON (site port, Crawlee result). */
  firstJson: Promise<unknown>;
}

/** Spawns a child with stdout/stderr teed into a log file. */
export function start(command: string, args: string[], options: SpawnOptions & { logFile: string }): Child {
  const proc = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  if (proc.pid === undefined) throw new Error(`could not start ${command}`);
  const log = createWriteStream(options.logFile);
  let buffered = '';
  let resolveJson: (v: unknown) => void = () => undefined;
  const firstJson = new Promise<unknown>((resolve) => (resolveJson = resolve));
  proc.stdout?.on('data', (chunk: Buffer) => {
    log.write(chunk);
    buffered += chunk.toString('utf8');
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line.startsWith('{')) {
        try {
          resolveJson(JSON.parse(line));
        } catch {
          // A log line that merely starts with a brace.
        }
      }
    }
  });
  proc.stderr?.on('data', (chunk: Buffer) => log.write(chunk));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  void exited.then(() => {
    log.end();
    resolveJson(undefined);
  });
  return { proc, pid: proc.pid, exited, firstJson };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the child is gone. */
export async function stop(child: Child, graceMs = 10_000): Promise<void> {
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  child.proc.kill('SIGTERM');
  const timer = setTimeout(() => child.proc.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}

/**
 * CPU time of each live thread of a process, ms, by thread id (`/proc/<pid>/task/<tid>/stat`).
 * Threads that already exited are only in the process total.
 */
export function threadCpu(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), ((Number(rest[11]) + Number(rest[12])) * 1000) / CLK_TCK);
    } catch {
      // The thread exited between the listing and the read.
    }
  }
  return out;
}
