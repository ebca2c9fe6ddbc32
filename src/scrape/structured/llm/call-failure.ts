// What a failed request to the endpoint means for the page: which error code, whether another attempt
// may help, how long the server asked us to wait, and a message fit for a client (never the API key).
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type { StructuredErrorCode } from '../types.js';

export interface CallFailure {
  code: StructuredErrorCode;
  retryable: boolean;
  message: string;
  status?: number;
  /** From Retry-After / retry-after-ms, uncapped; undefined when the server said nothing usable. */
  retryAfterMs?: number;
}

const MAX_DETAIL_CHARS = 300;

/** The endpoint's own wording, shortened, without the key or anything that looks like one. */
export function redact(text: string, apiKey: string | undefined): string {
  let out = text;
  if (apiKey && apiKey.length >= 4) out = out.split(apiKey).join('[redacted]');
  // Providers echo part of a wrong key ("Incorrect API key provided: sk-abc***xyz").
  out = out.replace(/\b(?:sk|pk|rk|or|gsk|key)-[\w*.-]{3,}[\w*]/gi, '[redacted]');
  return out.length > MAX_DETAIL_CHARS ? `${out.slice(0, MAX_DETAIL_CHARS)}…` : out;
}

/** Retry-After in seconds (or an HTTP date), or the non-standard retry-after-ms some gateways send. */
export function retryAfterOf(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value.trim());
  if (value.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function connectionDetail(error: unknown): string {
  // fetch says "fetch failed"; the useful part (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET) is in the causes.
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Classifies what a request threw. `timedOut` says the per-request timer fired (the body can stall after the
 * headers, when the client's own timeout no longer runs, so the service keeps its own).
 */
export function classifyFailure(error: unknown, timedOut: boolean, apiKey: string | undefined): CallFailure {
  if (timedOut || error instanceof APIConnectionTimeoutError) {
    return { code: 'LLM_TIMEOUT', retryable: true, message: 'The model endpoint did not answer in time' };
  }
  if (error instanceof APIConnectionError) {
    return {
      code: 'LLM_UNAVAILABLE',
      retryable: true,
      message: `Could not reach the model endpoint (${redact(connectionDetail(error.cause ?? error), apiKey)})`,
    };
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const retryAfterMs = retryAfterOf(error.headers);
    const detail = redact(error.message, apiKey);
    if (status === 408) return { code: 'LLM_TIMEOUT', retryable: true, status, retryAfterMs, message: detail };
    if (status === 429) {
      return { code: 'LLM_RATE_LIMITED', retryable: true, status, retryAfterMs, message: `Rate limited: ${detail}` };
    }
    if (status >= 500) {
      return { code: 'LLM_UNAVAILABLE', retryable: true, status, retryAfterMs, message: `Endpoint error: ${detail}` };
    }
    if (status === 401 || status === 403) {
      // The endpoint's text is left out on purpose: providers quote the key they were given.
      return {
        code: 'LLM_ERROR',
        retryable: false,
        status,
        message: `The model endpoint refused the credentials (${status}); check LLM_API_KEY`,
      };
    }
    return {
      code: 'LLM_ERROR',
      retryable: false,
      status,
      message: `The model endpoint refused the request: ${detail}`,
    };
  }
  // A body cut short or not JSON after a 200: the endpoint misbehaved, which another attempt may not repeat.
  const detail = error instanceof Error ? error.message : String(error);
  return {
    code: 'LLM_UNAVAILABLE',
    retryable: true,
    message: `Bad answer from the model endpoint: ${redact(detail, apiKey)}`,
  };
}
