import { randomBytes } from 'node:crypto';

/** Opcodes of RFC 6455 §5.2. */
export const Op = { continuation: 0, text: 1, binary: 2, close: 8, ping: 9, pong: 10 } as const;

/**
 * Builds one raw client frame, masked unless `mask: false`; `length` overrides the declared
 * payload length (to announce more than is sent).
 */
export function frame(
  opcode: number,
  payload: Buffer,
  options: { fin?: boolean; mask?: boolean; length?: number } = {},
): Buffer {
  const fin = options.fin ?? true;
  const mask = options.mask ?? true;
  const length = options.length ?? payload.length;
  const head: number[] = [(fin ? 0x80 : 0) | opcode];
  const maskBit = mask ? 0x80 : 0;
  if (length < 126) head.push(maskBit | length);
  else if (length < 65536) head.push(maskBit | 126, (length >> 8) & 0xff, length & 0xff);
  else {
    head.push(maskBit | 127);
    const big = Buffer.alloc(8);
    big.writeBigUInt64BE(BigInt(length));
    head.push(...big);
  }
  if (!mask) return Buffer.concat([Buffer.from(head), payload]);
  const key = randomBytes(4);
  const masked = Buffer.from(payload);
  for (let i = 0; i < masked.length; i++) masked[i]! ^= key[i & 3]!;
  return Buffer.concat([Buffer.from(head), key, masked]);
}
