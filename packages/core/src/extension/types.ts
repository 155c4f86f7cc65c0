import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Duplex, Transform } from 'node:stream';
import type * as v from 'valibot';
import type { Closeable } from '../lifecycle/exit-stack';
import type { ErrorBodyAdapter } from '../errors/adapter';
import type { ExceptionHandler } from '../app/exception-handler';
import type { ErrorClass, RouteMeta } from '../meta/meta';
import type { ResponseKindInfo } from '../responses/response';
import type { OperationSpec } from '../routes/route-class';
import type { Middleware } from '../middleware/middleware';
import type { Limits } from '../app/limits';
import type { ObjectSchemaLike } from '../schema/object-schema';
import { describeValue, WiringError } from '../errors/wiring-error';

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
  readonly socket?: { readonly remoteAddress?: string | undefined } | null | undefined;
  /** Lower-case names; repeats joined with `, ` (`set-cookie`: an array), as node:http does. */
  readonly headers: IncomingHttpHeaders;
  /** Names and values alternating, in the order sent, repeats included. */
  readonly rawHeaders: readonly string[];
  /** Every value per lower-case name. */
  readonly headersDistinct: Readonly<Record<string, string[] | undefined>>;
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
   * Sends a complete response: `headers` first, then the route's tail (CORS, middleware), then
   * `content-length`. A HEAD request gets the head only. The tail is appended to `headers` itself
   * (no copy on the hot path): pass a list built for this response, never a shared constant.
   * The route's body transform (e.g. compression), if any, sees the final head and may encode the
   * body. A framing header in `headers` (`content-length`, `transfer-encoding`, `connection`,
   * `keep-alive`, `upgrade`, `trailer`) throws a `TypeError`: core frames every answer.
   */
  send(status: number, headers: HeaderList, body?: string | Uint8Array): void;
  /**
   * Sends the head of a response whose body the caller writes itself on `res` (tail included, no
   * content-length); returns false for HEAD. Like `send`, it appends the tail to `headers`. No
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
   * The route's header block for a response with `status` that the extension writes itself (an
   * upgrade's 101 written by a WebSocket library): the constant headers (CORS, middleware
   * `responseHeaders`, contributions' `headers`) then those computed for `status`, as a fresh flat
   * list. A computing hook that throws throws here (fail closed: call it before answering, so the
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

/** A route in the finished catalogue, as extensions (e.g. @api/openapi) read it. */
export interface RouteInfo {
  readonly method: string;
  /** The path template, e.g. `/widgets/{widget_id}`. */
  readonly path: string;
  /** `operation` (Resource/Endpoint), `custom` (an extension answers), `upgrade` (e.g. a WebSocket handshake). */
  readonly kind: RouteKind;
  /** The owning class name (route class or extension name). */
  readonly owner: string;
  /** The route class itself, for operations. */
  readonly ownerClass: (abstract new (...args: never[]) => object) | undefined;
  /** `readOne`, `get`, …; for custom routes the extension's own label. */
  readonly operation: string;
  /** The declaration (binding sources, returns, meta): operations, and extension routes that declare sources. */
  readonly spec: OperationSpec | undefined;
  /** Class-level metadata. */
  readonly classMeta: RouteMeta | undefined;
  readonly ref: string | undefined;
  /** The declared responses, in `returns:` order. */
  readonly responses: readonly ResponseKindInfo[];
  /** Status when a response does not fix one. */
  readonly defaultStatus: number;
  /** The options the route was mounted with (`auth`, `cors`, `middleware`, …). */
  readonly mountOptions: Readonly<Record<string, unknown>>;
  /** Excluded from generated documents (spec routes, assets, favicon). */
  readonly hidden: boolean;
  /**
   * True for a route added with `literal: true`: `path` is an exact path, not a template — a `{…}`
   * in it is two characters, not a slot.
   */
  readonly literal?: boolean;
  /** Facts extensions attached at wiring (e.g. the auth policy), keyed by extension. */
  readonly facts: ReadonlyMap<string, unknown>;
  /**
   * Error classes the route can answer with because of what its mount options and extensions
   * contribute (their `raises`: e.g. the authenticator's 401), each once, for documents. Errors
   * core derives from the route's own declaration (a bad query, a missing path value) and the
   * handler's `meta.exceptions` are not repeated here.
   */
  readonly errors: readonly ErrorClass[];
}

/** How `hasRoute` / `findRoute` read their path. */
export interface RouteLookup {
  /** Read `path` as an exact path (as `addRoute({ literal: true })` would add it), not a template. */
  readonly literal?: boolean | undefined;
}

/** Kinds of route in the catalogue. */
export type RouteKind = 'operation' | 'custom' | 'upgrade';

/** The finished route catalogue. */
export interface RouteCatalogue {
  readonly routes: readonly RouteInfo[];
  /** The catalogue entry of a mounted operation of a class, if any. */
  find(owner: abstract new (...args: never[]) => object, operation: string): RouteInfo | undefined;
  /** The app's error adapter (`includeErrorAdapter`), if one is registered. */
  readonly errorAdapter: ErrorBodyAdapter | undefined;
  /** The app's custom exception handlers (`includeExceptionHandler`), with their declared `returns`. */
  readonly exceptionHandlers: readonly ExceptionHandler[];
}

/** A value produced for a binding source (e.g. `user`) before core binds its own sources. */
export type SourceResolver = (ex: Exchange) => unknown;

/** A step that runs after route resolution, before binding; throw an `HTTPError` to reject. */
export type BeforeStep = (ex: Exchange) => void | Promise<void>;

/** What an extension adds to one route. Every part is decided at wiring. */
export interface RouteContribution {
  /** Header-tail position: CORS uses 10, app-wide middleware 20, scoped middleware 30. */
  readonly order?: number;
  /** Constant response headers, appended to every response of the route (errors included). */
  readonly headers?: ReadonlyArray<readonly [string, string]>;
  /**
   * Whether `headers` and `dynamicHeaders` also go on the automatic OPTIONS answer (default true).
   * CORS sets false: only an accepted preflight carries its block.
   */
  readonly headersOnOptions?: boolean;
  /** Headers computed per response (only routes that carry one pay for it). */
  readonly dynamicHeaders?: (
    ex: Exchange,
    status: number,
  ) => ReadonlyArray<readonly [string, string]> | undefined;
  /**
   * Headers for this route's error answers (the funnel's Problem/adapter bodies) by status, e.g. a
   * 401 challenge. Unlike `dynamicHeaders`, successful responses pay nothing for it.
   */
  readonly errorHeaders?: (status: number) => ReadonlyArray<readonly [string, string]> | undefined;
  /** Answers the request instead of the handler when it returns a response; runs first. */
  readonly intercept?: (ex: Exchange) => unknown;
  /** Steps after intercepts and before binding (authenticate, rate-limit, …). */
  readonly before?: BeforeStep;
  /** Binding sources this contribution provides (e.g. `{ user }`), resolved before core's sources. */
  readonly sources?: Readonly<Record<string, SourceResolver>>;
  /** Extra headers for the automatic OPTIONS answer at this route's path (e.g. a CORS preflight). */
  readonly options?: (ex: Exchange) => ReadonlyArray<readonly [string, string]> | undefined;
  /**
   * Runs once the response is complete, or when the connection closed before it was (then with
   * the status sent so far: 0 when no head went out); after `takeOver`, at the takeover with 101.
   * Failures are logged and swallowed.
   */
  readonly observe?: (ex: Exchange, status: number, durationMs: number) => void;
  /**
   * Runs when a connection the route took over (`ex.takeOver()`, upgrade routes) has ended: its
   * lifetime and the close code the route reported. Failures are logged and swallowed.
   */
  readonly observeClose?: (ex: Exchange, closed: ConnectionClose) => void;
  /**
   * Wraps the rest of the request's run: `next(ex)` runs the route's steps (intercepts, before,
   * bind, handler, write), so a context entered around it (a trace's active span) covers the
   * handler and everything it awaits. Contributions nest in order (the first is outermost).
   * Covers unrouted answers too (404, 405, automatic OPTIONS) through the contributors. A throw
   * before `next` is the request's error (a logged 500); absent, it costs nothing.
   */
  readonly around?: AroundHook;
  /** Facts for the catalogue (read by other extensions, e.g. OpenAPI reads auth's policy). */
  readonly facts?: Readonly<Record<string, unknown>>;
  /**
   * Error classes this contribution makes the route answer with (an authenticator's 401, a
   * quota's 429), recorded on `RouteInfo.errors` so documents list every answer the framework
   * produces. Each must be an HTTP error class (`HTTPError.define`, …).
   */
  readonly raises?: readonly ErrorClass[];
  /**
   * Encodes the route's bodies once each answer's head is final (e.g. compression). At most one
   * contribution per route gives one (two are a `WiringError`); a route without one pays nothing.
   */
  readonly transform?: BodyTransform;
}

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
   * The header list as it will be sent: the response's own headers, the route's tail (CORS,
   * middleware) and computed hooks. Edit it in place (`content-encoding`, `vary`, a weak `etag`);
   * core adds `content-length` (of the encoded body) and `connection` afterwards.
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
  /** A fresh encoder for one streamed body: core pipes it to the socket and flushes it after every write. */
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

/** Mount-time context a mount option's compiler gets. */
export interface MountContext {
  readonly route: RouteInfo;
  readonly wiring: Wiring;
}

/** A mount option value that compiles itself per route (the run-time half of a typed mount option). */
export interface MountOptionValue {
  readonly [mountOption]: (ctx: MountContext) => RouteContribution | undefined;
}

/** The symbol a mount option value implements. */
export const mountOption: unique symbol = Symbol('@api/core.mountOption') as never;

/** A contributor called for every route once wiring is finished (including extension routes). */
export type RouteContributor = (route: RouteInfo) => RouteContribution | undefined;

/** What an extension route declares beside its handler (catalogue facts, binding, mount options). */
interface ExtensionRouteBase {
  readonly path: string;
  /** Who added it (shown in wiring errors): a class or extension name. */
  readonly owner: string;
  /** The owning class, when the route comes from one (e.g. a `WebSocketEndpoint`). */
  readonly ownerClass?: abstract new (...args: never[]) => object;
  /** Exclude from generated documents (assets, the docs page). */
  readonly hidden?: boolean;
  readonly classMeta?: RouteMeta;
  /**
   * Binding sources the handler receives in `input`: `path`, `params`, `headers`, `cookies`,
   * `rawHeaders`, `user`, or an extension source; bound exactly as for operations.
   */
  readonly spec?: OperationSpec;
  /** Mount options (`auth`, `cors`, `middleware`, …), compiled as for `includeResource`. */
  readonly mountOptions?: Readonly<Record<string, unknown>>;
}

/** A route added by an extension: an exact method and path, answered by its own handler. */
export interface CustomRoute extends ExtensionRouteBase {
  readonly method: string;
  /**
   * Match `path` exactly as written, with no slot parsing: braces are ordinary characters, so a
   * file named `{id}.css` is served at `…/{id}.css` (and only there). The route has no slots (a
   * `path` binding source is refused). It must be a path a request can carry: `/` first, then
   * printable ASCII without space, `?` or `#`. Default false (`path` is a template).
   *
   * @example
   * wiring.addRoute({ method: 'GET', path: '/assets/{a}.css', literal: true, owner: 'assets', operation: 'asset', handle });
   */
  readonly literal?: boolean;
  /** A label for the catalogue, e.g. `document` or `asset`. */
  readonly operation: string;
  /** Declared responses (for documents); optional. */
  readonly responses?: readonly ResponseKindInfo[];
  /** Answers the request; use `ex.send` so the route's tail is applied. */
  handle(ex: Exchange, input: Readonly<Record<string, unknown>>): void | Promise<void>;
}

/**
 * An upgrade route (WebSockets): a GET route of kind `upgrade`. Upgrade requests reach it through
 * the server's `upgrade` event with a real response object on the socket (so a denial is an
 * ordinary HTTP answer); plain GETs reach it too, with `ex.upgrade` undefined.
 */
export interface UpgradeRoute extends ExtensionRouteBase {
  /** A label for the catalogue (default `handle`). */
  readonly operation?: string;
  /** Accept with `ex.takeOver()`, or throw an HTTP error to deny. */
  handle(ex: Exchange, input: Readonly<Record<string, unknown>>): void | Promise<void>;
}

/** A binding source an extension provides to every route that declares its name. */
export interface SourceProvider {
  /** The spec key (`tasks`, `requestId`, …); types come from `ExtensionSources`. */
  readonly name: string;
  /** Compiles the resolver for one route at wiring (throw via `wiring.fail` to reject a declaration). */
  compile(ctx: {
    readonly route: RouteInfo;
    readonly declared: unknown;
    readonly where: string;
  }): SourceResolver;
}

/** An app-wide intercept: runs before routing; returning a response answers the request. */
export interface AppIntercept {
  readonly methods?: readonly string[];
  intercept(ex: Exchange): unknown;
}

/** The wiring surface an extension gets (the same one every built-in package uses). */
export interface Wiring {
  /** The app's class name. */
  readonly appName: string;
  /** The app's effective limits. */
  readonly limits: Limits;
  /**
   * The transport the app is started for: `'node'` (`serve()`, `start()`: node:http, upgrades, the
   * file system) or `'fetch'` (`app.fetch` on a fetch-only runtime such as workerd). An extension
   * that needs Node fails wiring on `'fetch'` with a `WiringError` saying so (or offers another way).
   */
  readonly transport: Transport;
  /** The environment the app reads (`APP_BASE_URL`, `APP_TRUST_FORWARDED`, …): its `env` option or `process.env`. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Logs through the app's logger. */
  readonly log: Logger;
  /** Opens a sync resource on the app's exit stack (torn down in exact reverse order of opening). */
  enter<T extends Closeable>(resource: T): T;
  /** Opens an async resource on the app's exit stack. */
  aenter<T extends Closeable>(resource: T | Promise<T>): Promise<T>;
  /**
   * Adds an exact route. A method and path already answered (by an operation or another
   * extension route; slot names do not tell paths apart) fails here with a `WiringError` naming
   * both; check `hasRoute` first to report a clash in your own terms. With `literal: true` the path
   * is matched exactly as written (braces are characters, not slots).
   */
  addRoute(route: CustomRoute): void;
  /** Adds an upgrade (WebSocket) route (a GET route; duplicates fail as for `addRoute`). */
  addUpgradeRoute(route: UpgradeRoute): void;
  /**
   * Whether a route added so far answers `method` at `path` (a template; slot names ignored; with
   * `{ literal: true }` the exact path a literal route would take). Routes mounted later in
   * `wire()` are not known yet.
   *
   * @example
   * if (wiring.hasRoute('GET', '/openapi.json')) wiring.fail(where, 'GET /openapi.json is taken', 'pass another path');
   */
  hasRoute(method: string, path: string, options?: RouteLookup): boolean;
  /** The catalogue entry of the route answering `method` at `path` so far (see `hasRoute`), to name it. */
  findRoute(method: string, path: string, options?: RouteLookup): RouteInfo | undefined;
  /** Adds a contributor consulted for every route when wiring finishes. */
  addContributor(contributor: RouteContributor): void;
  /** Adds an app-wide intercept that runs before routing. */
  addIntercept(intercept: AppIntercept): void;
  /** Adds a binding source (beside core's path, params, headers, … and mount-provided `user`). */
  addSource(source: SourceProvider): void;
  /** Runs after `wire()` finished and every route is compiled: read the catalogue. */
  onWired(callback: (catalogue: RouteCatalogue) => void | Promise<void>): void;
  /**
   * Shutdown phase "before-close": the server stopped accepting; end open streams, close
   * WebSockets (1001). In-flight requests and upgraded sockets are awaited after this phase.
   */
  onBeforeClose(callback: () => void | Promise<void>): void;
  /**
   * Shutdown phase "drain": in-flight requests and upgraded sockets are done (or the shutdown cap
   * cut them); nothing the exit stack holds is closed yet. Task queues drain here.
   */
  onDrain(callback: () => void | Promise<void>): void;
  /** Fails wiring with a `WiringError` naming where, what and the fix. */
  fail(where: string, problem: string, fix: string): never;
  /** Mount-scoped middleware compiled to a contribution (for extensions that take `middleware`). */
  compileMiddleware(
    where: string,
    middleware: readonly Middleware[],
    order: number,
  ): RouteContribution | undefined;
  /** Binds a headers schema from a request (same mapping as the `headers` source); throws `onError()` on failure. */
  headerBinder<TSchema extends ObjectSchemaLike>(
    schema: TSchema,
    where: string,
    onError?: (reason: string) => Error,
  ): (req: RequestHead) => v.InferOutput<TSchema>;
  /** Binds a cookies schema from a request (verbatim names); throws `onError()` on failure. */
  cookieBinder<TSchema extends ObjectSchemaLike>(
    schema: TSchema,
    where: string,
    onError?: (reason: string) => Error,
  ): (req: RequestHead) => v.InferOutput<TSchema>;
}

/**
 * An extension: installed with `this.include(extension)` inside `wire()`; `setup` runs at once
 * and its return value is what `include` returns.
 */
export interface Extension<T = void> {
  readonly name: string;
  setup(wiring: Wiring): T;
}

/**
 * Declares an extension (identity, for inference): `{ name, setup(wiring) }`, checked here so a
 * wrong one fails where it is written, not at `include`.
 *
 * @example
 * export const meta = defineExtension({ name: 'meta', setup(wiring) { wiring.addRoute({ … }) } });
 */
export function defineExtension<T>(extension: Extension<T>): Extension<T> {
  if (typeof extension !== 'object' || extension === null)
    throw new WiringError(
      `defineExtension: expected { name, setup(wiring) }, got ${describeValue(extension)}. Fix: defineExtension({ name: 'my-extension', setup(wiring) { … } }).`,
    );
  const given = extension as unknown as Partial<Record<string, unknown>>;
  if (typeof given.name !== 'string' || given.name === '')
    throw new WiringError(
      `defineExtension: "name" must be a non-empty string (it names the extension in wiring errors), got ${describeValue(given.name)}. Fix: name: 'my-extension'.`,
    );
  if (typeof given.setup !== 'function')
    throw new WiringError(
      `defineExtension(${given.name}): "setup" must be a function (wiring) => value, got ${describeValue(given.setup)}. Fix: setup(wiring) { … }.`,
    );
  for (const key of Object.keys(given))
    if (key !== 'name' && key !== 'setup')
      throw new WiringError(
        `defineExtension(${given.name}): unknown key "${key}". Fix: an extension is { name, setup(wiring) }; do the rest inside setup.`,
      );
  return extension;
}

/** Structured fields of one log line (`method`, `path`, `route`, `requestId`, a status, …). */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * The logger core and extensions write to: a message, the error (logged as structured `err`
 * fields by a structured logger, never interpolated), and optional fields. An app's `logger`
 * option takes this shape, or a pino logger as it is (see `AppOptions.logger`).
 */
export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, error?: unknown, fields?: LogFields): void;
  error(message: string, error?: unknown, fields?: LogFields): void;
}
