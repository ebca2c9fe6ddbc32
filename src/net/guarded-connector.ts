// undici connectors: one that applies the private-address guard to the address it dials, one that bounds the attempts
// of a pool.
import { buildConnector } from 'undici';
import { BlockedAddressError } from './blocked-address-error.js';
import { createGuardedLookup, type GuardOptions } from './guarded-lookup.js';
import { checkHostLiteral } from './ip-classify.js';

export type Connector = buildConnector.connector;
type ConnectorCallback = buildConnector.Callback;

/**
 * A connector that refuses private addresses when the socket is opened: an IP literal is checked
 * here (net.connect never looks one up), a name by the guarded lookup (every resolved address;
 * the socket then connects only to an address that the same call checked, so DNS rebinding
 * between a check and the connect is not possible). With `allowPrivate` nothing is refused, but
 * names are still resolved by `guard.resolve` (tests point names at local servers with it).
 */
export function guardedConnector(guard: GuardOptions, build: buildConnector.BuildOptions = {}): Connector {
  const connect = buildConnector({ ...build, lookup: createGuardedLookup(guard) });
  if (guard.allowPrivate) return connect;
  return (options, callback) => {
    const verdict = checkHostLiteral(options.hostname);
    if (!verdict.allowed) {
      const err = new BlockedAddressError(options.hostname, verdict.address, {
        reason: verdict.reason,
        setting: guard.setting,
        role: guard.role,
        remedy: guard.remedy,
      });
      // Asynchronously, as a real connect fails: undici's client does not expect its callback inside the call.
      queueMicrotask(() => callback(err, null));
      return;
    }
    connect(options, callback);
  };
}

export interface AttemptLimits {
  /** An attempt (TCP, TLS, a proxy's answer to CONNECT) that has not connected by then fails. */
  attemptTimeoutMs: number;
  /** Failed attempts in a row after which `onGiveUp` runs (the pool is destroyed, failing every request it holds). */
  maxFailures: number;
}

export interface BoundedConnectorOptions extends AttemptLimits {
  /** True for the connector of a CONNECT tunnel through a proxy: its failures are the proxy's. */
  tunnel: boolean;
  onGiveUp(err: Error): void;
}

/** A connection attempt that failed in a way undici would retry forever, or took too long. */
export class ConnectAttemptError extends Error {
  constructor(
    readonly code: string,
    message: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ConnectAttemptError';
  }
}

/**
 * undici's client fails its queued requests on a connect error, except for these codes: it takes
 * them for a recoverable error of a live connection, keeps the requests (even ones the caller has
 * aborted) and connects again at once. A proxy that closes the connection while a CONNECT tunnel
 * is being set up produces exactly that (undici #3897: thousands of connections a second, long
 * after the client left; fixed in undici 8.10.1 only, by PR #5441).
 */
const RETRIED_FOREVER = new Set(['UND_ERR_SOCKET', 'UND_ERR_INFO']);

function codeOf(err: unknown): string {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : '';
}

/**
 * Wraps a connector so that whatever the library does, one pool cannot dial without bound:
 * - each attempt ends by `attemptTimeoutMs` (a late socket is destroyed);
 * - an error undici would retry in a loop is handed over as a final one (UND_ERR_PRX_CONN for a
 *   tunnel, as undici 8 names it), so the queued requests fail instead;
 * - after `maxFailures` failed attempts in a row, `onGiveUp` runs: the caller destroys the pool,
 *   which fails its requests and stops its connections, whatever else goes wrong.
 */
export function boundedConnector(connect: Connector, options: BoundedConnectorOptions): Connector {
  let failures = 0;
  return (connectOptions, callback: ConnectorCallback) => {
    const where = `${connectOptions.hostname}:${connectOptions.port || (connectOptions.protocol === 'https:' ? 443 : 80)}`;
    let settled = false;
    const settle = (err: Error | null, socket: Parameters<ConnectorCallback>[1]): void => {
      settled = true;
      clearTimeout(timer);
      if (err === null && socket) {
        failures = 0;
        callback(null, socket);
        return;
      }
      const cause = err ?? new Error('connection failed');
      let final = cause;
      if (RETRIED_FOREVER.has(codeOf(cause))) {
        final = options.tunnel
          ? new ConnectAttemptError(
              'UND_ERR_PRX_CONN',
              `The proxy closed the connection while the tunnel to ${where} was being set up (${cause.message})`,
              cause,
            )
          : new ConnectAttemptError(
              'ECONNRESET',
              `The connection to ${where} was closed while it was being set up (${cause.message})`,
              cause,
            );
      }
      failures += 1;
      if (failures >= options.maxFailures) {
        failures = 0;
        options.onGiveUp(final);
      }
      callback(final, null);
    };
    const timer = setTimeout(() => {
      if (settled) return;
      const message = options.tunnel
        ? `The proxy did not open the tunnel to ${where} within ${options.attemptTimeoutMs} ms`
        : `Connecting to ${where} took more than ${options.attemptTimeoutMs} ms`;
      settle(new ConnectAttemptError(options.tunnel ? 'UND_ERR_PRX_CONN' : 'UND_ERR_CONNECT_TIMEOUT', message), null);
    }, options.attemptTimeoutMs);
    try {
      connect(connectOptions, (err, socket) => {
        if (settled) {
          socket?.destroy();
          return;
        }
        settle(err, socket);
      });
    } catch (err) {
      if (!settled) settle(err instanceof Error ? err : new Error(String(err)), null);
    }
  };
}
