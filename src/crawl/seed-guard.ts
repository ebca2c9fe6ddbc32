// Refuses, before a crawl or a scheduled task is saved, a target the fetch's address guard would refuse anyway.
import { BlockedAddressError, checkHostLiteral, resolvePublicAddresses, type Resolver } from '../net/address-guard.js';
import { scrapeFailedError } from '../scrape/failures.js';

/** A lookup slower than this does not hold the request: the target is accepted and checked again at connect time. */
export const TARGET_RESOLVE_TIMEOUT_MS = 2000;

export interface TargetGuard {
  /** ALLOW_LOCAL_TARGETS: nothing is checked. */
  allowPrivate: boolean;
  resolve?: Resolver;
  timeoutMs?: number;
}

/**
 * The guard's refusal of `url`, or undefined. A private literal (any spelling) or a name of which
 * any address is private is refused, as the fetch refuses it at connect time. A name that does
 * not resolve, or not in time, is accepted: DNS may be down for a moment, and the job then fails
 * with the reason (DNS_FAILURE, or BLOCKED_ADDRESS should it resolve privately by then).
 */
export async function blockedTarget(url: string, guard: TargetGuard): Promise<BlockedAddressError | undefined> {
  if (guard.allowPrivate) return undefined;
  const host = new URL(url).hostname;
  const literal = checkHostLiteral(host);
  if (!literal.allowed) return new BlockedAddressError(host, literal.address, { reason: literal.reason });
  if (literal.ip !== null) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, guard.timeoutMs ?? TARGET_RESOLVE_TIMEOUT_MS, undefined);
  });
  const checked = resolvePublicAddresses(host, {
    allowPrivate: false,
    ...(guard.resolve ? { resolve: guard.resolve } : {}),
  }).then(
    () => undefined,
    (err: unknown) => (err instanceof BlockedAddressError ? err : undefined),
  );
  try {
    return await Promise.race([checked, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Throws the 400 a scrape of `url` answers (`BLOCKED_ADDRESS`, same message) when the guard
 * refuses it: a crawl with a private seed is refused when it is created, not failed later.
 */
export async function refuseBlockedSeed(url: string, guard: TargetGuard): Promise<void> {
  const blocked = await blockedTarget(url, guard);
  if (blocked)
    throw scrapeFailedError({ code: 'BLOCKED_ADDRESS', message: blocked.message }, { url, status: 'failed' });
}
