// One webhook delivery attempt (POST, guarded, bounded in time and response size) and the URL check for subscriptions.
import { performance } from 'node:perf_hooks';
import { request, type Dispatcher } from 'undici';
import { BlockedAddressError, checkHostLiteral, type Resolver } from '../net/address-guard.js';
import { getWebhookAgent, WEBHOOK_GUARD_SETTING } from './send/agents.js';
import { type AttemptPhase, describeNetworkError } from './send/errors.js';

export interface SendRequest {
  url: string;
  /** Exact bytes to send (already serialized JSON). */
  body: string;
  /** Our headers and the subscription's custom headers, already merged by the caller. */
  headers: Record<string, string>;
  /** The whole attempt: connect, response headers and reading the capped body. */
  timeoutMs: number;
  /** ALLOW_LOCAL_WEBHOOKS */
  allowPrivateAddresses: boolean;
  /** Test hook: how names are resolved (same type as the guard's). */
  resolve?: Resolver;
}

export type AttemptOutcome =
  /** 2xx, with the body read completely (or up to the cap). */
  | { kind: 'delivered'; statusCode: number; durationMs: number; responseBody: string }
  /** 3xx (never followed) and 4xx: failed, no retry. */
  | { kind: 'rejected'; statusCode: number; durationMs: number; responseBody: string }
  /** 5xx (errorCode HTTP_5xx), timeout or network error. */
  | {
      kind: 'retryable';
      statusCode?: number;
      durationMs: number;
      responseBody?: string;
      errorCode: string;
      errorMessage: string;
    }
  /** The target is, or resolves to, a private address: failed, no retry. */
  | { kind: 'blocked'; durationMs: number; errorCode: 'BLOCKED_ADDRESS'; errorMessage: string };

/** Bytes of the response body kept for the attempt log. */
export const RESPONSE_BODY_CAP = 4 * 1024;
// Past the cap the body is still drained (not kept) up to this size, so that a receiver answering
// with a page of HTML does not cost a new connection per delivery; beyond it the socket is cut.
const DRAIN_LIMIT = 64 * 1024;

/** Our own deadline, told apart from every other abort reason by identity. */
class AttemptTimeout extends Error {
  constructor() {
    super('webhook attempt timed out');
    this.name = 'AttemptTimeout';
  }
}

type ResponseBody = Dispatcher.ResponseData['body'];

interface CappedBody {
  bytes: Buffer;
  /** Set when the body failed before its end (reset, or aborted by the attempt's deadline). */
  error?: unknown;
}

/**
 * Reads at most `cap` bytes of the body and discards the rest. Stops early (and destroys the
 * body, which makes undici close the socket) once more than DRAIN_LIMIT bytes came in. Never
 * rejects: what was read before a failure is still worth logging.
 */
function readCappedBody(body: ResponseBody, cap: number): Promise<CappedBody> {
  return new Promise((resolve) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let seen = 0;
    let settled = false;
    const finish = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      const bytes = Buffer.concat(kept, keptBytes);
      resolve(error === undefined ? { bytes } : { bytes, error });
    };
    body.on('data', (chunk: Buffer) => {
      if (settled) return;
      seen += chunk.length;
      if (keptBytes < cap) {
        const part = chunk.subarray(0, cap - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      }
      if (seen > DRAIN_LIMIT) {
        finish();
        // Destroying an unfinished body emits 'error' (RequestAbortedError): ignored once settled.
        body.destroy();
      }
    });
    body.on('end', () => finish());
    // Registered for the whole life of the stream, so a late error never goes unhandled.
    body.on('error', (err: Error) => finish(err));
  });
}

/**
 * UTF-8 text of the kept bytes; `stream: true` holds back a multi-byte character cut by the cap
 * instead of turning it into U+FFFD.
 */
function bodyText(bytes: Buffer): string {
  return new TextDecoder('utf-8').decode(bytes, { stream: true });
}

/** The guard's refusal, also when it reaches us through a layer that copied its code but not its class. */
function isBlocked(err: unknown): err is Error & { code: 'BLOCKED_ADDRESS' } {
  return (
    err instanceof BlockedAddressError || (err instanceof Error && 'code' in err && err.code === 'BLOCKED_ADDRESS')
  );
}

/**
 * Sends one delivery attempt and classifies its outcome. Never throws: every failure, including
 * a URL that no longer parses, becomes an outcome the delivery engine can record.
 */
export async function sendWebhook(req: SendRequest): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);

  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    // Unreachable for URLs validated at subscription time; nothing better than "retryable" fits the outcome type.
    return {
      kind: 'retryable',
      durationMs: elapsed(),
      errorCode: 'INVALID_URL',
      errorMessage: 'The webhook URL does not parse',
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      kind: 'retryable',
      durationMs: elapsed(),
      errorCode: 'INVALID_URL',
      errorMessage: `The webhook URL's scheme ${url.protocol} is not http or https`,
    };
  }
  const host = url.host;

  // Sockets to IP literals never go through the lookup, so literals (and local names, before any
  // DNS query) are checked here; names are checked again by the Agent's lookup against every address.
  if (!req.allowPrivateAddresses) {
    const verdict = checkHostLiteral(url.hostname);
    if (!verdict.allowed) {
      const err = new BlockedAddressError(url.hostname, verdict.address, {
        setting: WEBHOOK_GUARD_SETTING,
        reason: verdict.reason,
      });
      return { kind: 'blocked', durationMs: elapsed(), errorCode: 'BLOCKED_ADDRESS', errorMessage: err.message };
    }
  }

  // One deadline for the whole attempt. Aborting a request undici has already written makes it
  // destroy the socket (the connection cannot be reused mid-response), and an abort after the
  // headers destroys the body stream, so a stalled receiver holds nothing once the time is up.
  const controller = new AbortController();
  const deadline = new AttemptTimeout();
  const timer = setTimeout(() => controller.abort(deadline), req.timeoutMs);
  let phase: AttemptPhase = 'request';
  let statusCode: number | undefined;
  const failure = (err: unknown, durationMs: number, responseBody?: string): AttemptOutcome => {
    if (isBlocked(err)) return { kind: 'blocked', durationMs, errorCode: 'BLOCKED_ADDRESS', errorMessage: err.message };
    const response = {
      ...(statusCode === undefined ? {} : { statusCode }),
      ...(responseBody === undefined ? {} : { responseBody }),
    };
    if (err === deadline || (controller.signal.aborted && controller.signal.reason === deadline)) {
      const errorMessage =
        phase === 'request'
          ? `Timed out after ${req.timeoutMs} ms waiting for ${host} to answer`
          : `Timed out after ${req.timeoutMs} ms reading the response body from ${host} (HTTP ${statusCode})`;
      return { kind: 'retryable', ...response, durationMs, errorCode: 'ETIMEDOUT', errorMessage };
    }
    return { kind: 'retryable', ...response, durationMs, ...describeNetworkError(err, host, phase) };
  };
  try {
    const response = await request(url, {
      method: 'POST',
      body: req.body,
      headers: req.headers,
      dispatcher: getWebhookAgent(req.allowPrivateAddresses, req.resolve),
      signal: controller.signal,
      // No redirect handling is configured on the Agent, so a 3xx comes back as is: never followed.
    });
    phase = 'body';
    statusCode = response.statusCode;
    const { bytes, error } = await readCappedBody(response.body, RESPONSE_BODY_CAP);
    const responseBody = bodyText(bytes);
    const durationMs = elapsed();
    if (statusCode >= 200 && statusCode < 300) {
      // A 2xx counts only once the response is complete: a receiver that stalls or drops its
      // body may not have committed the event, so it is retried (the delivery id de-duplicates).
      if (error !== undefined) return failure(error, durationMs, responseBody);
      return { kind: 'delivered', statusCode, durationMs, responseBody };
    }
    // For any other status the status alone decides; a body cut short only shortens the log.
    if (statusCode >= 500) {
      return {
        kind: 'retryable',
        statusCode,
        durationMs,
        responseBody,
        errorCode: `HTTP_${statusCode}`,
        errorMessage: `${host} answered HTTP ${statusCode}`,
      };
    }
    // 3xx, 4xx, and anything else a receiver may invent outside 200-599 (undici handles 1xx itself).
    return { kind: 'rejected', statusCode, durationMs, responseBody };
  } catch (err) {
    return failure(err, elapsed());
  } finally {
    clearTimeout(timer);
  }
}

export type UrlVerdict = { ok: true } | { ok: false; message: string };

/**
 * Checks a webhook URL when a subscription is created or updated, without any DNS lookup (that
 * happens again at every attempt): http(s) only, no credentials, and unless allowPrivate no
 * private IP literal in any spelling and no name ending in "localhost".
 */
export function validateWebhookUrl(url: string, allowPrivate: boolean): UrlVerdict {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, message: 'webhook_url is not a valid URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, message: `webhook_url must use http or https, not ${parsed.protocol.slice(0, -1)}` };
  }
  // Credentials in a URL end up in logs and delivery records; receivers can use custom_headers.
  if (parsed.username !== '' || parsed.password !== '') {
    return { ok: false, message: 'webhook_url must not contain credentials; send them in custom_headers instead' };
  }
  if (parsed.hostname === '') return { ok: false, message: 'webhook_url has no host' };
  if (!allowPrivate) {
    // The WHATWG parser has already normalized 2130706433, 0177.0.0.1, 0x7f.1 and 127.1 to 127.0.0.1
    // and IPv6 to its compressed form; checkHostLiteral also accepts the raw spellings.
    const verdict = checkHostLiteral(parsed.hostname);
    if (!verdict.allowed) {
      return {
        ok: false,
        message: `webhook_url host ${parsed.hostname} is refused (${verdict.reason}${verdict.address !== parsed.hostname ? ` ${verdict.address}` : ''}); deliveries to private addresses are not allowed unless ${WEBHOOK_GUARD_SETTING}=true`,
      };
    }
  }
  return { ok: true };
}
