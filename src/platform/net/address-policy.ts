// Which addresses outbound requests (imports, webhooks, engines named by API users) may reach:
// ordinary public unicast only. Every special range of IPv4 and IPv6 is refused, and so is every
// IPv6 form that carries an IPv4 address (mapped, compatible ::/96, NAT64, 6to4, Teredo), so no
// spelling of 127.0.0.1 or 10.0.0.1 gets through.
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export type AddressCheck = (address: string) => boolean;

/** `::/96`: the deprecated IPv4-compatible form (`::7f00:1`), which ipaddr.js calls unicast. */
const ipv4Compatible = ipaddr.parseCIDR('::/96');

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  if (v6.match(ipv4Compatible)) return false;
  return v6.range() === 'unicast';
}

export class AddressNotAllowedError extends Error {
  readonly code = 'address_not_allowed';
  /**
   * `host`: the name asked for, when the refused address is what it resolved to. The message then
   * names the host only: what an internal name resolves to is not the caller's to learn.
   */
  constructor(
    readonly address: string,
    host: string | null = null,
  ) {
    super(host !== null && !net.isIP(host.replace(/^\[|\]$/g, '')) ? `the host ${host} resolves to an address that is not public` : `the address ${address} is not public`);
  }
}

export interface AddressPolicy {
  /** HARK_ALLOW_PRIVATE_ADDRESSES: every address is allowed. */
  allowPrivate: boolean;
  /** Replaces the public-address rule (tests use it to stand in for the internet). */
  isAllowed?: AddressCheck | undefined;
}

export function allows(policy: AddressPolicy, address: string): boolean {
  return policy.allowPrivate || (policy.isAllowed ?? isPublicAddress)(address);
}

/** `localhost` and its subdomains, however written (`LocalHost.`): the machine itself (RFC 6761), whatever a resolver answers. */
const isLocalName = (hostname: string): boolean => /(^|\.)localhost$/i.test(hostname.replace(/\.+$/, ''));

/** Refuses a host written as an IP literal, or named `localhost` (unless `isAllowed` stands in for the public rule), at once, before any request is queued. */
export function assertLiteralAllowed(hostname: string, policy: AddressPolicy): void {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(bare) ? !allows(policy, bare) : !policy.allowPrivate && !policy.isAllowed && isLocalName(bare)) throw new AddressNotAllowedError(bare);
}

/** A dns.lookup for sockets that refuses a name with any non-public answer before connecting. */
export function guardedLookup(policy: AddressPolicy): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as dns.LookupAddress[];
      const refused = list.find((a) => !allows(policy, a.address));
      if (refused) return callback(new AddressNotAllowedError(refused.address, hostname) as NodeJS.ErrnoException, '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(new Error(`no address for ${hostname}`) as NodeJS.ErrnoException, '', 0);
      callback(null, first.address, first.family);
    });
  };
}
