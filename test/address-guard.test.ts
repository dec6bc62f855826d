// The outbound address guard: literal and resolved private addresses, and redirects to them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isPublicAddress } from '../src/net/address-guard.ts';
import { fetchStream, FetchError } from '../src/net/fetch-stream.ts';
import { serveBytes, startOrigin, status, type Origin } from './helpers/origin.ts';

describe('address guard', () => {
  test('classifies addresses', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '100.64.0.1']) {
      assert.equal(isPublicAddress(address), false, address);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '93.184.216.34']) assert.equal(isPublicAddress(address), true, address);
  });

  let origin: Origin;
  before(async () => {
    origin = await startOrigin({ '/a.wav': serveBytes(Buffer.from('RIFF')), '/to-private': status(302, { location: 'http://127.0.0.2:9/secret' }), '/to-metadata': status(301, { location: 'http://169.254.169.254/latest/meta-data/' }), '/loop': status(302, { location: '/loop' }) });
  });
  after(() => origin.close());

  const refuse = async (url: string, code: string, isAllowed?: (address: string) => boolean) => {
    await assert.rejects(
      fetchStream(url, { allowPrivate: false, maxRedirects: 5, signal: AbortSignal.timeout(5000), ...(isAllowed ? { isAllowed } : {}) }),
      (error: unknown) => error instanceof FetchError && error.code === code && !error.transient,
    );
  };

  test('refuses loopback, private and link-local targets, by literal and by name', async () => {
    await refuse(origin.url('/a.wav'), 'address_not_allowed');
    await refuse(origin.url('/a.wav').replace('127.0.0.1', 'localhost'), 'address_not_allowed');
    await refuse('http://10.0.0.1/a.wav', 'address_not_allowed');
    await refuse('http://169.254.169.254/latest/meta-data/', 'address_not_allowed');
    await refuse('http://[::1]/a.wav', 'address_not_allowed');
  });

  test('checks every redirect target; 127.0.0.1 stands for the public internet here', async () => {
    const onlyOrigin = (address: string) => address === '127.0.0.1';
    const ok = await fetchStream(origin.url('/a.wav'), { allowPrivate: false, maxRedirects: 5, signal: AbortSignal.timeout(5000), isAllowed: onlyOrigin });
    ok.resume();
    assert.equal(ok.statusCode, 200);
    await refuse(origin.url('/to-private'), 'address_not_allowed', onlyOrigin);
    await refuse(origin.url('/to-metadata'), 'address_not_allowed', onlyOrigin);
    await refuse(origin.url('/loop'), 'too_many_redirects', onlyOrigin);
  });
});
