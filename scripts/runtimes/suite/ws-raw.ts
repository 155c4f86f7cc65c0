// A WebSocket client on a raw socket, for what the `ws` client refuses to send (hostile frames)
// and to read the server's frames as bytes.
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { url } from './http';

/** Opcodes of RFC 6455 §5.2. */
export const Op = { continuation: 0, text: 1, binary: 2, reserved: 3, close: 8, ping: 9, pong: 10 } as const;

/** One client frame, masked unless `mask: false`. */
export function frame(opcode: number, payload: Buffer, options: { mask?: boolean } = {}): Buffer {
  const mask = options.mask ?? true;
  const length = payload.length;
  const head: number[] = [0x80 | opcode];
  const maskBit = mask ? 0x80 : 0;
  if (length < 126) head.push(maskBit | length);
  else head.push(maskBit | 126, (length >> 8) & 0xff, length & 0xff);
  if (!mask) return Buffer.concat([Buffer.from(head), payload]);
  const key = randomBytes(4);
  const masked = Buffer.from(payload);
  for (let i = 0; i < masked.length; i++) masked[i]! ^= key[i & 3]!;
  return Buffer.concat([Buffer.from(head), key, masked]);
}

/** A server frame as read off the wire. */
export interface ServerFrame {
  readonly opcode: number;
  readonly payload: Buffer;
}

/** An upgraded raw socket: frames as they arrive, and when the connection ended. */
export interface RawWebSocket {
  readonly socket: Socket;
  readonly frames: ServerFrame[];
  /** The first close frame from the server (code, or 1005 without one), or undefined on timeout. */
  closeFrame(ms: number): Promise<number | undefined>;
  readonly ended: Promise<void>;
}

/** Handshakes on a raw socket; resolves once the 101 is read. */
export function rawWebSocket(path: string): Promise<RawWebSocket> {
  const { hostname, port } = new URL(url());
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  const frames: ServerFrame[] = [];
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let onFrame: (() => void) | undefined;
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    let upgraded = false;
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        if (!head.startsWith('HTTP/1.1 101')) {
          reject(new Error(`no upgrade: ${head.split('\r\n')[0]}`));
          return;
        }
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        resolve({
          socket,
          frames,
          ended,
          closeFrame: (ms) =>
            new Promise((done) => {
              const check = (): boolean => {
                const close = frames.find((f) => f.opcode === Op.close);
                if (!close) return false;
                done(close.payload.length >= 2 ? close.payload.readUInt16BE(0) : 1005);
                return true;
              };
              if (check()) return;
              const timer = setTimeout(() => done(undefined), ms);
              onFrame = () => {
                if (check()) clearTimeout(timer);
              };
            }),
        });
      }
      // Server frames are unmasked; payloads here stay under 64 KiB.
      while (buffer.length >= 2) {
        let length = buffer[1]! & 0x7f;
        let at = 2;
        if (length === 126) {
          if (buffer.length < 4) return;
          length = buffer.readUInt16BE(2);
          at = 4;
        } else if (length === 127) {
          if (buffer.length < 10) return;
          length = Number(buffer.readBigUInt64BE(2));
          at = 10;
        }
        if (buffer.length < at + length) return;
        frames.push({ opcode: buffer[0]! & 0x0f, payload: buffer.subarray(at, at + length) });
        buffer = buffer.subarray(at + length);
        onFrame?.();
      }
    });
    socket.write(
      `GET ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\nconnection: Upgrade\r\nupgrade: websocket\r\n` +
        `sec-websocket-version: 13\r\nsec-websocket-key: ${randomBytes(16).toString('base64')}\r\n\r\n`,
    );
  });
}
