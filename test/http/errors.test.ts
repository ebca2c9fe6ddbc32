// The HTTP answer of every domain error: toApiError's status, body and headers, and the error handler sending them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import {
  CapabilityUnavailableError,
  ConflictError,
  DomainError,
  InvalidInputError,
  NotFoundError,
  OperationFailedError,
  RateLimitedError,
} from '../../src/domain/errors.js';
import { installErrorHandling } from '../../src/http/error-handler.js';
import { databaseUnavailable, storageFull, toApiError } from '../../src/http/errors.js';
import { RouteTable } from '../../src/http/route-table.js';

const ONE_ISSUE = [{ field: 'formats.0', code: 'custom', message: "Format 'json' is not available" }];
const TWO_ISSUES = [
  { field: 'url', code: 'invalid_string', message: 'Must be an absolute http:// or https:// URL' },
  { field: '', code: 'too_deep', message: 'Too deep' },
];
const DATA = { job_id: '6f1c3c1e-6d5a-4d8e-9a43-2f1f8f0f7a10', url: 'https://example.com/', status: 'failed' };

/** Each domain error, with the status, body (without `success`) and headers clients have always had for it. */
const CASES: Array<{
  name: string;
  error: DomainError;
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}> = [
  {
    name: 'invalid input, one issue: the issue as message',
    error: new InvalidInputError([{ field: 'webhook_url', code: 'custom', message: 'Must be https' }]),
    status: 400,
    body: {
      error: 'Validation error',
      message: 'webhook_url: Must be https',
      data: {
        type: 'validation_error',
        issues: [{ field: 'webhook_url', code: 'custom', message: 'Must be https' }],
        status: 'failed',
      },
    },
  },
  {
    name: 'invalid input, several issues: how many',
    error: new InvalidInputError(TWO_ISSUES),
    status: 400,
    body: {
      error: 'Validation error',
      message: '2 problems in the request; see data.issues',
      data: { type: 'validation_error', issues: TWO_ISSUES, status: 'failed' },
    },
  },
  {
    name: 'invalid input, an issue of the whole input: no field prefix',
    error: new InvalidInputError([{ field: '', code: 'invalid_json', message: 'Malformed JSON' }]),
    status: 400,
    body: {
      error: 'Validation error',
      message: 'Malformed JSON',
      data: {
        type: 'validation_error',
        issues: [{ field: '', code: 'invalid_json', message: 'Malformed JSON' }],
        status: 'failed',
      },
    },
  },
  {
    name: 'an unavailable capability: a validation error naming the fields',
    error: new CapabilityUnavailableError(ONE_ISSUE),
    status: 400,
    body: {
      error: 'Validation error',
      message: "formats.0: Format 'json' is not available",
      data: { type: 'validation_error', issues: ONE_ISSUE, status: 'failed' },
    },
  },
  {
    name: 'not found',
    error: new NotFoundError('job'),
    status: 404,
    body: { error: 'Not found', message: 'Job not found' },
  },
  {
    name: 'conflict',
    error: new ConflictError('Job already finished', 'Finished jobs cannot be cancelled'),
    status: 409,
    body: { error: 'Job already finished', message: 'Finished jobs cannot be cancelled' },
  },
  {
    name: 'rate limited: 429 with Retry-After',
    error: new RateLimitedError(42, 'Too many test deliveries; try again in 42 s'),
    status: 429,
    body: { error: 'Too many requests', message: 'Too many test deliveries; try again in 42 s' },
    headers: { 'retry-after': '42' },
  },
  ...(
    [
      ['refused', 400, 'Blocked address', 'BLOCKED_ADDRESS'],
      ['internal', 500, 'Internal server error', 'INTERNAL'],
      ['upstream', 502, 'DNS lookup failed', 'DNS_FAILURE'],
      ['unavailable', 503, 'Browser unavailable', 'BROWSER_UNAVAILABLE'],
      ['timeout', 504, 'Target timed out', 'TIMEOUT'],
    ] as const
  ).map(([kind, status, title, code]) => ({
    name: `an operation failed (${kind}): ${status} with its code and data`,
    error: new OperationFailedError(kind, title, code, `${code} happened`, DATA),
    status,
    body: { error: title, code, message: `${code} happened`, data: DATA },
  })),
];

describe('toApiError', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const answer = toApiError(c.error);
      assert.ok(answer);
      assert.equal(answer.statusCode, c.status);
      assert.deepEqual(answer.body, c.body);
      assert.deepEqual(answer.headers, c.headers ?? {});
      assert.equal(answer.message, c.error.message, 'the message clients read is the error message');
    });
  }

  it('has no answer for a domain error it does not know', () => {
    class Unmapped extends DomainError {}
    assert.equal(toApiError(new Unmapped('?')), undefined);
  });

  it('gives the store failures their Retry-After', () => {
    assert.deepEqual(databaseUnavailable().headers, { 'retry-after': '5' });
    assert.deepEqual(storageFull().headers, { 'retry-after': '5' });
  });
});

describe('the error handler', () => {
  async function appThrowing(error: Error) {
    const app = Fastify({ logger: false });
    installErrorHandling(app, new RouteTable());
    app.get('/throw', async () => {
      throw error;
    });
    await app.ready();
    return app;
  }

  for (const c of CASES) {
    it(`sends ${c.name}`, async () => {
      const app = await appThrowing(c.error);
      const res = await app.inject({ method: 'GET', url: '/throw' });
      assert.equal(res.statusCode, c.status);
      assert.deepEqual(res.json(), { success: false, ...c.body });
      for (const [name, value] of Object.entries(c.headers ?? {})) assert.equal(res.headers[name], value, name);
      if (!c.headers?.['retry-after']) assert.equal(res.headers['retry-after'], undefined);
      await app.close();
    });
  }

  it('answers a domain error without an answer as a fault of ours', async () => {
    class Unmapped extends DomainError {}
    const app = await appThrowing(new Unmapped('?'));
    const res = await app.inject({ method: 'GET', url: '/throw' });
    assert.equal(res.statusCode, 500);
    assert.equal(res.json().error, 'Internal server error');
    await app.close();
  });
});
