// Decides, for each request a rendered page makes, whether it may go out: schemes, heavy resources, private addresses.
import { BlockedAddressError, resolvePublicAddresses, type Resolver } from '../net/address-guard.js';
import type { InterceptedRequest, RequestDecision } from './driver.js';
import { HEAVY_RESOURCE_TYPES } from './flags.js';

/** Schemes a page may use without a network request of its own. */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:']);
const NETWORK_SCHEMES = new Set(['http:', 'https:']);
/** Hosts remembered per render; a page with more distinct hosts is checked again for the rest. */
const MAX_CACHED_HOSTS = 512;

export interface RequestGuardOptions {
  allowPrivateAddresses: boolean;
  /** Images, media and fonts are refused (no screenshot asked for). */
  blockHeavyResources: boolean;
  /** Test hook; default DNS. */
  resolve?: Resolver;
}

type Verdict = { blocked: BlockedAddressError } | { blocked: null; unresolved: boolean };

/** One per render: remembers each host's verdict and the refusal of the main document, if any. */
export class RequestGuard {
  private readonly verdicts = new Map<string, Promise<Verdict>>();
  /** Why the main document (or one of its redirect hops) was refused. */
  mainBlocked: BlockedAddressError | undefined;
  /** Requests refused because of their address or scheme (for tests and logs). */
  readonly refused: string[] = [];

  constructor(private readonly options: RequestGuardOptions) {}

  async decide(request: InterceptedRequest): Promise<RequestDecision> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return 'blockedbyclient';
    }
    if (LOCAL_SCHEMES.has(url.protocol)) return 'continue';
    if (!NETWORK_SCHEMES.has(url.protocol)) {
      this.refuse(request, undefined);
      return 'blockedbyclient';
    }
    if (
      !request.isMainNavigation &&
      this.options.blockHeavyResources &&
      HEAVY_RESOURCE_TYPES.has(request.resourceType)
    ) {
      return 'blockedbyclient';
    }
    if (this.options.allowPrivateAddresses) return 'continue';
    const verdict = await this.verdict(url.hostname);
    if (verdict.blocked) {
      this.refuse(request, verdict.blocked);
      return 'blockedbyclient';
    }
    // A name we cannot resolve: for the main document, fail it as Chromium would (DNS_FAILURE);
    // sub-resources go on and Chromium finds out by itself.
    if (verdict.unresolved && request.isMainNavigation) return 'namenotresolved';
    return 'continue';
  }

  private refuse(request: InterceptedRequest, blocked: BlockedAddressError | undefined): void {
    if (this.refused.length < 100) this.refused.push(request.url);
    if (request.isMainNavigation && blocked) this.mainBlocked = blocked;
  }

  private verdict(host: string): Promise<Verdict> {
    let verdict = this.verdicts.get(host);
    if (!verdict) {
      verdict = resolvePublicAddresses(host, {
        allowPrivate: false,
        ...(this.options.resolve ? { resolve: this.options.resolve } : {}),
      }).then(
        (): Verdict => ({ blocked: null, unresolved: false }),
        (err: unknown): Verdict =>
          err instanceof BlockedAddressError ? { blocked: err } : { blocked: null, unresolved: true },
      );
      if (this.verdicts.size >= MAX_CACHED_HOSTS) this.verdicts.clear();
      this.verdicts.set(host, verdict);
    }
    return verdict;
  }
}
