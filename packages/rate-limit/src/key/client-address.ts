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
 * The client's address partition of a request, from the app's own reading of the client address
 * (`wiring.clientAddress`: the connection's peer, or what a trusted proxy wrote under the app's
 * `trustProxy`). Partitions of recent addresses are cached: a keep-alive client sends many
 * requests from one address, so its partition is parsed once (bounded: cleared past 4096).
 *
 * @param clientAddress - the app's client-address reader (`wiring.clientAddress`)
 * @returns undefined when no address is known (the fetch transport without a trusted proxy) or the
 * address is not an IP address
 */
export function addressKeyReader(
  clientAddress: (req: RequestHead) => string | undefined,
): (req: RequestHead) => string | undefined {
  const known = new Map<string, string | undefined>();
  return (req) => {
    const address = clientAddress(req);
    if (address === undefined) return undefined;
    let found = known.get(address);
    if (found === undefined && !known.has(address)) {
      if (known.size >= 4096) known.clear();
      found = addressPartition(address);
      known.set(address, found);
    }
    return found;
  };
}
