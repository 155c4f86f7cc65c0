// A streamed answer's body as writers see it, and the body transform (e.g. compression) a route
// may carry: the encoder contract core calls once each answer's head is final.
import type { Transform } from 'node:stream';
import type { Exchange, HeaderList } from './exchange';

/**
 * The body of a streamed answer once its head is out: every byte reaches the wire through core,
 * and through the route's body transform when one took the answer. `@api/streaming`'s pump
 * writes to it; so can any response kind's writer (`ResponseSink` extends it).
 */
export interface ResponseBody {
  /** Writes one chunk; false when the writer should wait for `drain` before writing more. */
  write(chunk: string | Uint8Array): boolean;
  /** Ends the body properly (its terminating chunk), after an optional last chunk. */
  end(chunk?: string | Uint8Array): void;
  /**
   * Ends the connection without the terminating chunk, so the client knows the body is
   * incomplete (a failure after the head): bytes already handed to the socket still go out, and
   * a client that stopped reading is cut hard after a short grace.
   */
  cut(): void;
  /** Sends the head now, before any body (otherwise it leaves with the first chunk). */
  flushHeaders(): void;
  /** Bytes written and not yet handed to the kernel (an encoder's buffers included). */
  readonly writableLength: number;
  /** `drain`: writing may resume; `close`: the response is over (ended, cut, or the client left). */
  on(event: 'close' | 'drain', listener: () => void): void;
  off(event: 'close' | 'drain', listener: () => void): void;
}

/** One answer's head once it is final, as a body transform sees it. */
export interface FinalHead {
  readonly status: number;
  /**
   * The header list as it will be sent: the response's own headers, then the route headers
   * (constant ones: CORS, middleware; then dynamic hooks'). Edit it in place (`content-encoding`,
   * `vary`, a weak `etag`); core adds `content-length` (of the encoded body) and `connection` afterwards.
   */
  readonly headers: HeaderList;
  /** A buffered body's byte length (0: no body, e.g. a 304); undefined for a streamed body. */
  readonly length: number | undefined;
}

/**
 * A streamed body's encoder: a node `Transform` that can emit what it holds so far, calling back
 * once it did (node:zlib streams can).
 */
export type StreamEncoder = Transform & { flush(callback?: () => void): void };

/** How a body transform encodes the answer it took (one object may serve every answer). */
export interface BodyEncoder {
  /** Encodes a whole buffered body; return a promise to keep the work off the event loop (node:zlib's async API). */
  encode(body: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /**
   * A fresh encoder for one streamed body: core pipes it to the socket and calls `flush()` after
   * every write (an encoder may coalesce one turn's writes; with a callback: now).
   */
  stream(): StreamEncoder;
}

/**
 * A route's body transform, compiled at wiring by a contribution (`transform`). Core calls it
 * once per answer, after the head is final and before it is sent — operations, custom routes'
 * `ex.send`, streams written through a `ResponseSink`, intercept answers, error answers and
 * 404/405 — and never for a 204, the automatic OPTIONS or a custom route's `sendHead`. Return
 * the encoder to use, or undefined to send the body as it is; edit `head.headers` either way
 * (a `vary` on an answer you declined). A throw fails the answer closed (a logged 500), except on
 * an error answer, which is then sent unencoded.
 *
 * @example
 * transform: (ex, head) => (head.length !== undefined && head.length < 1024 ? undefined : gzipEncoder)
 */
export type BodyTransform = (ex: Exchange, head: FinalHead) => BodyEncoder | undefined;
