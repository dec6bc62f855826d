// Which addresses outbound requests (imports, webhooks) may reach: public ones only, unless
// HARK_IMPORT_ALLOW_PRIVATE is set. Checked on the resolved address actually connected to.
import dns from 'node:dns';
import net from 'node:net';

const blocked = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped?.[1]) return !blocked.check(mapped[1], 'ipv4');
    return !blocked.check(address, 'ipv6');
  }
  return false;
}

export class AddressNotAllowedError extends Error {
  readonly code = 'address_not_allowed';
  constructor(readonly address: string) {
    super(`the address ${address} is not public`);
  }
}

/** A dns.lookup replacement for http.request that refuses non-public answers. */
export function guardedLookup(allowPrivate: boolean, isAllowed = isPublicAddress): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as dns.LookupAddress[];
      const refused = list.find((a) => !allowPrivate && !isAllowed(a.address));
      if (refused) return callback(new AddressNotAllowedError(refused.address) as NodeJS.ErrnoException, '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(new Error(`no address for ${hostname}`) as NodeJS.ErrnoException, '', 0);
      callback(null, first.address, first.family);
    });
  };
}

/** For hosts given as IP literals, which bypass lookup. */
export function assertAddressAllowed(hostname: string, allowPrivate: boolean, isAllowed = isPublicAddress): void {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(bare) && !allowPrivate && !isAllowed(bare)) throw new AddressNotAllowedError(bare);
}
