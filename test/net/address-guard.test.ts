// Tests of the private-address guard: IP classification, literal host checks and the guarded lookup.
import assert from 'node:assert/strict';
import { createServer, connect, type Server, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  BlockedAddressError,
  checkHostLiteral,
  createGuardedLookup,
  isPrivateAddress,
  resolvePublicAddresses,
  type Resolver,
} from '../../src/net/address-guard.js';

describe('isPrivateAddress', () => {
  const privateAddresses = [
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '10.255.255.255',
    '100.64.0.1',
    '100.127.255.254',
    '127.0.0.1',
    '127.255.0.9',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '64:ff9b::7f00:1',
    '64:ff9b::808:808',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '::7f00:1',
    '::a00:1',
    '2001:db8::1',
    '[::1]',
    'not an ip',
    '',
  ];
  const publicAddresses = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '198.17.255.255',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '[2606:4700:4700::1111]',
  ];
  for (const ip of privateAddresses)
    it(`refuses ${JSON.stringify(ip)}`, () => assert.equal(isPrivateAddress(ip), true));
  for (const ip of publicAddresses) it(`allows ${ip}`, () => assert.equal(isPrivateAddress(ip), false));
});

describe('checkHostLiteral', () => {
  const refused = [
    'localhost',
    'LOCALHOST',
    'localhost.',
    'foo.localhost',
    'Foo.LocalHost.',
    '2130706433',
    '0177.0.0.1',
    '0x7f.0.0.1',
    '0x7f000001',
    '017700000001',
    '127.1',
    '0x7f.1',
    '127.0.0.1',
    '127.0.0.1.',
    '0.0.0.0',
    '0',
    '10.1',
    '[::1]',
    '::1',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[0:0:0:0:0:ffff:127.0.0.1]',
    '[fe80::1]',
    '[::]',
    '169.254.169.254',
    '4294967295',
    '08.1.1.1',
    '1.2.3.256',
    '',
  ];
  for (const host of refused) {
    it(`refuses raw ${JSON.stringify(host)}`, () => {
      const verdict = checkHostLiteral(host);
      assert.equal(verdict.allowed, false);
    });
  }
  // What a URL parser hands over: WHATWG normalizes the IPv4 forms to dotted quads first.
  const refusedUrls = [
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.0.0.1/',
    'http://127.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0/',
    'http://0/',
    'http://localhost./',
    'http://LocalHost:8080/',
    'http://a.b.localhost/',
    'http://127.0.0.1./',
    'http://[fd00::1]/',
  ];
  for (const url of refusedUrls) {
    it(`refuses the host of ${url} (${new URL(url).hostname})`, () => {
      assert.equal(checkHostLiteral(new URL(url).hostname).allowed, false);
    });
  }

  const allowed: Array<[string, string | null]> = [
    ['example.com', null],
    ['Example.COM.', null],
    ['localhost.example.com', null],
    ['8.8.8.8', '8.8.8.8'],
    ['134744072', '8.8.8.8'],
    ['0x8.0x8.0x8.0x8', '8.8.8.8'],
    ['010.010.010.010', '8.8.8.8'],
    ['1.1', '1.0.0.1'],
    ['[2606:4700:4700::1111]', '2606:4700:4700::1111'],
    ['[::ffff:8.8.8.8]', '::ffff:8.8.8.8'],
    ['xn--bcher-kva.example', null],
  ];
  for (const [host, ip] of allowed) {
    it(`allows ${host}`, () => assert.deepEqual(checkHostLiteral(host), { allowed: true, ip }));
  }
  for (const url of ['http://134744072/', 'http://0x8.8.8.8/', 'http://8.8.8.8/', 'http://[2001:4860:4860::8888]/']) {
    it(`allows the host of ${url}`, () => assert.equal(checkHostLiteral(new URL(url).hostname).allowed, true));
  }

  it('reports the normalized address of a refused literal', () => {
    assert.deepEqual(checkHostLiteral('0x7f.1'), { allowed: false, address: '127.0.0.1', reason: 'private address' });
    assert.deepEqual(checkHostLiteral('[::ffff:7f00:1]'), {
      allowed: false,
      address: '::ffff:127.0.0.1',
      reason: 'private address',
    });
    assert.deepEqual(checkHostLiteral('my.localhost'), {
      allowed: false,
      address: 'my.localhost',
      reason: 'local name',
    });
  });
});

describe('BlockedAddressError', () => {
  it('names the host, the address and the setting that lifts the guard', () => {
    assert.equal(
      new BlockedAddressError('127.0.0.1', '127.0.0.1').message,
      'Refused to connect to 127.0.0.1 (private address); set ALLOW_LOCAL_TARGETS=true to allow',
    );
    const err = new BlockedAddressError('hooks.example', '10.0.0.5', { setting: 'ALLOW_LOCAL_WEBHOOKS' });
    assert.match(err.message, /hooks\.example.*10\.0\.0\.5.*ALLOW_LOCAL_WEBHOOKS=true/);
    assert.equal(err.code, 'BLOCKED_ADDRESS');
    assert.ok(err instanceof Error);
  });
});

describe('resolvePublicAddresses', () => {
  const fixed =
    (...addresses: string[]): Resolver =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('returns every address of a public name', async () => {
    const result = await resolvePublicAddresses('public.test', {
      allowPrivate: false,
      resolve: fixed('8.8.8.8', '2606:4700::1'),
    });
    assert.deepEqual(
      result.map((a) => a.address),
      ['8.8.8.8', '2606:4700::1'],
    );
  });
  it('refuses a name when any of its addresses is private (DNS rebinding)', async () => {
    await assert.rejects(
      resolvePublicAddresses('rebind.test', { allowPrivate: false, resolve: fixed('8.8.8.8', '10.0.0.1') }),
      (err: unknown) => err instanceof BlockedAddressError && err.address === '10.0.0.1' && err.host === 'rebind.test',
    );
  });
  it('refuses local names and private literals without resolving', async () => {
    let calls = 0;
    const counting: Resolver = async () => {
      calls++;
      return [{ address: '8.8.8.8', family: 4 }];
    };
    await assert.rejects(
      resolvePublicAddresses('localhost', { allowPrivate: false, resolve: counting }),
      BlockedAddressError,
    );
    await assert.rejects(
      resolvePublicAddresses('127.1', { allowPrivate: false, resolve: counting }),
      BlockedAddressError,
    );
    assert.equal(calls, 0);
  });
  it('allows everything with allowPrivate', async () => {
    const result = await resolvePublicAddresses('rebind.test', { allowPrivate: true, resolve: fixed('127.0.0.1') });
    assert.deepEqual(result, [{ address: '127.0.0.1', family: 4 }]);
  });
  it('reports an empty answer as ENOTFOUND', async () => {
    await assert.rejects(resolvePublicAddresses('empty.test', { allowPrivate: false, resolve: fixed() }), {
      code: 'ENOTFOUND',
    });
  });
  it('uses real DNS by default (.invalid never resolves)', async () => {
    await assert.rejects(
      resolvePublicAddresses('nothing-here.invalid', { allowPrivate: false }),
      (err: NodeJS.ErrnoException) => ['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME'].includes(err.code ?? ''),
    );
  });
});

describe('createGuardedLookup with net.connect', () => {
  let server: Server;
  let port: number;
  before(async () => {
    server = createServer((socket) => socket.end('hello'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const toLoopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

  function tryConnect(
    host: string,
    allowPrivate: boolean,
    resolve: Resolver,
    autoSelectFamily = true,
  ): Promise<string> {
    return new Promise((resolvePromise, reject) => {
      const socket = connect({ host, port, autoSelectFamily, lookup: createGuardedLookup({ allowPrivate, resolve }) });
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('end', () => resolvePromise(data));
      socket.on('error', reject);
    });
  }

  it('refuses a name that resolves to 127.0.0.1 at connect time', async () => {
    for (const autoSelectFamily of [true, false]) {
      await assert.rejects(tryConnect('evil.test', false, toLoopback, autoSelectFamily), (err: unknown) => {
        assert.ok(err instanceof BlockedAddressError);
        assert.match(err.message, /evil\.test: it resolves to 127\.0\.0\.1/);
        return true;
      });
    }
  });
  it('connects to the checked address when private addresses are allowed', async () => {
    for (const autoSelectFamily of [true, false]) {
      assert.equal(await tryConnect('intranet.test', true, toLoopback, autoSelectFamily), 'hello');
    }
  });
  it('never connects to a different address than the one checked', async () => {
    // First answer public, second private: the whole answer is refused, not just filtered.
    let calls = 0;
    const flipping: Resolver = async () => {
      calls++;
      return [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ];
    };
    await assert.rejects(tryConnect('flip.test', false, flipping), BlockedAddressError);
    assert.equal(calls, 1);
  });
});
