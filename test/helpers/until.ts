// Polls until a probe gives a value: the one waiting loop of tests that watch background work.

/** Resolves with the probe's first value other than undefined; rejects naming `what` after timeoutMs. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
