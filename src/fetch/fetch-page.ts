// fetchPage: one GET with manual redirects, the address guard on every hop, a size cap, decompression and charset
// decoding.
import type { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import {
  checkHostLiteral,
  checkProxyLiteral,
  resolvePublicAddresses,
  BlockedAddressError,
} from '../net/address-guard.js';
import { classifyMediaType, looksLikeHtml, parseContentType } from '../page/content-type.js';
import { hostOf } from '../page/errors.js';
import { BodyTooLargeError, destroyBody, readCappedBody, streamCappedBody } from './body.js';
import { decodeBody, detectCharset } from './charset.js';
import { createDecoders, UnsupportedEncodingError } from './decompress.js';
import { getDirectAgent, getProxyAgent } from './dispatchers.js';
import { FetchError, toFetchError } from './errors.js';
import { headersForHop, isHttpUrl, isRedirectStatus, resolveLocation } from './redirects.js';
import type { FetchedPage, FetchOptions } from './types.js';
import { untilAborted } from '../util/until-aborted.js';

const DEFAULT_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5';
// Only encodings decompress.ts can undo.
const ACCEPT_ENCODING = 'gzip, deflate, br';
// A redirect's own body is read only this far so its socket can be reused; beyond that it is dropped.
const REDIRECT_BODY_DUMP_LIMIT = 64 * 1024;

function parseTargetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError('INVALID_URL', `Invalid URL "${raw}"`, raw);
  }
  if (!isHttpUrl(url)) {
    throw new FetchError(
      'INVALID_URL',
      `Unsupported URL scheme "${url.protocol}" in ${url.href}: only http and https can be fetched`,
      url.href,
    );
  }
  return url;
}

function parseProxyUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError('PROXY_ERROR', 'Invalid proxy URL', raw);
  }
  if (!isHttpUrl(url))
    throw new FetchError('PROXY_ERROR', `Unsupported proxy scheme "${url.protocol}": use http:// or https://`, raw);
  return url;
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function requestHeaders(options: FetchOptions): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': options.userAgent,
    accept: DEFAULT_ACCEPT,
    'accept-encoding': ACCEPT_ENCODING,
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  return headers;
}

/**
 * Refuses a hop before anything is sent. Direct connections check names again at connect time
 * (the guarded lookup), but IP literals never reach a lookup, so they are checked here. Through a
 * proxy the proxy resolves the name, so we resolve it ourselves first and refuse private answers;
 * the proxy could still get another answer (rebinding), which is the accepted limit of proxying.
 */
async function guardHop(url: URL, options: FetchOptions, viaProxy: boolean): Promise<void> {
  if (options.allowPrivateAddresses) return;
  const verdict = checkHostLiteral(url.hostname);
  if (!verdict.allowed) throw new BlockedAddressError(url.hostname, verdict.address, { reason: verdict.reason });
  if (viaProxy && verdict.ip === null) {
    try {
      await resolvePublicAddresses(url.hostname, {
        allowPrivate: false,
        ...(options.resolve ? { resolve: options.resolve } : {}),
      });
    } catch (err) {
      // Mapped here, without the proxy context: a name we cannot resolve is the target's fault, not the proxy's.
      throw toFetchError(err, { url: url.href });
    }
  }
}

/** Discards a response body without letting a slow or endless one hold the fetch. */
function discard(body: Dispatcher.ResponseData['body'], signal: AbortSignal): void {
  body.dump({ limit: REDIRECT_BODY_DUMP_LIMIT, signal }).catch(() => undefined);
}

export async function fetchPage(options: FetchOptions): Promise<FetchedPage> {
  const source = parseTargetUrl(options.url);
  const proxyUrl = options.proxy ? parseProxyUrl(options.proxy) : undefined;
  const proxyAllowPrivate = options.proxyAllowPrivate ?? options.allowPrivateAddresses;
  if (proxyUrl && !proxyAllowPrivate) {
    // A literal is refused here, before any connection, with the same answer whether or not
    // something listens there; a name is checked when the connection to it is opened.
    const refused = checkProxyLiteral(proxyUrl);
    if (refused) throw new FetchError('BLOCKED_ADDRESS', refused.message, source.href, { cause: refused });
  }
  const dispatcher = proxyUrl
    ? getProxyAgent(proxyUrl, {
        allowPrivate: proxyAllowPrivate,
        ...(options.resolve ? { resolve: options.resolve } : {}),
      })
    : getDirectAgent(options.allowPrivateAddresses, options.resolve);
  const proxyHost = proxyUrl?.host;

  if (options.signal?.aborted) throw new FetchError('ABORTED', `Fetch of ${source.href} was cancelled`, source.href);

  // One controller for the caller's signal and our own deadline; the flag tells them apart.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const onCallerAbort = (): void => controller.abort();
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });

  let current = source;
  let body: Readable | undefined;
  const redirects: string[] = [];
  let headers = requestHeaders(options);

  try {
    for (;;) {
      await guardHop(current, options, proxyUrl !== undefined);
      const response = await untilAborted(
        request(current, { method: 'GET', dispatcher, headers, signal: controller.signal }),
        controller.signal,
        (late) => destroyBody(late.body),
      );
      body = response.body;
      const responseHeaders = flattenHeaders(response.headers);
      const location = responseHeaders['location'];

      if (isRedirectStatus(response.statusCode) && location) {
        discard(response.body, controller.signal);
        body = undefined;
        const next = resolveLocation(location, current);
        if (!next || !isHttpUrl(next)) {
          throw new FetchError(
            'INVALID_URL',
            `${current.href} redirects to an unsupported URL "${location}"`,
            current.href,
            {
              statusCode: response.statusCode,
            },
          );
        }
        if (redirects.length >= options.maxRedirects) {
          throw new FetchError(
            'TOO_MANY_REDIRECTS',
            `More than ${options.maxRedirects} redirects starting at ${source.href}`,
            next.href,
            {
              statusCode: response.statusCode,
            },
          );
        }
        if (options.onRedirect && !(await options.onRedirect(next.href))) {
          throw new FetchError(
            'REDIRECT_DUPLICATE',
            `${current.href} redirects to ${next.href}, which was already taken`,
            next.href,
            {
              statusCode: response.statusCode,
            },
          );
        }
        headers = headersForHop(headers, current, next);
        redirects.push(next.href);
        current = next;
        continue;
      }

      return await readPage(response.statusCode, responseHeaders, response.body, current, source, redirects, options);
    }
  } catch (err) {
    if (body) destroyBody(body);
    if (timedOut) {
      throw new FetchError(
        'TIMEOUT',
        `Timed out after ${options.timeoutMs} ms fetching ${current.href}`,
        current.href,
        { cause: err },
      );
    }
    if (options.signal?.aborted)
      throw new FetchError('ABORTED', `Fetch of ${current.href} was cancelled`, current.href, { cause: err });
    throw toFetchError(err, { url: current.href, ...(proxyHost ? { proxyHost } : {}) });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}

async function readPage(
  statusCode: number,
  headers: Record<string, string>,
  body: Readable,
  url: URL,
  source: URL,
  redirects: string[],
  options: FetchOptions,
): Promise<FetchedPage> {
  const { mediaType, charset: headerCharset } = parseContentType(headers['content-type']);
  const kind = classifyMediaType(mediaType);
  const ok = statusCode >= 200 && statusCode < 300;
  const page = (contentType: string, text: string, charset: string, bytes: number): FetchedPage => ({
    sourceUrl: source.href,
    finalUrl: url.href,
    redirects,
    statusCode,
    contentType,
    headers,
    body: text,
    charset,
    bytes,
  });
  const unsupported = (type: string): FetchError =>
    new FetchError('UNSUPPORTED_CONTENT_TYPE', `Unsupported content type ${type} at ${url.href}`, url.href, {
      statusCode,
    });

  if (options.bodySink) return streamPage(statusCode, headers, body, url, options.bodySink, options, page);

  if (kind === 'unsupported') {
    destroyBody(body);
    // An error page in a binary type still tells the caller its status; its bytes are useless as text.
    if (!ok) return page(mediaType, '', 'utf-8', 0);
    throw unsupported(`"${mediaType}"`);
  }

  const declaredLength = Number(headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > options.maxBytes) {
    destroyBody(body);
    throw new FetchError(
      'TOO_LARGE',
      `Response from ${hostOf(url.href)} is larger than ${options.maxBytes} bytes (Content-Length ${declaredLength})`,
      url.href,
      { statusCode },
    );
  }

  let bytes: Buffer;
  try {
    bytes = await readCappedBody(body, createDecoders(headers['content-encoding']), options.maxBytes);
  } catch (err) {
    destroyBody(body);
    if (err instanceof BodyTooLargeError) {
      throw new FetchError(
        'TOO_LARGE',
        `Response from ${hostOf(url.href)} is larger than ${options.maxBytes} bytes`,
        url.href,
        { statusCode, cause: err },
      );
    }
    if (err instanceof UnsupportedEncodingError) {
      throw new FetchError('NETWORK_ERROR', `Response from ${hostOf(url.href)} uses an ${err.message}`, url.href, {
        statusCode,
        cause: err,
      });
    }
    throw err;
  }

  let contentType = mediaType;
  if (kind === 'sniff') {
    if (!looksLikeHtml(bytes)) {
      if (!ok) return page('', '', 'utf-8', 0);
      throw unsupported('(none, and the body does not look like HTML)');
    }
    // Reported as HTML so that the pipeline parses it as such; the header itself is in `headers`.
    contentType = 'text/html';
  }
  const decoded = decodeBody(bytes, detectCharset(bytes, headerCharset, kind));
  return page(contentType, decoded.text, decoded.charset, bytes.length);
}

/** readPage for a `bodySink`: a 2xx body goes to the sink as it arrives, under the same size cap. */
async function streamPage(
  statusCode: number,
  headers: Record<string, string>,
  body: Readable,
  url: URL,
  sink: NonNullable<FetchOptions['bodySink']>,
  options: FetchOptions,
  page: (contentType: string, text: string, charset: string, bytes: number) => FetchedPage,
): Promise<FetchedPage> {
  const { mediaType } = parseContentType(headers['content-type']);
  if (statusCode < 200 || statusCode >= 300) {
    destroyBody(body);
    return page(mediaType, '', 'utf-8', 0);
  }
  const tooLarge = (cause?: unknown): FetchError =>
    new FetchError(
      'TOO_LARGE',
      `Response from ${hostOf(url.href)} is larger than ${options.maxBytes} bytes`,
      url.href,
      {
        statusCode,
        ...(cause !== undefined ? { cause } : {}),
      },
    );
  const declaredLength = Number(headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > options.maxBytes) {
    destroyBody(body);
    throw tooLarge();
  }
  try {
    const bytes = await streamCappedBody(body, createDecoders(headers['content-encoding']), options.maxBytes, sink);
    return page(mediaType, '', 'utf-8', bytes);
  } catch (err) {
    destroyBody(body);
    if (err instanceof BodyTooLargeError) throw tooLarge(err);
    if (err instanceof UnsupportedEncodingError) {
      throw new FetchError('NETWORK_ERROR', `Response from ${hostOf(url.href)} uses an ${err.message}`, url.href, {
        statusCode,
        cause: err,
      });
    }
    throw err;
  }
}
