// Worker-thread entry of the extraction pool: runs extractPage off the main thread.
import { type ExtractInput, type ExtractResult, extractPage } from './extract/index.js';

export default function extract(input: ExtractInput): ExtractResult {
  return extractPage(input);
}
