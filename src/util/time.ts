// Time as a parameter: services take a Clock so tests can control "now".
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** ISO 8601 in UTC with milliseconds, the one timestamp format of the API and the store. */
export function iso(date: Date): string {
  return date.toISOString();
}

/**
 * A clock that runs `speedup` times faster than real time from `anchorMs` on. For tests and
 * benchmarks of scheduling across processes: every process given the same anchor agrees on "now".
 */
export function acceleratedClock(speedup: number, anchorMs: number): Clock {
  if (speedup === 1) return systemClock;
  const anchor = anchorMs > 0 ? anchorMs : Date.now();
  return () => new Date(anchor + (Date.now() - anchor) * speedup);
}
