// Decoders for Content-Encoding (gzip, deflate in both zlib-wrapped and raw form, br).
import { Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';

/**
 * "deflate" is zlib-wrapped by the RFC but some servers send raw deflate, as browsers tolerate.
 * The first byte tells them apart (a zlib header has compression method 8 in its low nibble).
 * Inner output is forwarded with backpressure, so a deflate bomb does not run ahead of the
 * size cap.
 */
class AutoInflate extends Transform {
  private inner: zlib.Inflate | zlib.InflateRaw | null = null;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.inner) {
      const opts = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
      const inner = (chunk[0]! & 0x0f) === 0x08 ? zlib.createInflate(opts) : zlib.createInflateRaw(opts);
      inner.on('data', (data: Buffer) => {
        if (!this.push(data)) inner.pause();
      });
      inner.on('error', (err) => this.destroy(err));
      this.inner = inner;
    }
    this.inner.write(chunk, () => callback());
  }

  override _read(size: number): void {
    this.inner?.resume();
    super._read(size);
  }

  override _flush(callback: TransformCallback): void {
    const inner = this.inner;
    if (!inner) return callback();
    inner.once('end', () => callback());
    inner.end();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.inner?.destroy();
    callback(err);
  }
}

export class UnsupportedEncodingError extends Error {
  constructor(readonly encoding: string) {
    super(`unsupported Content-Encoding "${encoding}"`);
  }
}

/**
 * Streams that undo a Content-Encoding header, in the order to apply them (the header lists
 * encodings in the order they were applied). Truncated streams are flushed leniently, as
 * browsers do, rather than failing the page.
 */
export function createDecoders(contentEncoding: string | undefined): Transform[] {
  if (!contentEncoding) return [];
  const codings = contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  return codings.reverse().map((coding): Transform => {
    switch (coding) {
      case 'gzip':
      case 'x-gzip':
        return zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
      case 'deflate':
        return new AutoInflate();
      case 'br':
        return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
      default:
        throw new UnsupportedEncodingError(coding);
    }
  });
}
