// Private-address guard: decides whether a host or IP may be contacted by scrapes, crawls and webhooks.
export { isPrivateAddress, checkHostLiteral, type GuardVerdict } from './ip-classify.js';
export { BlockedAddressError, type BlockedAddressErrorOptions } from './blocked-address-error.js';
export {
  createGuardedLookup,
  defaultResolve,
  resolvePublicAddresses,
  type GuardOptions,
  type ResolvedAddress,
  type Resolver,
} from './guarded-lookup.js';
