// How many extraction threads a machine gets by default.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { defaultExtractThreads } from '../../src/scrape/extractor.js';

it('leaves one core to the main thread: at least one thread, at most four', () => {
  assert.deepEqual(
    [1, 2, 3, 4, 5, 8, 64].map((cores) => defaultExtractThreads(cores)),
    [1, 1, 2, 3, 4, 4, 4],
  );
});
