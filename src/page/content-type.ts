// Content-Type parsing and the policy of which media types a page is returned as text in (by either engine).

export interface ParsedContentType {
  /** Lower-case media type without parameters; '' when the header is missing or empty. */
  mediaType: string;
  /** The charset parameter as sent (a label, not yet normalized), if any. */
  charset?: string;
}

export function parseContentType(header: string | undefined): ParsedContentType {
  if (!header) return { mediaType: '' };
  const [type = '', ...params] = header.split(';');
  const result: ParsedContentType = { mediaType: type.trim().toLowerCase() };
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq === -1) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const value = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim();
    if (value) result.charset = value;
    break;
  }
  return result;
}

const TEXT_TYPES = new Set([
  'text/html',
  'application/xhtml+xml',
  'text/plain',
  'application/xml',
  'text/xml',
  'application/rss+xml',
  'application/atom+xml',
  'application/json',
]);

export type MediaTypeClass = 'html' | 'text' | 'xml' | 'json' | 'sniff' | 'unsupported';

/** How a media type is handled: returned as text of some kind, sniffed (missing), or refused. */
export function classifyMediaType(mediaType: string): MediaTypeClass {
  if (mediaType === '') return 'sniff';
  if (!TEXT_TYPES.has(mediaType) && !/^application\/[a-z0-9.+-]+\+(xml|json)$/.test(mediaType)) return 'unsupported';
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') return 'html';
  if (mediaType === 'text/plain') return 'text';
  if (mediaType.endsWith('json')) return 'json';
  return 'xml';
}

// Tag names the WHATWG MIME sniffing algorithm uses to recognise HTML.
const HTML_START =
  /^(?:<!doctype html|<html|<head|<script|<iframe|<h1|<div|<font|<table|<a|<style|<title|<b|<body|<br|<p|<!--)[\s>]/i;

/** WHATWG-style "looks like HTML" test on the first bytes, for responses without Content-Type. */
export function looksLikeHtml(bytes: Buffer): boolean {
  let head = bytes.subarray(0, 1024).toString('latin1');
  if (head.charCodeAt(0) === 0xef && head.startsWith('\xef\xbb\xbf')) head = head.slice(3);
  head = head.replace(/^[\t\n\f\r ]+/, '');
  return HTML_START.test(head) || /<html[\s>]/i.test(head);
}
