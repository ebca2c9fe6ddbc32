// Reading a PNG's dimensions from its header, without decoding the image.
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngSize {
  width: number;
  height: number;
}

/** Width and height from the IHDR chunk, or undefined when the bytes are not a PNG. */
export function pngSize(bytes: Buffer): PngSize | undefined {
  // Signature (8) + chunk length (4) + "IHDR" (4) + width (4) + height (4).
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(SIGNATURE)) return undefined;
  if (bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
