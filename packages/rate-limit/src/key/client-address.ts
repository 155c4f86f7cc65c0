// The client's address as a rate-limit partition: core says who the client is (the peer, or what a
// trusted proxy saw under the app's `trustProxy`); this file groups addresses into partitions.
import { isIPv4, isIPv6 } from 'node:net';
import type { RequestHead } from '@api/core/extension';

/**
 * The partition of an address: an IPv4 address as it is (an IPv4-mapped IPv6 address as its IPv4
 * form); an IPv6 address by its /64 prefix, because one subscriber is routinely given a whole /64
 * and could otherwise take a fresh bucket per address. Undefined for anything that is not an address.
 *
 * @param address - a textual IP address
 * @example
 * addressPartition('2001:db8:1:2:3:4:5:6'); // → '2001:db8:1:2::/64'
 */
export function addressPartition(address: string): string | undefined {
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return undefined;
  const zone = address.indexOf('%');
  const groups = expand((zone < 0 ? address : address.slice(0, zone)).toLowerCase());
  if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff') {
    const high = parseInt(groups[6]!, 16);
    const low = parseInt(groups[7]!, 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, each without leading zeros (`::` expanded). */
function expand(address: string): string[] {
  let text = address;
  // A trailing IPv4 part counts as two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, v4.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => g.replace(/^0+/, '') || '0');
}

/**
 * A policy's bucket key by client address: `prefix` and the address partition
 * (`addressPartition`) of the app's own reading of the client address (`wiring.clientAddress`:
 * the connection's peer, or what a trusted proxy wrote under the app's `trustProxy`), or `prefix`
 * + `unknown` when there is none (the fetch transport without a trusted proxy, not an IP address).
 * Keys of recent addresses are cached (bounded: cleared past 4096): a keep-alive client sends
 * many requests from one address, so its partition is parsed once and its key is one string (its
 * hash computed once), not one built per request.
 *
 * @param clientAddress - the app's client-address reader (`wiring.clientAddress`)
 * @param prefix - the policy's part of the key, e.g. `api:a:`
 * @example
 * addressKey(wiring.clientAddress, 'api:a:')(req); // → 'api:a:198.51.100.1'
 */
export function addressKey(
  clientAddress: (req: RequestHead) => string | undefined,
  prefix: string,
): (req: RequestHead) => string {
  const unknown = `${prefix}unknown`;
  const known = new Map<string, string>();
  return (req) => {
    const address = clientAddress(req);
    if (address === undefined) return unknown;
    let found = known.get(address);
    if (found === undefined) {
      if (known.size >= 4096) known.clear();
      const partition = addressPartition(address);
      found = partition === undefined ? unknown : prefix + partition;
      known.set(address, found);
    }
    return found;
  };
}
