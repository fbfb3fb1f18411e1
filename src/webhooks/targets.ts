import { BlockList, isIP } from 'node:net';

/**
 * Address ranges a webhook may not reach unless WEBHOOKS_ALLOW_PRIVATE=1: the server's own host and
 * network (loopback, private, carrier-grade NAT, link-local, cloud metadata at 169.254.169.254),
 * "this network", documentation, benchmarking, multicast and reserved ranges. IPv4-mapped IPv6
 * addresses (::ffff:127.0.0.1) are checked as the IPv4 address they carry (BlockList does so), and
 * ::/96 holds ::, ::1 and the old IPv4-compatible form (::127.0.0.1).
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

/** Whether an IP address (v4 or v6, without brackets) lies in a range a webhook may not reach. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // An IPv4-compatible or -mapped address in its hexadecimal form is also caught by BlockList.
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The host of a URL as an IP address when it is a literal one ([::1] unbracketed), else null. */
export function ipLiteralOf(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : null;
}

export const MAX_URL_LENGTH = 2048;

/**
 * Why a webhook URL cannot be used, or null when it can. The URL parser has already turned odd IPv4
 * spellings (2130706433, 0x7f.1) into dotted quads, so the literal check sees them as they connect.
 */
export function urlProblem(raw: string, allowPrivate: boolean): string | null {
  if (raw.length > MAX_URL_LENGTH) return `is too long (maximum is ${MAX_URL_LENGTH} characters)`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not carry credentials (user:password@)';
  if (!url.hostname) return 'has no host';
  const literal = ipLiteralOf(url);
  if (literal && !allowPrivate && isPrivateAddress(literal)) {
    return 'is in a private, loopback or link-local address range (allowed only with WEBHOOKS_ALLOW_PRIVATE=1)';
  }
  return null;
}
