// The error raised when the private-address guard refuses a target (or a proxy).

export interface BlockedAddressErrorOptions {
  /** Deployment setting that lifts the guard, named in the message so the operator knows what to change. */
  setting?: string;
  /** Why the address is refused, e.g. "private address" or "local name". */
  reason?: string;
  /** What the address was for when it is not the target itself, e.g. "proxy"; named in the message. */
  role?: string;
  /** Replaces "set <setting>=true to allow" when more than one setting can lift the refusal. */
  remedy?: string;
}

/** Thrown (or passed to a lookup callback) when a target is, or resolves to, a non-public address. */
export class BlockedAddressError extends Error {
  readonly code = 'BLOCKED_ADDRESS';
  readonly host: string;
  readonly address: string;
  /** "proxy" when the refused address was a proxy's; undefined for targets. */
  readonly role: string | undefined;

  constructor(host: string, address: string, options: BlockedAddressErrorOptions = {}) {
    const setting = options.setting ?? 'ALLOW_LOCAL_TARGETS';
    const reason = options.reason ?? 'private address';
    const target = host === address || address === '' ? host : `${host}: it resolves to ${address}`;
    const subject = options.role ? `${options.role} ${target}` : target;
    super(`Refused to connect to ${subject} (${reason}); ${options.remedy ?? `set ${setting}=true to allow`}`);
    this.name = 'BlockedAddressError';
    this.host = host;
    this.address = address;
    this.role = options.role;
  }
}
