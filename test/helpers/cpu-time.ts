// CPU time for the bounds on synchronous work (linear-time parsing, compiled rules): a loaded machine
// (test files run side by side on 2 cores, other work beside them) stretches wall time many times
// over, but not the CPU time the work itself needs.

/** Runs `work` and returns its result with the CPU time (user + system, in ms) this process spent meanwhile. */
export function cpuTimed<T>(work: () => T): { result: T; ms: number } {
  const before = process.cpuUsage();
  const result = work();
  const used = process.cpuUsage(before);
  return { result, ms: (used.user + used.system) / 1000 };
}
