// A WHATWG `Request` built from an exchange, for a fetch handler another library provides (an
// auth server, an MCP transport): its body streams from the connection with backpressure and
// under a byte limit, and its signal aborts when the client leaves.
import type { TLSSocket } from 'node:tls';
import type { Exchange } from '../contract/exchange';
import type { WireResponse } from '../contract/wire';
import { describeValue } from '../contract/wiring-error';
import { PayloadTooLargeError } from '../errors';

/** How `toFetchRequest` builds the request. */
export interface ToFetchRequestOptions {
  /**
   * Most body bytes the handler may read: more fails its read with `PayloadTooLargeError`, and a
   * declared `content-length` over it is refused (413) before the request is built.
   */
  readonly maxBodyBytes: number;
  /**
   * A prefix to remove from the URL's path, so the handler sees the path below its mount
   * (`/api/auth/session` → `/session`; the prefix itself → `/`). Default: the path as sent.
   */
  readonly stripPrefix?: string | undefined;
}

/** A request built by `toFetchRequest`, with what the caller needs to know about its body. */
export interface ForeignRequest {
  readonly request: Request;
  /** True once the handler's read went past `maxBodyBytes` (the answer is then 413). */
  readonly overLimit: () => boolean;
}

/** Connection-level headers: they describe the hop to this server, not the request. */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

/**
 * Builds a WHATWG `Request` from an exchange (both transports): method, absolute URL (the fetch
 * transport's own origin, else the connection's scheme and the `host` header), headers in the
 * order sent (hop-by-hop ones left out), the body as a pull stream over the connection (nothing
 * is read until the handler reads; reading stops at `maxBodyBytes`), and a signal aborted when
 * the client leaves before the answer is complete.
 *
 * @param ex - The exchange of the request.
 * @param options - The body limit, and a prefix to strip from the path.
 * @example
 * const { request } = toFetchRequest(ex, { maxBodyBytes: wiring.limits.maxBodyBytes });
 * await sendFetchResponse(ex, await handler(request));
 */
export function toFetchRequest(ex: Exchange, options: ToFetchRequestOptions): ForeignRequest {
  const limit = options.maxBodyBytes;
  if (typeof limit !== 'number' || !(limit > 0))
    throw new TypeError(
      `toFetchRequest: maxBodyBytes must be a positive number, got ${describeValue(limit)}`,
    );
  const req = ex.req;
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit)
    throw new PayloadTooLargeError({ limit: 'maxBodyBytes', bytes: limit });
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.charCodeAt(0) === 58 || HOP_BY_HOP.has(name.toLowerCase())) continue; // ':' (HTTP/2)
    headers.append(name, raw[i + 1]!);
  }
  let over = false;
  const body = hasBody(ex) ? bodyStream(ex, limit, () => (over = true)) : null;
  const init: RequestInit & { duplex?: 'half' } = { method: ex.method, headers, signal: leaveSignal(ex) };
  if (body !== null) {
    init.body = body;
    init.duplex = 'half';
  }
  return { request: new Request(urlOf(ex, options.stripPrefix), init), overLimit: () => over };
}

/** The absolute URL the handler sees. */
function urlOf(ex: Exchange, strip: string | undefined): string {
  const req = ex.req;
  let origin = req.origin;
  if (origin === undefined) {
    const host = req.headers.host;
    const secure = (req.socket as TLSSocket | null | undefined)?.encrypted === true;
    origin = `${secure ? 'https' : 'http'}://${typeof host === 'string' && host !== '' ? host : 'localhost'}`;
  }
  let path = ex.path;
  if (strip !== undefined && strip !== '/' && path.startsWith(strip))
    path = path.length === strip.length ? '/' : path.slice(strip.length);
  return `${origin}${path}${ex.query === '' ? '' : `?${ex.query}`}`;
}

/** Whether the request carries a body (GET and HEAD never give one to a `Request`). */
function hasBody(ex: Exchange): boolean {
  if (ex.method === 'GET' || ex.method === 'HEAD') return false;
  const req = ex.req;
  if (req.complete) return false;
  const headers = req.headers;
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  if (length !== undefined) return length !== '0';
  // node:http: neither header means no body. The fetch transport says by `complete`.
  return req.socket === undefined || req.socket === null;
}

/**
 * The body as a pull stream: one chunk is read from the connection per read of the handler (no
 * queue ahead of it), so a slow handler slows the client. Past `limit` the stream fails with
 * `PayloadTooLargeError` and reading stops (core then closes the connection after its answer).
 * A handler that stops reading leaves the rest unread, with the same close.
 */
function bodyStream(ex: Exchange, limit: number, onOver: () => void): ReadableStream<Uint8Array> {
  let chunks: AsyncIterator<Buffer | Uint8Array> | undefined;
  let size = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        chunks ??= ex.req[Symbol.asyncIterator]();
        let step: IteratorResult<Buffer | Uint8Array>;
        try {
          step = await chunks.next();
        } catch (error) {
          controller.error(error);
          return;
        }
        if (step.done === true) {
          controller.close();
          return;
        }
        size += step.value.byteLength;
        if (size > limit) {
          onOver();
          controller.error(new PayloadTooLargeError({ limit: 'maxBodyBytes', bytes: limit }));
          return;
        }
        const chunk = step.value;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      },
    },
    { highWaterMark: 0 },
  );
}

/** A signal aborted when the client leaves before the answer is complete. */
function leaveSignal(ex: Exchange): AbortSignal {
  const controller = new AbortController();
  const res = ex.res;
  // The fetch transport watches for the client leaving only when asked (it has a cost there).
  (res as Partial<WireResponse>).watchClient?.();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client closed the connection'));
  });
  return controller.signal;
}
