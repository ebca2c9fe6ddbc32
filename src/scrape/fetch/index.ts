// Plain-HTTP page fetcher of the scrape pipeline (undici, address guard, size cap, charset decoding).
export type { FetchOptions, FetchedPage, FetchErrorCode } from './types.js';
export { FetchError } from './errors.js';
export { fetchPage } from './fetch-page.js';
export { closeDispatchers } from './dispatchers.js';
