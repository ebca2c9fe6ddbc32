// Worker-thread entry of the extraction pool: runs extractPage off the main thread.
import type { MessagePort } from 'node:worker_threads';
import { type ExtractInput, type ExtractResult, extractPage } from './extract/index.js';

export interface ExtractTask {
  input: ExtractInput;
  /** Told when this thread begins the page: the page's time budget runs from then (extractor.ts). */
  began: MessagePort;
}

export default function extract(task: ExtractTask): ExtractResult {
  task.began.postMessage(null);
  task.began.close();
  return extractPage(task.input);
}
