// Picks the character encoding of a body (BOM, HTTP charset, <meta>/XML declaration, UTF-8 validity) and decodes it.
import { isUtf8 } from 'node:buffer';
import sniffHtmlEncoding from 'html-encoding-sniffer';
import iconv from 'iconv-lite';
import type { MediaTypeClass } from '../page/content-type.js';

// Sentinel handed to the sniffer as its default so that "nothing declared" can be told apart
// from a real declaration of windows-1252.
const UNDECLARED = '';

const XML_DECLARATION = /^(?:\xef\xbb\xbf)?<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/;

function xmlDeclaredEncoding(bytes: Buffer): string | undefined {
  return XML_DECLARATION.exec(bytes.subarray(0, 1024).toString('latin1'))?.[1];
}

/**
 * The encoding name to decode with, in the WHATWG order: BOM, then the HTTP charset label, then
 * (for HTML) a <meta charset> or <meta http-equiv=Content-Type> in the first 1024 bytes, or (for
 * XML) the XML declaration. With nothing declared: UTF-8 when the bytes are valid UTF-8 (nearly
 * always right today), else windows-1252 as browsers do. JSON is UTF-8 unless the header says otherwise.
 */
export function detectCharset(bytes: Buffer, headerCharset: string | undefined, kind: MediaTypeClass): string {
  // The sniffer handles BOM, label normalization (iso-8859-1 means windows-1252, as in browsers)
  // and the <meta> prescan. The prescan only makes sense for HTML, so other kinds get a slice
  // too short to contain a <meta> when they declare nothing in the header.
  const sniffable = kind === 'html' || kind === 'sniff' ? bytes : bytes.subarray(0, 3);
  let name = sniffHtmlEncoding(sniffable, {
    ...(headerCharset === undefined ? {} : { transportLayerEncodingLabel: headerCharset }),
    defaultEncoding: UNDECLARED,
  });
  if (name === UNDECLARED && kind === 'xml') {
    const declared = xmlDeclaredEncoding(bytes);
    if (declared)
      name = sniffHtmlEncoding(new Uint8Array(0), {
        transportLayerEncodingLabel: declared,
        defaultEncoding: UNDECLARED,
      });
  }
  if (name === UNDECLARED) name = kind === 'json' || isUtf8(bytes) ? 'UTF-8' : 'windows-1252';
  return name.toLowerCase();
}

/** Decodes with iconv-lite (which strips a BOM); encodings it lacks fall back to UTF-8. */
export function decodeBody(bytes: Buffer, charset: string): { text: string; charset: string } {
  if (charset !== 'utf-8' && iconv.encodingExists(charset)) {
    return { text: iconv.decode(bytes, charset), charset };
  }
  return { text: iconv.decode(bytes, 'utf-8'), charset: 'utf-8' };
}
