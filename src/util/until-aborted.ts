// Racing work against an abort signal: for clients (undici) that only listen to a request's signal once the request
// has a connection, so that a connect that hangs cannot outlive its deadline.

/**
 * Settles with `work`, or rejects as soon as `signal` aborts (with its reason; a reason that is not an Error becomes
 * one). A value that comes after the abort is handed to `late`, so that a response's body can be released.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal, late: (value: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) late(value);
        else resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
