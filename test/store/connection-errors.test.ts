import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { connectionErrorLogger } from '../../src/store/connection-errors.js';

describe('connectionErrorLogger', () => {
  it('logs the first broken connection of a burst and counts the rest in the next line', () => {
    const lines: Array<{ msg: string; alsoBroken: number }> = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    let now = 0;
    const report = connectionErrorLogger(logger, 10_000, () => now);
    for (let i = 0; i < 10; i++) report(new Error('terminating connection due to administrator command'));
    assert.equal(lines.length, 1);
    now = 9_999;
    report(new Error('Connection terminated unexpectedly'));
    assert.equal(lines.length, 1);
    now = 10_000;
    report(new Error('Connection terminated unexpectedly'));
    assert.equal(lines.length, 2);
    assert.equal(lines[1]?.alsoBroken, 10);
    assert.match(lines[0]?.msg ?? '', /database connection lost/);
  });
});
