// A thread that fails outside any task makes piscina emit 'error' on the pool; with no listener, that emit throws
// and ends the process. Seen in CI: a thread ran out of memory while it was torn down after an aborted page, and the
// service exited with "Unhandled 'error' event ... on Piscina instance". The extraction lanes keep a listener
// (scrape/extractor.ts).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Piscina } from 'piscina';
import { ignoreStrayThreadErrors } from '../../src/scrape/extractor.js';

const outOfMemory = Object.assign(new Error('Worker terminated due to reaching memory limit: JS heap out of memory'), {
  code: 'ERR_WORKER_OUT_OF_MEMORY',
});

it('a pool without the listener throws on such an error (the crash), one with it notes the error and goes on', async () => {
  const bare = new Piscina({ filename: new URL('../../src/scrape/extract-worker.ts', import.meta.url).href });
  assert.throws(() => bare.emit('error', outOfMemory), /memory limit/);
  await bare.destroy();

  const guarded = new Piscina({ filename: new URL('../../src/scrape/extract-worker.ts', import.meta.url).href });
  const seen: unknown[] = [];
  ignoreStrayThreadErrors(guarded, (error) => seen.push(error));
  assert.doesNotThrow(() => guarded.emit('error', outOfMemory));
  assert.deepEqual(seen, [outOfMemory]);
  await guarded.destroy();
});
