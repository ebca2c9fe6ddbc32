// The plain-HTTP engine beside browser/ (undici, address guard, size cap, charset decoding); the pipeline and
// robots.txt use it.
export type { FetchOptions, FetchedPage } from './types.js';
export type { FetchErrorCode } from '../page/errors.js';
export { FetchError } from './errors.js';
export { fetchPage } from './fetch-page.js';
export { decodeBody, detectCharset } from './charset.js';
export { closeDispatchers } from './dispatchers.js';
