// Public types of the plain-HTTP page fetcher.
import type { Resolver } from '../net/address-guard.js';

export interface FetchOptions {
  url: string;
  /** Whole request including redirects and body. */
  timeoutMs: number;
  /** http(s):// proxy URL; all requests of this fetch go through it. */
  proxy?: string;
  /**
   * The proxy's own address may be private: true for a proxy the operator chose (OUTBOUND_PROXY,
   * REQUEST_PROXY_ALLOWLIST). False puts the connection to the proxy through the address guard,
   * as for a proxy named by a request. Default: `allowPrivateAddresses` (ALLOW_LOCAL_TARGETS).
   */
  proxyAllowPrivate?: boolean;
  allowPrivateAddresses: boolean;
  /** Cap on the decompressed body; exceeding it is TOO_LARGE. */
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
  headers?: Record<string, string>;
  /** Caller cancellation. */
  signal?: AbortSignal;
  /** Test hook; default DNS. */
  resolve?: Resolver;
  /**
   * Asked before following each redirect hop; answering false stops the fetch with
   * REDIRECT_DUPLICATE. Crawls use it so a redirect to a page already visited is not fetched again.
   */
  onRedirect?: (next: string) => Promise<boolean>;
  /**
   * Streams a 2xx body, once its Content-Encoding is undone, to this function instead of decoding it to text:
   * the media type is not checked, `body` is '' and `bytes` counts what was read (`maxBytes` still holds). Each
   * chunk is awaited before the next is read; answering false stops reading, and the page is returned as read
   * so far. Another status's body is dropped unread. Sitemaps use it (map/sitemap.ts).
   */
  bodySink?: (chunk: Buffer) => Promise<boolean> | boolean;
}

export interface FetchedPage {
  /** As requested (normalized by URL). */
  sourceUrl: string;
  /** After redirects. */
  finalUrl: string;
  /** Every hop's URL after the first, in order. */
  redirects: string[];
  /** Of the final response; 4xx/5xx are not errors. */
  statusCode: number;
  /** Media type only, lower case, e.g. 'text/html'. */
  contentType: string;
  headers: Record<string, string>;
  /** Decoded to a JS string using `charset`. */
  body: string;
  /** The encoding used, e.g. 'utf-8', 'windows-1252'. */
  charset: string;
  /** Decompressed body size. */
  bytes: number;
}
