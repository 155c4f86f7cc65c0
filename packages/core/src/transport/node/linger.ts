import type { Socket } from 'node:net';

/** The bounds of a lingering close (`limits.maxLingerBytes`, `limits.lingerTimeoutMs`). */
export interface LingerLimits {
  readonly maxLingerBytes: number;
  readonly lingerTimeoutMs: number;
}

/** Sockets whose last response is decided: nothing but that response is written on them. */
const closing = new WeakSet<Socket>();

/**
 * True once a response on this socket said `connection: close`: the app has answered, so a later
 * parse error of the same connection (the rest of a refused body) writes nothing more.
 *
 * @param socket - A server-side connection.
 */
export function isClosing(socket: Socket): boolean {
  return closing.has(socket);
}

/**
 * Records that the response being sent is the connection's last; when the request body is still
 * arriving, arranges a lingering close instead of node's immediate one.
 *
 * Why: node:http ends a `connection: close` response's socket with `destroySoon()` once the
 * response is flushed. Closing a socket whose peer is still sending makes the kernel answer the
 * next bytes (or the unread ones) with a reset, and a client that writes its whole body before it
 * reads then loses the answer it was sent. Lingering (as Apache and nginx do): half-close after the
 * response, read and discard at most `maxLingerBytes` or for at most `lingerTimeoutMs`, then close.
 *
 * @param socket - The request's socket.
 * @param limits - The app's limits.
 * @param bodyArriving - Whether the request body is still on the wire (decided before it was read).
 * @example
 * closeAfterResponse(req.socket, app.limits, true);
 */
export function closeAfterResponse(socket: Socket, limits: LingerLimits, bodyArriving: boolean): void {
  if (closing.has(socket)) return;
  closing.add(socket);
  // node calls destroySoon() exactly where it would close this socket (after the response is
  // flushed); an own property on this one socket replaces that close, nothing else changes.
  if (bodyArriving) socket.destroySoon = () => linger(socket, limits);
}

const EMPTY = Buffer.alloc(0);

function linger(socket: Socket, limits: LingerLimits): void {
  if (socket.destroyed) return;
  if (socket.readableEnded) {
    // The client already finished sending: nothing unread can cause a reset; close as node would.
    socket.end(() => socket.destroy());
    return;
  }
  // The response is out; a FIN follows it, and reading goes on.
  socket.end();
  let left = limits.maxLingerBytes;
  const discard = (chunk: Buffer): void => {
    left -= chunk.length;
    if (left < 0) socket.destroy();
  };
  // A 'data' listener takes the bytes back from node's HTTP parser; dropping the parser's own
  // listener means nothing after the answer is parsed, dispatched or answered on this connection.
  socket.on('data', discard);
  for (const listener of socket.listeners('data'))
    if (listener !== discard) socket.removeListener('data', listener as (chunk: Buffer) => void);
  // Under node's native parser the socket's stream still counts a read as pending, so resume()
  // alone would read nothing: an empty push ends that read (the documented effect of push('')).
  socket.push(EMPTY);
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), limits.lingerTimeoutMs);
  timer.unref();
  // The client finished sending (or gave up): nothing left to wait for.
  socket.once('end', () => socket.destroy());
  socket.once('close', () => clearTimeout(timer));
}
