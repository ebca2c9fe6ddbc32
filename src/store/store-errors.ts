// Tells the store's failures that say "the database is out of reach" or "the disk is full" from faults of ours.

/** `unavailable`: retry later (connection lost, server restarting, locked); `full`: no space left to write. */
export type StoreFailure = 'unavailable' | 'full';

// SQLSTATE classes and codes of PostgreSQL that mean the server cannot serve now.
const PG_UNAVAILABLE_CLASSES = ['08']; // connection exception
const PG_UNAVAILABLE_CODES = new Set([
  '57P01', // admin_shutdown (a restart or pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down, recovery)
  '53300', // too_many_connections
  '53200', // out_of_memory
  '40P01', // deadlock_detected: safe to retry
]);
const PG_FULL_CODES = new Set(['53100']); // disk_full
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
// pg's own messages for a pool or client whose connection failed; they carry no code.
const PG_CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection terminated unexpectedly|terminating connection/i;

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * What a failed store call means for the caller, or undefined for anything else (a bug, a
 * constraint). Only the error itself is read, not its `cause`: the drivers throw their errors
 * as they are, while a page's fetch error wraps the socket error of a site (ECONNRESET...) in its
 * cause, and that is the site's failure, not the store's.
 */
export function classifyStoreError(error: unknown): StoreFailure | undefined {
  const code = codeOf(error);
  if (code !== undefined) {
    if (code === 'SQLITE_FULL' || PG_FULL_CODES.has(code)) return 'full';
    if (
      code.startsWith('SQLITE_BUSY') ||
      code.startsWith('SQLITE_LOCKED') ||
      code.startsWith('SQLITE_IOERR') ||
      code === 'SQLITE_CANTOPEN'
    ) {
      return 'unavailable';
    }
    if (PG_UNAVAILABLE_CODES.has(code) || PG_UNAVAILABLE_CLASSES.some((c) => code.startsWith(c) && code.length === 5))
      return 'unavailable';
    if (SOCKET_CODES.has(code)) return 'unavailable';
  }
  if (error instanceof Error && PG_CONNECTION_MESSAGES.test(error.message)) return 'unavailable';
  return undefined;
}
