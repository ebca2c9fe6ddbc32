// Unit tests of the fetcher's pure helpers: content types, charset detection, decoders, redirect rules.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { BodyTooLargeError, readCappedBody } from '../../src/fetch/body.js';
import { decodeBody, detectCharset } from '../../src/fetch/charset.js';
import { classifyMediaType, looksLikeHtml, parseContentType } from '../../src/page/content-type.js';
import { createDecoders, UnsupportedEncodingError } from '../../src/fetch/decompress.js';
import { headersForHop, isRedirectStatus, resolveLocation } from '../../src/fetch/redirects.js';

describe('parseContentType', () => {
  it('splits the media type and charset', () => {
    assert.deepEqual(parseContentType('Text/HTML; Charset="ISO-8859-1"'), {
      mediaType: 'text/html',
      charset: 'ISO-8859-1',
    });
    assert.deepEqual(parseContentType('text/html;charset=utf-8;foo=bar'), { mediaType: 'text/html', charset: 'utf-8' });
    assert.deepEqual(parseContentType('application/json'), { mediaType: 'application/json' });
    assert.deepEqual(parseContentType(undefined), { mediaType: '' });
  });
});

describe('classifyMediaType', () => {
  const cases: Array<[string, string]> = [
    ['text/html', 'html'],
    ['application/xhtml+xml', 'html'],
    ['text/plain', 'text'],
    ['application/json', 'json'],
    ['application/ld+json', 'json'],
    ['application/xml', 'xml'],
    ['text/xml', 'xml'],
    ['application/rss+xml', 'xml'],
    ['application/atom+xml', 'xml'],
    ['', 'sniff'],
    ['application/pdf', 'unsupported'],
    ['image/png', 'unsupported'],
    ['application/octet-stream', 'unsupported'],
    ['application/zip', 'unsupported'],
    ['video/mp4', 'unsupported'],
  ];
  for (const [type, kind] of cases)
    it(`${type || '(none)'} is ${kind}`, () => assert.equal(classifyMediaType(type), kind));
});

describe('looksLikeHtml', () => {
  for (const text of [
    '<!DOCTYPE html><p>x',
    '  \n<html>',
    '<HEAD><title>',
    '<!-- c --><div>',
    '\ufeff<html lang="en">',
    '<?xml version="1.0"?><html xmlns="x">',
  ]) {
    it(`recognises ${JSON.stringify(text)}`, () => assert.equal(looksLikeHtml(Buffer.from(text)), true));
  }
  for (const text of ['%PDF-1.4', '{"a":1}', 'plain words', '<svg></svg>', '']) {
    it(`rejects ${JSON.stringify(text)}`, () => assert.equal(looksLikeHtml(Buffer.from(text)), false));
  }
});

describe('detectCharset', () => {
  const latin = iconv.encode('<html><head><meta charset="iso-8859-2"></head><body>Café</body></html>', 'windows-1252');
  it('lets a BOM win over the header', () => {
    assert.equal(
      detectCharset(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('hi')]), 'windows-1252', 'html'),
      'utf-8',
    );
    assert.equal(detectCharset(Buffer.from([0xff, 0xfe, 0x68, 0x00]), 'utf-8', 'html'), 'utf-16le');
  });
  it('lets the header win over <meta>', () =>
    assert.equal(detectCharset(latin, 'windows-1252', 'html'), 'windows-1252'));
  it('uses <meta> when the header has no charset', () =>
    assert.equal(detectCharset(latin, undefined, 'html'), 'iso-8859-2'));
  it('maps labels the way browsers do', () => {
    assert.equal(detectCharset(latin, 'latin1', 'html'), 'windows-1252');
    assert.equal(detectCharset(latin, 'x-sjis', 'html'), 'shift_jis');
    assert.equal(detectCharset(latin, 'gb2312', 'html'), 'gbk');
  });
  it('ignores an unknown header label', () =>
    assert.equal(detectCharset(latin, 'no-such-charset', 'html'), 'iso-8859-2'));
  it('reads the XML declaration of feeds', () => {
    const xml = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><rss></rss>');
    assert.equal(detectCharset(xml, undefined, 'xml'), 'windows-1252');
  });
  it('does not look for <meta> in plain text', () => {
    assert.equal(detectCharset(Buffer.from('<meta charset="shift_jis"> text'), undefined, 'text'), 'utf-8');
  });
  it('defaults JSON to UTF-8', () =>
    assert.equal(detectCharset(iconv.encode('{"a":"é"}', 'latin1'), undefined, 'json'), 'utf-8'));
  it('prefers UTF-8 when undeclared bytes are valid UTF-8, else windows-1252', () => {
    assert.equal(detectCharset(Buffer.from('<p>Café €</p>'), undefined, 'html'), 'utf-8');
    assert.equal(detectCharset(iconv.encode('<p>Café €</p>', 'windows-1252'), undefined, 'html'), 'windows-1252');
  });
});

describe('decodeBody', () => {
  it('decodes windows-1252 including the euro sign', () => {
    assert.deepEqual(decodeBody(iconv.encode('Müller 5 €', 'windows-1252'), 'windows-1252'), {
      text: 'Müller 5 €',
      charset: 'windows-1252',
    });
  });
  it('strips a UTF-8 BOM', () => {
    assert.equal(decodeBody(Buffer.from('\ufeffhello'), 'utf-8').text, 'hello');
  });
  it('falls back to UTF-8 for an encoding iconv-lite does not know', () => {
    assert.deepEqual(decodeBody(Buffer.from('ok'), 'replacement'), { text: 'ok', charset: 'utf-8' });
  });
});

describe('decoders and the size cap', () => {
  const text = 'hello compressed world '.repeat(100);
  const read = (data: Buffer, encoding: string | undefined, max = 1e6): Promise<Buffer> =>
    readCappedBody(Readable.from([data.subarray(0, 7), data.subarray(7)]), createDecoders(encoding), max);

  it('undoes gzip, zlib deflate, raw deflate and br', async () => {
    assert.equal((await read(zlib.gzipSync(text), 'gzip')).toString(), text);
    assert.equal((await read(zlib.gzipSync(text), 'x-gzip')).toString(), text);
    assert.equal((await read(zlib.deflateSync(text), 'deflate')).toString(), text);
    assert.equal((await read(zlib.deflateRawSync(text), 'deflate')).toString(), text);
    assert.equal((await read(zlib.brotliCompressSync(text), 'br')).toString(), text);
    assert.equal((await read(Buffer.from(text), 'identity')).toString(), text);
  });
  it('undoes stacked encodings in reverse order', async () => {
    assert.equal((await read(zlib.brotliCompressSync(zlib.gzipSync(text)), 'gzip, br')).toString(), text);
  });
  it('refuses an unknown encoding', () => {
    assert.throws(() => createDecoders('zstd'), UnsupportedEncodingError);
  });
  it('fails on corrupt data', async () => {
    await assert.rejects(read(Buffer.from('definitely not gzip data'), 'gzip'), { code: 'Z_DATA_ERROR' });
  });
  it('counts decompressed bytes against the cap', async () => {
    const bomb = zlib.deflateSync(Buffer.alloc(20 * 1024 * 1024));
    await assert.rejects(read(bomb, 'deflate', 1024 * 1024), BodyTooLargeError);
    await assert.rejects(read(zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024)), 'gzip', 1024 * 1024), BodyTooLargeError);
  });
  it('allows a body of exactly the cap', async () => {
    assert.equal((await read(Buffer.alloc(1000), undefined, 1000)).length, 1000);
    await assert.rejects(read(Buffer.alloc(1001), undefined, 1000), BodyTooLargeError);
  });
});

describe('redirect rules', () => {
  it('knows the redirect statuses', () => {
    for (const s of [301, 302, 303, 307, 308]) assert.equal(isRedirectStatus(s), true);
    for (const s of [200, 300, 304, 305, 404]) assert.equal(isRedirectStatus(s), false);
  });
  it('resolves relative Locations', () => {
    const base = new URL('http://a.example/dir/page?q=1');
    assert.equal(resolveLocation('other', base)?.href, 'http://a.example/dir/other');
    assert.equal(resolveLocation('../up', base)?.href, 'http://a.example/up');
    assert.equal(resolveLocation('//b.example/x', base)?.href, 'http://b.example/x');
    assert.equal(resolveLocation('?p=2', base)?.href, 'http://a.example/dir/page?p=2');
    assert.equal(resolveLocation('http://[bad', base), null);
  });
  it('keeps credentials on the same origin only', () => {
    const headers = { authorization: 'Bearer x', cookie: 'a=b', 'user-agent': 'ua' };
    const a = new URL('https://a.example/1');
    assert.equal(headersForHop(headers, a, new URL('https://a.example/2')), headers);
    assert.deepEqual(headersForHop(headers, a, new URL('http://a.example/2')), { 'user-agent': 'ua' });
    assert.deepEqual(headersForHop(headers, a, new URL('https://b.example/')), { 'user-agent': 'ua' });
  });
});
