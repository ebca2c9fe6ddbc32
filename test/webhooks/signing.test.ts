// Tests of webhook secrets and signatures against the published GitHub and Standard Webhooks vectors.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { describe, it, mock } from 'node:test';
import {
  generateWebhookSecret,
  serviceSignature,
  standardWebhooksSignature,
  verifyServiceSignature,
  verifyStandardWebhooksSignature,
} from '../../src/webhooks/signing.js';

// https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries#testing-the-webhook-payload-validation
const GITHUB = {
  secret: "It's a Secret to Everybody",
  payload: 'Hello, World!',
  signature: 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
};

// The example of the Standard Webhooks specification (standard-webhooks/spec/standard-webhooks.md).
const STANDARD = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('generateWebhookSecret', () => {
  it('is whsec_ + base64 of 32 bytes, different every time', () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    assert.match(a, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(a.slice('whsec_'.length), 'base64').length, 32);
    assert.notEqual(a, b);
  });

  it('signs and verifies with both schemes', () => {
    const secret = generateWebhookSecret();
    const body = '{"event":"webhook.test"}';
    assert.ok(verifyServiceSignature(secret, body, serviceSignature(secret, body)));
    assert.ok(
      verifyStandardWebhooksSignature(
        secret,
        'msg_1',
        1700000000,
        body,
        standardWebhooksSignature(secret, 'msg_1', 1700000000, body),
      ),
    );
  });
});

describe('serviceSignature (X-Service-Signature)', () => {
  it("matches GitHub's published X-Hub-Signature-256 vector", () => {
    assert.equal(serviceSignature(GITHUB.secret, GITHUB.payload), GITHUB.signature);
    assert.equal(serviceSignature(GITHUB.secret, Buffer.from(GITHUB.payload)), GITHUB.signature);
  });

  it('signs the exact bytes: non-ASCII text and its UTF-8 Buffer agree, whitespace changes it', () => {
    const body = '{"title":"Crème brûlée — 東京"}';
    assert.equal(serviceSignature('s', body), serviceSignature('s', Buffer.from(body, 'utf8')));
    assert.notEqual(serviceSignature('s', body), serviceSignature('s', body + '\n'));
    assert.match(serviceSignature('s', body), /^sha256=[0-9a-f]{64}$/);
  });

  it('verifies the vector and accepts uppercase hex and surrounding whitespace', () => {
    assert.ok(verifyServiceSignature(GITHUB.secret, GITHUB.payload, GITHUB.signature));
    assert.ok(
      verifyServiceSignature(GITHUB.secret, GITHUB.payload, `sha256=${GITHUB.signature.slice(7).toUpperCase()}`),
    );
    assert.ok(verifyServiceSignature(GITHUB.secret, GITHUB.payload, ` ${GITHUB.signature} `));
  });

  it('refuses a tampered body, a wrong secret and malformed headers', () => {
    assert.equal(verifyServiceSignature(GITHUB.secret, 'Hello, World?', GITHUB.signature), false);
    assert.equal(verifyServiceSignature(GITHUB.secret, 'Hello, World! ', GITHUB.signature), false);
    assert.equal(verifyServiceSignature("It's a Secret to Nobody", GITHUB.payload, GITHUB.signature), false);
    const hex = GITHUB.signature.slice('sha256='.length);
    for (const header of [
      '',
      hex, // no prefix
      `sha1=${hex}`,
      `sha256=${hex.slice(0, -2)}`, // too short
      `sha256=${hex}00`, // too long
      `sha256=${hex.slice(0, -2)}zz`, // not hex: Buffer.from would silently truncate
      'sha256=',
      `sha256=${Buffer.from(hex, 'hex').toString('base64')}`,
    ]) {
      assert.equal(verifyServiceSignature(GITHUB.secret, GITHUB.payload, header), false, header);
    }
  });
});

describe('standardWebhooksSignature (webhook-signature)', () => {
  it('matches the Standard Webhooks specification example', () => {
    assert.equal(
      standardWebhooksSignature(STANDARD.secret, STANDARD.id, STANDARD.timestamp, STANDARD.body),
      STANDARD.signature,
    );
    assert.equal(
      standardWebhooksSignature(STANDARD.secret, STANDARD.id, STANDARD.timestamp, Buffer.from(STANDARD.body)),
      STANDARD.signature,
    );
  });

  it('takes a secret without its whsec_ prefix as the same key, and refuses one that is not base64', () => {
    const bare = STANDARD.secret.slice('whsec_'.length);
    assert.equal(standardWebhooksSignature(bare, STANDARD.id, STANDARD.timestamp, STANDARD.body), STANDARD.signature);
    assert.throws(() => standardWebhooksSignature('whsec_not base64!', 'id', 1, '{}'), TypeError);
    assert.throws(() => standardWebhooksSignature('whsec_', 'id', 1, '{}'), TypeError);
  });

  it('verifies the example, alone or among several space-separated signatures', () => {
    const { secret, id, timestamp, body, signature } = STANDARD;
    assert.ok(verifyStandardWebhooksSignature(secret, id, timestamp, body, signature));
    const other = standardWebhooksSignature(generateWebhookSecret(), id, timestamp, body);
    assert.ok(verifyStandardWebhooksSignature(secret, id, timestamp, body, `${other} ${signature}`));
    assert.ok(verifyStandardWebhooksSignature(secret, id, timestamp, body, `v2,abcd ${signature}`));
    assert.equal(verifyStandardWebhooksSignature(secret, id, timestamp, body, other), false);
  });

  it('refuses a tampered body, id or timestamp, a wrong secret and malformed headers', () => {
    const { secret, id, timestamp, body, signature } = STANDARD;
    assert.equal(verifyStandardWebhooksSignature(secret, id, timestamp, '{"test": 2432232315}', signature), false);
    assert.equal(verifyStandardWebhooksSignature(secret, 'msg_other', timestamp, body, signature), false);
    assert.equal(verifyStandardWebhooksSignature(secret, id, timestamp + 1, body, signature), false);
    assert.equal(verifyStandardWebhooksSignature(generateWebhookSecret(), id, timestamp, body, signature), false);
    assert.equal(verifyStandardWebhooksSignature('whsec_***', id, timestamp, body, signature), false);
    const b64 = signature.slice('v1,'.length);
    for (const header of [
      '',
      b64,
      `v1${b64}`,
      `v2,${b64}`,
      `v1,${b64.slice(0, -4)}`,
      `v1,${b64}AAAA`,
      'v1,',
      'v1,!!!!',
      `V1,${b64}`,
    ]) {
      assert.equal(verifyStandardWebhooksSignature(secret, id, timestamp, body, header), false, header);
    }
  });
});

describe('verification is constant-time', () => {
  it('compares with timingSafeEqual, and only buffers of equal length', () => {
    // A timing measurement would be flaky; instead the comparison primitive is spied on. Named
    // imports of builtins are live bindings that syncBuiltinESMExports() updates from the module object.
    const spy = mock.method(crypto, 'timingSafeEqual');
    syncBuiltinESMExports();
    try {
      assert.ok(verifyServiceSignature(GITHUB.secret, GITHUB.payload, GITHUB.signature));
      assert.equal(verifyServiceSignature(GITHUB.secret, 'tampered', GITHUB.signature), false);
      assert.ok(
        verifyStandardWebhooksSignature(
          STANDARD.secret,
          STANDARD.id,
          STANDARD.timestamp,
          STANDARD.body,
          STANDARD.signature,
        ),
      );
      assert.equal(spy.mock.callCount(), 3);
      for (const call of spy.mock.calls) {
        const [a, b] = call.arguments as [Buffer, Buffer];
        assert.equal(a.length, b.length);
      }
      // A short signature is refused by the length check without reaching timingSafeEqual (which would throw).
      assert.equal(
        verifyStandardWebhooksSignature(STANDARD.secret, STANDARD.id, STANDARD.timestamp, STANDARD.body, 'v1,AAAA'),
        false,
      );
      assert.equal(spy.mock.callCount(), 3);
    } finally {
      spy.mock.restore();
      syncBuiltinESMExports();
    }
  });

  it('does not throw on signatures of the wrong length (timingSafeEqual would)', () => {
    assert.doesNotThrow(() => verifyServiceSignature('s', 'b', 'sha256=00'));
    assert.doesNotThrow(() => verifyStandardWebhooksSignature(STANDARD.secret, 'i', 1, 'b', 'v1,AAAA'));
  });
});
