import { BlockList, isIP } from 'node:net';

/**
 * Address ranges the server never requests unless OUTBOUND_ALLOW_PRIVATE=1: its own host and network
 * (loopback, private, carrier-grade NAT, link-local with cloud metadata at 169.254.169.254), "this
 * network" and the unspecified address, documentation, benchmarking, multicast and reserved ranges.
 * IPv4-mapped IPv6 addresses (::ffff:127.0.0.1, ::ffff:7f00:1) are checked as the IPv4 address they
 * carry (BlockList does so), and ::/96 holds ::, ::1 and the old IPv4-compatible form (::127.0.0.1).
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) PRIVATE.addSubnet(network, prefix, 'ipv6');

/** Whether an IP address (v4 or v6, without brackets) lies in a range the server may not reach. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The host of a URL as an IP address when it is a literal one ([::1] unbracketed), else null. The URL
 * parser has already turned odd IPv4 spellings (2130706433, 0x7f.1, 127.1) into dotted quads.
 */
export function ipLiteralOf(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : null;
}
