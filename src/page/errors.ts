// How getting a page fails, whichever engine tried: the codes (clients see them as error codes),
// the error class both engines' errors extend, and the host a message names.

/**
 * Failures of getting a page over the network: the plain-HTTP engine ends with one of these, and a
 * browser render reports the same ones with the same meaning.
 */
export type FetchErrorCode =
  | 'REDIRECT_DUPLICATE'
  | 'INVALID_URL'
  | 'BLOCKED_ADDRESS'
  | 'DNS_FAILURE'
  | 'CONNECTION_REFUSED'
  | 'CONNECTION_RESET'
  | 'TIMEOUT'
  | 'TLS_ERROR'
  | 'TOO_LARGE'
  | 'TOO_MANY_REDIRECTS'
  | 'UNSUPPORTED_CONTENT_TYPE'
  | 'PROXY_ERROR'
  | 'NETWORK_ERROR'
  | 'ABORTED';

/** Every way an engine fails to get a page: the fetch codes, and those only a browser render has. */
export type PageErrorCode =
  | FetchErrorCode
  /** No Chromium at the configured path, or it fails to launch. */
  | 'BROWSER_UNAVAILABLE'
  /** A `wait_for_selector` entry did not reach its state in time. */
  | 'SELECTOR_TIMEOUT'
  /** The tab or the browser crashed while rendering. */
  | 'PAGE_CRASHED'
  /** Navigation failed for another reason the browser reported (net::ERR_...). */
  | 'NAVIGATION_FAILED'
  /** A browser action could not be done (its element never appeared, its script threw, its result was too big). */
  | 'ACTION_FAILED';

/** What both engines throw: FetchError (plain HTTP) and BrowserError (browser) extend it and set the name. */
export abstract class PageError extends Error {
  readonly code: PageErrorCode;
  /** The URL being fetched or rendered when it failed (a redirect hop, not necessarily the one requested). */
  readonly url: string;

  constructor(code: PageErrorCode, message: string, url: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.url = url;
  }
}

/** Host (with port) of a URL for messages; the URL itself when it does not parse. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
