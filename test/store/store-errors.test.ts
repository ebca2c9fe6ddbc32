import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyStoreError } from '../../src/store/store-errors.js';

const withCode = (code: string, message = 'x'): Error => Object.assign(new Error(message), { code });

describe('classifyStoreError', () => {
  const cases: Array<[string, unknown, ReturnType<typeof classifyStoreError>]> = [
    ['SQLite full disk', withCode('SQLITE_FULL', 'database or disk is full'), 'full'],
    ['PostgreSQL disk_full', withCode('53100'), 'full'],
    ['SQLite busy', withCode('SQLITE_BUSY'), 'unavailable'],
    ['SQLite I/O error', withCode('SQLITE_IOERR_WRITE'), 'unavailable'],
    ['admin_shutdown', withCode('57P01', 'terminating connection due to administrator command'), 'unavailable'],
    ['cannot_connect_now', withCode('57P03'), 'unavailable'],
    ['connection exception class', withCode('08006'), 'unavailable'],
    ['refused', withCode('ECONNREFUSED'), 'unavailable'],
    ['pg connect timeout', new Error('timeout exceeded when trying to connect'), 'unavailable'],
    ['pg broken client', new Error('Connection terminated unexpectedly'), 'unavailable'],
    // A page's fetch error carries the site's socket error as its cause: the site failed, not the store.
    [
      'a socket error in a cause',
      Object.assign(new Error('The server closed the connection'), {
        code: 'CONNECTION_RESET',
        cause: withCode('ECONNRESET'),
      }),
      undefined,
    ],
    ['unique violation is ours', withCode('23505'), undefined],
    ['SQLite constraint is ours', withCode('SQLITE_CONSTRAINT_UNIQUE'), undefined],
    ['a plain bug', new TypeError('x is undefined'), undefined],
    ['not an error', 'nope', undefined],
  ];
  for (const [name, error, expected] of cases) {
    it(name, () => assert.equal(classifyStoreError(error), expected));
  }
});
