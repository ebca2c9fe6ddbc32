// The error raised when the private-address guard refuses a target.

export interface BlockedAddressErrorOptions {
  /** Deployment setting that lifts the guard, named in the message so the operator knows what to change. */
  setting?: string;
  /** Why the address is refused, e.g. "private address" or "local name". */
  reason?: string;
}

/** Thrown (or passed to a lookup callback) when a target is, or resolves to, a non-public address. */
export class BlockedAddressError extends Error {
  readonly code = 'BLOCKED_ADDRESS';
  readonly host: string;
  readonly address: string;

  constructor(host: string, address: string, options: BlockedAddressErrorOptions = {}) {
    const setting = options.setting ?? 'ALLOW_LOCAL_TARGETS';
    const reason = options.reason ?? 'private address';
    const target = host === address || address === '' ? host : `${host}: it resolves to ${address}`;
    super(`Refused to connect to ${target} (${reason}); set ${setting}=true to allow`);
    this.name = 'BlockedAddressError';
    this.host = host;
    this.address = address;
  }
}
