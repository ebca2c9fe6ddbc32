// Logs broken database connections once per burst: a restart breaks every pooled connection at once.
import type { Logger } from 'pino';

/** A callback for openDatabase's onConnectionError that logs at most once per `quietMs`. */
export function connectionErrorLogger(
  logger: Logger,
  quietMs = 10_000,
  now: () => number = Date.now,
): (error: Error) => void {
  let lastLoggedAt = Number.NEGATIVE_INFINITY;
  let unlogged = 0;
  return (error) => {
    const at = now();
    if (at - lastLoggedAt < quietMs) {
      unlogged += 1;
      return;
    }
    logger.warn(
      { err: { message: error.message }, alsoBroken: unlogged },
      'database connection lost; new connections are opened on demand',
    );
    lastLoggedAt = at;
    unlogged = 0;
  };
}
