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
export {
  guardedConnector,
  boundedConnector,
  ConnectAttemptError,
  type AttemptLimits,
  type Connector,
} from './guarded-connector.js';
export {
  checkProxyLiteral,
  chooseProxy,
  parseAllowlistEntry,
  proxyAuthority,
  requestProxyRefusal,
  ProxyNotAllowedError,
  PROXY_GUARD_REMEDY,
  PROXY_ROLE,
  type ChosenProxy,
  type ProxyPolicy,
} from './proxy-policy.js';
