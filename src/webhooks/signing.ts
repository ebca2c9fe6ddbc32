// Webhook secrets and signatures: the service's X-Service-Signature and the Standard Webhooks webhook-signature.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const SERVICE_PREFIX = 'sha256=';
const STANDARD_VERSION = 'v1,';
// Standard base64 (not base64url): what the Standard Webhooks libraries decode secrets with.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const SHA256_HEX = /^[0-9a-f]{64}$/i;

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/**
 * 'sha256=' + lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the secret string's UTF-8 bytes (as GitHub
 * does).
 */
export function serviceSignature(secret: string, body: string | Buffer): string {
  return SERVICE_PREFIX + serviceDigest(secret, body).toString('hex');
}

function serviceDigest(secret: string, body: string | Buffer): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest();
}

/**
 * The Standard Webhooks key: the base64 after the `whsec_` prefix, decoded. Buffer.from(…, 'base64')
 * silently skips invalid characters, which would sign with a different key than the receiver's
 * library (which refuses such a secret), so a malformed secret is an error rather than a wrong signature.
 */
function standardKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (encoded === '' || !BASE64.test(encoded))
    throw new TypeError('Webhook secret is not base64 after its whsec_ prefix');
  return Buffer.from(encoded, 'base64');
}

function standardDigest(key: Buffer, id: string, timestampSeconds: number, body: string | Buffer): Buffer {
  // Fed in pieces so a Buffer body is signed as its exact bytes, never re-decoded as text.
  return createHmac('sha256', key).update(`${id}.${timestampSeconds}.`, 'utf8').update(body).digest();
}

/**
 * Standard Webhooks: 'v1,' + base64 HMAC-SHA256 of `${id}.${timestampSeconds}.${body}`, keyed with base64-decoded
 * secret after the 'whsec_' prefix.
 */
export function standardWebhooksSignature(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string | Buffer,
): string {
  return STANDARD_VERSION + standardDigest(standardKey(secret), id, timestampSeconds, body).toString('base64');
}

/** Constant-time comparison; the length check comes first because timingSafeEqual throws on unequal lengths. */
function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Checks an `X-Service-Signature` header (`sha256=<hex>`) against the body, in constant time. */
export function verifyServiceSignature(secret: string, body: string | Buffer, header: string): boolean {
  const value = header.trim();
  if (!value.startsWith(SERVICE_PREFIX)) return false;
  const hex = value.slice(SERVICE_PREFIX.length);
  // Buffer.from(hex) stops at the first non-hex character; the regex keeps "abc…zz" from matching a prefix.
  if (!SHA256_HEX.test(hex)) return false;
  return sameBytes(Buffer.from(hex, 'hex'), serviceDigest(secret, body));
}

/**
 * Checks a `webhook-signature` header, which may hold several space-separated signatures
 * (`v1,<base64>`; several while a receiver rotates secrets). Entries of other versions are skipped.
 * The timestamp's freshness is the receiver's call and is not checked here.
 */
export function verifyStandardWebhooksSignature(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string | Buffer,
  header: string,
): boolean {
  let expected: Buffer;
  try {
    expected = standardDigest(standardKey(secret), id, timestampSeconds, body);
  } catch {
    return false;
  }
  let matched = false;
  for (const entry of header.split(' ')) {
    if (!entry.startsWith(STANDARD_VERSION)) continue;
    const encoded = entry.slice(STANDARD_VERSION.length);
    if (!BASE64.test(encoded)) continue;
    // No early return: every entry is compared, so timing does not tell which one matched.
    if (sameBytes(Buffer.from(encoded, 'base64'), expected)) matched = true;
  }
  return matched;
}
