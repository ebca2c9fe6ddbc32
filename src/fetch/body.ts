// Reads a response body through its decoders, stopping as soon as the decompressed size passes the cap.
import { pipeline, type Readable, type Transform } from 'node:stream';

const noop = (): void => undefined;

/**
 * Destroys a response body so its socket is released. undici's body emits 'error' when destroyed
 * before its end, which would crash the process without a listener.
 */
export function destroyBody(stream: Readable): void {
  stream.on('error', noop);
  stream.destroy();
}

export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`body exceeds ${maxBytes} bytes`);
  }
}

/**
 * Counting happens on decompressed bytes, so a gzip bomb stops at the cap; both the decoders
 * and the socket-side stream are destroyed on every exit that is not a clean end.
 */
export async function readCappedBody(source: Readable, decoders: Transform[], maxBytes: number): Promise<Buffer> {
  // pipeline() returns its last stream (a Transform here, so Readable; its typings only say
  // "Readable | WritableStream") and destroys every stream of the chain on error.
  const stream: Readable =
    decoders.length === 0 ? source : (pipeline([source, ...decoders], () => undefined) as unknown as Readable);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buf = chunk as Buffer;
      total += buf.length;
      if (total > maxBytes) throw new BodyTooLargeError(maxBytes);
      chunks.push(buf);
    }
  } catch (err) {
    destroyBody(stream);
    destroyBody(source);
    throw err;
  }
  return Buffer.concat(chunks, total);
}

/**
 * readCappedBody's stream, handed chunk by chunk to `sink` (awaited) instead of kept; `sink` answering false
 * stops the read. Answers the decompressed bytes read.
 */
export async function streamCappedBody(
  source: Readable,
  decoders: Transform[],
  maxBytes: number,
  sink: (chunk: Buffer) => Promise<boolean> | boolean,
): Promise<number> {
  const stream: Readable =
    decoders.length === 0 ? source : (pipeline([source, ...decoders], () => undefined) as unknown as Readable);
  let total = 0;
  let complete = true;
  try {
    for await (const chunk of stream) {
      const buf = chunk as Buffer;
      total += buf.length;
      if (total > maxBytes) throw new BodyTooLargeError(maxBytes);
      if (!(await sink(buf))) {
        complete = false;
        break;
      }
    }
  } catch (err) {
    destroyBody(stream);
    destroyBody(source);
    throw err;
  }
  if (!complete) {
    destroyBody(stream);
    destroyBody(source);
  }
  return total;
}
