// A DNS lookup for net/tls/undici connects that refuses names resolving to private addresses (DNS rebinding).
import { promises as dnsPromises, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { BlockedAddressError } from './blocked-address-error.js';
import { checkHostLiteral, isPrivateAddress } from './ip-classify.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a name to all of its addresses; injectable so tests can make a name point anywhere. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface GuardOptions {
  /** Lifts the guard entirely (ALLOW_LOCAL_TARGETS / ALLOW_LOCAL_WEBHOOKS). */
  allowPrivate: boolean;
  resolve?: Resolver;
  /** Setting named in refusal messages; defaults to ALLOW_LOCAL_TARGETS. */
  setting?: string;
  /**
   * What is being connected to when it is not the target (e.g. "proxy"), and how to lift the refusal; see
   * BlockedAddressErrorOptions.
   */
  role?: string;
  remedy?: string;
}

export const defaultResolve: Resolver = (hostname) => dnsPromises.lookup(hostname, { all: true });

function notFound(hostname: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  err.code = 'ENOTFOUND';
  err.syscall = 'getaddrinfo';
  return err;
}

/**
 * Resolves a host and returns its addresses, refusing (BlockedAddressError) local names,
 * private literals, and names of which ANY address is private: one private answer among
 * public ones is how a rebinding attack slips through when only the first is checked.
 */
export async function resolvePublicAddresses(host: string, options: GuardOptions): Promise<ResolvedAddress[]> {
  const resolve = options.resolve ?? defaultResolve;
  const blocked = { setting: options.setting, role: options.role, remedy: options.remedy };
  const verdict = checkHostLiteral(host);
  if (!options.allowPrivate && !verdict.allowed) {
    throw new BlockedAddressError(host, verdict.address, { ...blocked, reason: verdict.reason });
  }
  if (verdict.allowed && verdict.ip !== null) {
    return [{ address: verdict.ip, family: verdict.ip.includes(':') ? 6 : 4 }];
  }
  const hostname = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const addresses = await resolve(hostname);
  if (addresses.length === 0) throw notFound(hostname);
  if (!options.allowPrivate) {
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) throw new BlockedAddressError(hostname, bad.address, blocked);
  }
  return addresses;
}

/**
 * A `lookup` for `net.connect`, `tls.connect` or undici's `connect` options. The socket then
 * connects only to an address that was checked in the same call, so there is no window between
 * check and use. Node calls it with `all: true` when happy-eyeballs (autoSelectFamily) is on.
 */
export function createGuardedLookup(options: GuardOptions): LookupFunction {
  return (hostname: string, lookupOptions: LookupOptions, callback) => {
    resolvePublicAddresses(hostname, options).then(
      (resolved) => {
        const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
        const usable: LookupAddress[] = resolved
          .filter((a) => family === 0 || a.family === family)
          .map((a) => ({ address: a.address, family: a.family }));
        const first = usable[0];
        if (!first) {
          callback(notFound(hostname), '', 0);
        } else if (lookupOptions.all) {
          callback(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}
