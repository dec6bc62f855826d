// The outbound seam: which addresses count as public (every spelling of a private IPv4 address in
// IPv6 included), refusal by literal and by name, redirects checked hop by hop, and the connected
// socket's own address checked, so an answer that changes between check and connection (DNS
// rebinding) cannot get through.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { isPublicAddress } from '../src/platform/net/address-policy.ts';
import { outboundRequest, OutboundError } from '../src/platform/net/outbound.ts';
import { serveBytes, startOrigin, status, type Origin } from './helpers/origin.ts';

/** Waits up to 5 s for `check` to hold. */
async function eventuallyTrue(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 50 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.ok(check(), what);
}

describe('outbound requests', () => {
  test('only ordinary public unicast addresses are public', () => {
    const refused = [
      '127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '198.18.0.1', '255.255.255.255', '224.0.0.1',
      '::', '::1', 'fe80::1', 'fd00::1', 'ff02::1', '2001:db8::1',
      '::ffff:127.0.0.1', // IPv4-mapped
      '::7f00:1', // IPv4-compatible (::/96)
      '::a00:1',
      '::ffff:0:7f00:1', // IPv4-translated (RFC 6145)
      '64:ff9b::7f00:1', // NAT64
      '2002:7f00:1::1', // 6to4 of 127.0.0.1
      '2002:a00:1::1', // 6to4 of 10.0.0.1
      '2001::1', // Teredo
      'not an address',
    ];
    for (const address of refused) assert.equal(isPublicAddress(address), false, address);
    for (const address of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e']) assert.equal(isPublicAddress(address), true, address);
  });

  let origin: Origin;
  before(async () => {
    origin = await startOrigin({
      '/a.wav': serveBytes(Buffer.from('RIFF')),
      '/to-private': status(302, { location: 'http://127.0.0.2:9/secret' }),
      '/to-mapped': status(302, { location: 'http://[::ffff:127.0.0.1]:9/secret' }),
      '/to-metadata': status(301, { location: 'http://169.254.169.254/latest/meta-data/' }),
      '/loop': status(302, { location: '/loop' }),
    });
  });
  after(() => origin.close());

  const get = (url: string, isAllowed?: (address: string) => boolean) =>
    outboundRequest(url, { policy: { allowPrivate: false, isAllowed }, maxRedirects: 5, signal: AbortSignal.timeout(5000) });
  const refuse = (url: string, code: string, isAllowed?: (address: string) => boolean) =>
    assert.rejects(get(url, isAllowed), (error: unknown) => error instanceof OutboundError && error.code === code && !error.transient);

  test('refuses loopback, private and link-local targets, by literal, by name and in IPv6 spellings', async () => {
    await refuse(origin.url('/a.wav'), 'address_not_allowed');
    await refuse(origin.url('/a.wav').replace('127.0.0.1', 'localhost'), 'address_not_allowed');
    await refuse('http://10.0.0.1/a.wav', 'address_not_allowed');
    await refuse('http://169.254.169.254/latest/meta-data/', 'address_not_allowed');
    await refuse('http://[::1]/a.wav', 'address_not_allowed');
    await refuse('http://[::7f00:1]/a.wav', 'address_not_allowed');
    await refuse('http://[::ffff:0:7f00:1]/a.wav', 'address_not_allowed');
    await refuse('http://[2002:7f00:1::1]/a.wav', 'address_not_allowed');
  });

  test('checks every redirect target; 127.0.0.1 stands for the public internet here', async () => {
    const onlyOrigin = (address: string) => address === '127.0.0.1';
    const ok = await get(origin.url('/a.wav'), onlyOrigin);
    assert.equal(ok.status, 200);
    assert.equal(await ok.body.text(), 'RIFF');
    await refuse(origin.url('/to-private'), 'address_not_allowed', onlyOrigin);
    await refuse(origin.url('/to-mapped'), 'address_not_allowed', onlyOrigin);
    await refuse(origin.url('/to-metadata'), 'address_not_allowed', onlyOrigin);
    await refuse(origin.url('/loop'), 'too_many_redirects', onlyOrigin);
  });

  test('the connected socket is checked, not only the name\'s first answer (rebinding)', async () => {
    // The name's resolution passes the check; by the time the socket connects the same address
    // is no longer allowed, as when a DNS answer changes between a check and the connection.
    let checks = 0;
    const passesOnce = () => ++checks === 1;
    await refuse(origin.url('/a.wav').replace('127.0.0.1', 'localhost'), 'address_not_allowed', passesOnce);
    assert.equal(checks, 2, 'the name was checked, then the connected address');
  });

  test('a server that closes the connection while the body waits to be read loses nothing and crashes nothing', async () => {
    // An HTTP/1.0-style answer (Connection: close, as Python's http.server gives): the whole body,
    // then the end of the connection, while the reader has not begun. undici 7 asserted on it, a
    // crash no handler can catch (nodejs/undici#5360).
    const body = Buffer.alloc(1024 * 1024, 0x61);
    const server = net.createServer((socket) => {
      socket.once('data', () => {
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
        socket.end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as net.AddressInfo;
      for (let i = 0; i < 3; i++) {
        const response = await outboundRequest(`http://127.0.0.1:${port}/big.wav`, { policy: { allowPrivate: true }, maxRedirects: 0, signal: AbortSignal.timeout(10_000) });
        await new Promise((resolve) => setTimeout(resolve, 300));
        let received = 0;
        for await (const chunk of response.body) {
          received += (chunk as Buffer).length;
          // A slow reader (a busy disk): the rest waits while this one is written.
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        assert.equal(received, body.length);
      }
    } finally {
      server.close();
    }
  });

  test('a body cut off by the server is an error to its reader; a reader that stops closes the connection', async () => {
    let keptClosed = false;
    const server = net.createServer((socket) => {
      socket.on('error', () => {}); // the client going away mid-body
      socket.once('data', (request) => {
        const kept = request.toString().startsWith('GET /kept');
        if (kept) socket.on('close', () => void (keptClosed = true));
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${1024 * 1024}\r\n\r\n`);
        // Half the body, then the connection is gone (or, for the reader that stops, kept open).
        socket.write(Buffer.alloc(512 * 1024, 0x61));
        if (!kept) socket.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as net.AddressInfo;
      const fetchBody = async (name: string) => (await outboundRequest(`http://127.0.0.1:${port}/${name}`, { policy: { allowPrivate: true }, maxRedirects: 0, signal: AbortSignal.timeout(10_000) })).body;
      const cut = await fetchBody('cut');
      await assert.rejects(async () => {
        for await (const chunk of cut) void chunk;
      }, 'a body that ends short of its length is an error, not a short file');
      const kept = await fetchBody('kept');
      for await (const chunk of kept) {
        void chunk;
        break;
      }
      await eventuallyTrue(() => keptClosed, 'the reader that stopped to close its connection');
    } finally {
      server.close();
    }
  });

  test('a refused name is named, not what it resolves to (an internal name\'s address is not the caller\'s to learn)', async () => {
    for (const isAllowed of [() => false, (() => { let checks = 0; return () => ++checks === 1; })()]) {
      await assert.rejects(get(origin.url('/a.wav').replace('127.0.0.1', 'localhost'), isAllowed), (error: unknown) => {
        assert.ok(error instanceof OutboundError && error.code === 'address_not_allowed');
        assert.equal(error.message, 'the host localhost resolves to an address that is not public');
        return true;
      });
    }
    await assert.rejects(get('http://10.0.0.1/a.wav'), /the address 10\.0\.0\.1 is not public/, 'an address typed as one is named');
  });
});
