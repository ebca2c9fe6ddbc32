// One image of a page, made ready for OCR: fetched through the guarded fetcher (address guard, size cap, time limit),
// its type checked, decoded (the first frame of a GIF) and scaled down to a pixel budget, as greyscale PNG.
import sharp, { type Sharp } from 'sharp';
import { fetchPage, FetchError } from '../fetch/index.js';
import type { Resolver } from '../net/address-guard.js';

// libvips' own cache keeps decoded images between calls; OCR reads each image once.
sharp.cache(false);

/** The media types read; anything else is skipped as `unsupported_type`. */
export const OCR_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
const DECODED_FORMATS = new Set(['png', 'jpeg', 'webp', 'gif']);

export interface ImageLimits {
  /** Bytes of one image at most (OCR_MAX_IMAGE_BYTES). */
  maxBytes: number;
  /** Pixels an image may declare at most (OCR_MAX_INPUT_PIXELS): a decompression bomb is refused before decoding. */
  maxInputPixels: number;
  /** Pixels OCR reads at most (OCR_MAX_PIXELS): larger images are scaled down to it. */
  maxPixels: number;
  timeoutMs: number;
}

export interface ImageFetchContext {
  userAgent: string;
  allowPrivateAddresses: boolean;
  proxy?: { url: string; allowPrivate: boolean };
  resolve?: Resolver;
  signal?: AbortSignal;
}

export type SkipReason = 'fetch_failed' | 'blocked' | 'http_status' | 'unsupported_type' | 'too_large' | 'undecodable';

export class ImageSkipped extends Error {
  constructor(
    readonly reason: SkipReason,
    message: string,
  ) {
    super(message);
    this.name = 'ImageSkipped';
  }
}

/** The image's bytes, or ImageSkipped saying why not. */
export async function fetchImage(url: string, limits: ImageLimits, ctx: ImageFetchContext): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let fetched;
  try {
    fetched = await fetchPage({
      url,
      timeoutMs: limits.timeoutMs,
      ...(ctx.proxy ? { proxy: ctx.proxy.url, proxyAllowPrivate: ctx.proxy.allowPrivate } : {}),
      allowPrivateAddresses: ctx.allowPrivateAddresses,
      ...(ctx.resolve ? { resolve: ctx.resolve } : {}),
      maxBytes: limits.maxBytes,
      maxRedirects: 5,
      userAgent: ctx.userAgent,
      headers: { accept: 'image/png,image/jpeg,image/webp,image/gif;q=0.9' },
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      bodySink: (chunk) => {
        chunks.push(chunk);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof FetchError) {
      if (error.code === 'TOO_LARGE')
        throw new ImageSkipped('too_large', `The image is over ${limits.maxBytes} bytes (OCR_MAX_IMAGE_BYTES)`);
      if (error.code === 'BLOCKED_ADDRESS') throw new ImageSkipped('blocked', error.message);
      if (error.code === 'ABORTED') throw error;
      throw new ImageSkipped('fetch_failed', error.message);
    }
    throw error;
  }
  if (fetched.statusCode < 200 || fetched.statusCode > 299)
    throw new ImageSkipped('http_status', `The image answered HTTP ${fetched.statusCode}`);
  if (!OCR_IMAGE_TYPES.has(fetched.contentType))
    throw new ImageSkipped('unsupported_type', `The image's type is ${fetched.contentType || 'not given'}`);
  return Buffer.concat(chunks);
}

/** Greyscale PNG of at most `maxPixels` pixels, for Tesseract; ImageSkipped when the bytes are not such an image. */
export async function prepareImage(bytes: Buffer, limits: ImageLimits): Promise<Buffer> {
  let image: Sharp;
  let width: number;
  let height: number;
  try {
    // limitInputPixels is checked against the header before any pixel is decoded; pages: 1 is a GIF's first frame.
    image = sharp(bytes, { limitInputPixels: limits.maxInputPixels, pages: 1, failOn: 'error' });
    const meta = await image.metadata();
    if (!meta.format || !DECODED_FORMATS.has(meta.format))
      throw new ImageSkipped('unsupported_type', `The image's bytes are ${meta.format ?? 'not an image'}`);
    width = meta.width;
    height = meta.pageHeight ?? meta.height;
  } catch (error) {
    if (error instanceof ImageSkipped) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message))
      throw new ImageSkipped('too_large', `The image declares more than ${limits.maxInputPixels} pixels`);
    throw new ImageSkipped('undecodable', `The image could not be decoded: ${message}`);
  }
  const scale = Math.min(1, Math.sqrt(limits.maxPixels / Math.max(1, width * height)));
  try {
    let pipeline = image.flatten({ background: '#ffffff' }).greyscale();
    if (scale < 1)
      pipeline = pipeline.resize(Math.max(1, Math.floor(width * scale)), Math.max(1, Math.floor(height * scale)));
    return await pipeline.png({ compressionLevel: 1 }).toBuffer();
  } catch (error) {
    throw new ImageSkipped(
      'undecodable',
      `The image could not be decoded: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
