import { request } from 'node:http';

export interface HandshakeAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  /** True when the server switched protocols. */
  readonly upgraded: boolean;
}

/** A valid Sec-WebSocket-Key. */
export const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';

/**
 * Sends a handshake (or a plain GET, without `upgrade`) with exactly the given headers and
 * reports the HTTP answer: for denials, the status, headers and body the funnel rendered.
 */
export function handshake(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  options: { upgrade?: boolean } = {},
): Promise<HandshakeAnswer> {
  const upgrade = options.upgrade ?? true;
  const all: Record<string, string> = upgrade
    ? {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': KEY,
        ...headers,
      }
    : headers;
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname + url.search,
      headers: all,
      agent: false,
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '', upgraded: true });
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
          upgraded: false,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}
