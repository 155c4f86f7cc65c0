// The public per-request contract: the exchange every step sees, the request it reads and the
// target it answers on. Implemented by `responses/core-exchange.ts`; re-exported by `@api/core/extension`.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from './logger';
import type { RouteInfo } from './route-info';

/** A flat header list: name, value, name, value… (what `res.writeHead` takes). */
export type HeaderList = string[];

/**
 * A request's head as core and extensions read it: headers as node:http parses them. node:http's
 * `IncomingMessage` is one as it is; `app.fetch` builds one from a WHATWG `Request` (names lower
 * case as `fetch` gives them, so `rawHeaders` keeps the order and repeats, not the spelling).
 */
export interface RequestHead {
  /** The request target as sent (origin-form: path and query). */
  readonly url?: string | undefined;
  /** The HTTP version (`1.1`); absent on the fetch transport (a `Request` does not say). */
  readonly httpVersion?: string | undefined;
  /**
   * The connection the request came on, for its peer's address (node:http's socket). Absent on
   * the fetch transport: a fetch server does not tell the app which connection a request came on.
   */
  readonly socket?:
    | {
        readonly remoteAddress?: string | undefined;
        readonly remotePort?: number | undefined;
        /** True on a TLS connection (node's `TLSSocket`). */
        readonly encrypted?: boolean | undefined;
      }
    | null
    | undefined;
  /**
   * The scheme of the request's URL when the transport knows it without a socket: `app.fetch`
   * reads it from the `Request` (a Worker behind TLS says `https`). Absent on node:http (its
   * socket's `encrypted` tells).
   */
  readonly scheme?: 'http' | 'https' | undefined;
  /**
   * The fetch transport only: the scheme and authority of the `Request`'s URL
   * (`https://api.example`), which a request target in origin-form does not carry. On node:http
   * they come from the connection and the `host` header.
   */
  readonly origin?: string | undefined;
  /** Lower-case names; repeats joined with `, ` (`set-cookie`: an array), as node:http does. */
  readonly headers: IncomingHttpHeaders;
  /** Names and values alternating, in the order sent, repeats included. */
  readonly rawHeaders: readonly string[];
  /** Every value per lower-case name. */
  readonly headersDistinct: Readonly<Record<string, string[] | undefined>>;
  /**
   * True where the transport joined a name's repeated lines before core saw the request (the
   * fetch transport: a `Request`'s `Headers` holds one value per name, `set-cookie` aside), so
   * `rawHeaders` cannot show a repeat and a check for one has nothing to find (skip it: reading
   * every line costs, on Bun, ~8% of a JSON `POST`). Absent on node:http, which keeps each line.
   */
  readonly repeatsJoined?: boolean | undefined;
}

/**
 * A request's body as core reads it (extensions read bodies through binding sources, not here):
 * chunks as events or by async iteration. `IncomingMessage` is one as it is.
 */
export interface RequestBody extends AsyncIterable<Buffer | Uint8Array> {
  /** True once the whole body arrived. */
  readonly complete: boolean;
  /** True once the body's end was read. */
  readonly readableEnded: boolean;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  off(event: 'data', listener: (chunk: Buffer) => void): unknown;
  /** Reads (and drops) the rest of the body. */
  resume(): unknown;
  /**
   * Optional, for a transport whose runtime reads a whole body natively (the fetch transport:
   * `Request.text()`): the whole body decoded as UTF-8 in one read, instead of chunks. Core's JSON
   * binders call it, once, for a body that declares its length within `maxBodyBytes`, before
   * anything else reads the body; it rejects when the client leaves mid-body. Absent on node:http,
   * where chunks are counted against the limit as they come. As with `Request.text()`, a leading
   * byte order mark is dropped (RFC 8259 §8.1 lets a parser ignore it; node:http answers it 400).
   */
  readonly wholeText?: (() => Promise<string>) | undefined;
}

/** The request of an exchange: its head and its body (`IncomingMessage` on node:http). */
export interface ExchangeRequest extends RequestHead, RequestBody {}

/**
 * Where a response goes: the part of node:http's `ServerResponse` core and a custom route's
 * `sendHead` use (`ServerResponse` is one as it is; `app.fetch` answers a `Response` through one).
 */
export interface ResponseTarget {
  /** Sends the status and a flat header list (core calls it; after `ex.sendHead`, do not). */
  writeHead(status: number, headers: HeaderList): unknown;
  /** Writes a body chunk; false when the caller should wait for `drain`. */
  write(chunk: string | Uint8Array): boolean;
  /** Ends the body, after an optional last chunk. */
  end(chunk?: string | Uint8Array): unknown;
  /** Ends the response at once, without a proper end (a cut body). */
  destroy(): unknown;
  /** Sends the head now. */
  flushHeaders(): void;
  readonly headersSent: boolean;
  /** True once `end` was called. */
  readonly writableEnded: boolean;
  /** True once the whole response was handed on (after `finish`). */
  readonly writableFinished: boolean;
  /** Bytes written and not yet handed on. */
  readonly writableLength: number;
  /** `drain`: write again; `finish`: the response is complete; `close`: it is over (also when cut or left). */
  on(event: 'close' | 'finish' | 'drain', listener: () => void): unknown;
  once(event: 'close' | 'finish' | 'drain', listener: () => void): unknown;
  off(event: 'close' | 'finish' | 'drain', listener: () => void): unknown;
}

/** Which transport feeds an app: node:http (`serve()`), or WHATWG `fetch` only (`app.fetch`). */
export type Transport = 'node' | 'fetch';

/**
 * The per-request context every step sees: core's binders, extension steps, custom routes.
 * One object per request; nothing else is allocated for routing.
 */
export interface Exchange {
  /** The request: head and body (node:http's `IncomingMessage` under `serve()`). */
  readonly req: ExchangeRequest;
  /** Where the response goes (node:http's `ServerResponse` under `serve()`); core writes it. */
  readonly res: ResponseTarget;
  /** The wire method; HEAD stays HEAD. */
  readonly method: string;
  /** The request path, without the query string, still percent-encoded. */
  readonly path: string;
  /** The raw query string without `?` ('' when absent). */
  readonly query: string;
  /** Raw (percent-encoded) slot values in template order. */
  readonly params: readonly string[];
  /** `performance.now()` at dispatch on routes a dynamic hook covers, else 0. */
  readonly receivedAt: number;
  /** The matched route (undefined while app-wide intercepts run, and on 404/405/OPTIONS). */
  readonly route: RouteInfo | undefined;
  /** Values extension steps pass to later steps and to contributed sources. */
  readonly state: Record<string | symbol, unknown>;
  /** The status sent (0 until the head is written). */
  readonly status: number;
  /**
   * Sends a complete response: `headers` first, then the route headers (CORS, middleware), then
   * `content-length`. A HEAD request gets the head only. The route headers are appended to `headers` itself
   * (no copy on the hot path): pass a list built for this response, never a shared constant.
   * The route's body transform (e.g. compression), if any, sees the final head and may encode the
   * body. A framing header in `headers` (`content-length`, `transfer-encoding`, `connection`,
   * `keep-alive`, `upgrade`, `trailer`) throws a `TypeError`: core frames every answer.
   */
  send(status: number, headers: HeaderList, body?: string | Uint8Array): void;
  /**
   * Sends the head of a response whose body the caller writes itself on `res` (route headers
   * included, no content-length); returns false for HEAD. Like `send`, it appends the route headers to `headers`. No
   * body transform applies (core does not see those bytes): a streamed body that should be
   * encoded is written by a response kind's writer through its `ResponseSink`.
   */
  sendHead(status: number, headers: HeaderList): boolean;
  /** Renders an error through the app's exception funnel (handlers, adapter, 500). */
  fail(error: unknown): void;
  /**
   * The app's logger as seen from this request: every line carries `method`, `path`, `route` (the
   * template, once routed) and `requestId` (when the app has request ids) as structured fields,
   * beside the fields a call passes. The fields are built only when something is logged.
   */
  readonly log: Logger;
  /**
   * The request's id: the caller's `x-request-id` when it is well-formed (at most 128 characters
   * of `A-Z a-z 0-9 - _ . : + / = @ ~`), else a fresh UUID; read (or generated) on first use.
   * With the app's `requestLog`, or a route declaring `requestId: true`, it is echoed as the
   * `x-request-id` response header and carried by log lines.
   */
  readonly requestId: string;
  /**
   * Bytes this response has written to the connection so far, head and framing included. Counted
   * on routes that `observe` (read it there); not after `takeOver` (the protocol owns the socket).
   */
  readonly bytesOut: number;
  /**
   * Present when the request arrived through node:http's `upgrade` event (e.g. a WebSocket
   * handshake): the node request a protocol library takes, and the first bytes after the head.
   * Never on the fetch transport (it has no upgrades).
   */
  readonly upgrade: { readonly head: Buffer; readonly request: IncomingMessage } | undefined;
  /**
   * Takes the connection over (upgrade routes): core stops managing the response, records status
   * 101 for `observe`, and tracks the socket until it closes (shutdown waits for it up to the cap,
   * then destroys it). Throws when the request is not an upgrade or the response has started.
   * Report how the protocol ended the connection with `end` (see `TakenOver`).
   */
  takeOver(): TakenOver;
  /**
   * The route headers for a response with `status` that the extension writes itself (an
   * upgrade's 101 written by a WebSocket library): the constant headers (CORS, middleware
   * `responseHeaders`, contributions' `headers`) then the dynamic ones for `status`, as a fresh
   * flat list. A computing hook that throws throws here (fail closed: call it before answering, so the
   * error is an ordinary error response). Values are as the hooks gave them: check them before
   * writing them raw.
   */
  routeHeaders(status: number): HeaderList;
  /**
   * Aborted when the app begins shutting down, before the before-close hooks run: a long response
   * (a stream, a held request) ends itself properly so shutdown need not wait for it until the cap.
   * One signal for the whole app (nothing is allocated per request): remove your listener when
   * your response ends.
   */
  readonly shutdownSignal: AbortSignal;
}

/** A connection an upgrade route took over (`ex.takeOver()`). */
export interface TakenOver {
  readonly socket: Duplex;
  readonly head: Buffer;
  /**
   * Reports how the protocol ended the connection (e.g. a WebSocket's close code) to the route's
   * `observeClose` hooks (request log, traces). Call it once the connection is over, at the
   * latest from the close handling of the protocol (the same turn of the event loop as the
   * socket's `'close'`): the hooks run at the first `end`, or after the socket closed without one
   * (then with no code). Later calls do nothing.
   */
  readonly end: (outcome?: { readonly code?: number | undefined }) => void;
}

/** How a taken-over connection ended, as `observeClose` hooks see it. */
export interface ConnectionClose {
  /** Since the request arrived: the connection's lifetime. */
  readonly durationMs: number;
  /** The protocol's close code the route reported with `end` (e.g. 1000), if any. */
  readonly code: number | undefined;
}

/**
 * Wraps the rest of a request's run (see `RouteContribution.around`). It must call `next(ex)`
 * exactly once, synchronously, e.g. inside a context manager's `context.with(ctx, next, …)`.
 */
export type AroundHook = (ex: Exchange, next: (ex: Exchange) => void) => void;
