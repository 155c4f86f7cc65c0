// The wiring surface an extension's `setup(wiring)` gets; implemented by `wiring/wiring-api.ts`.
import type { SchemaOutput } from '../contract/standard-schema';
import type { WiringErrorCode } from '../contract/wiring-error';
import type { Closeable } from '../lifecycle/exit-stack';
import type { Limits } from '../contract/limits';
import type { Logger } from '../logging/logger';
import type { Middleware } from '../middleware/middleware';
import type { RouteInfo, RouteLookup } from '../contract/route-info';
import type { RouteCatalogue } from './route-catalogue';
import type { RequestHead, Transport } from '../contract/exchange';
import type { AnyObjectSchema } from '../contract/object-schema';
import type { TrustProxy } from '../contract/serving-options';
import type { InvokeAnswer, InvokeRequest } from '../contract/invoke';
import type {
  AppIntercept,
  CustomRoute,
  PrefixRoute,
  RouteContribution,
  RouteContributor,
  SourceProvider,
  UpgradeRoute,
} from '../contract/contribution';

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
  /**
   * The app's one trust-proxy setting (`new App({ trustProxy })`, else `APP_TRUST_FORWARDED`):
   * `false`, `true`, or how many proxy hops are trusted. URL building reads the same setting.
   */
  readonly trustProxy: TrustProxy;
  /**
   * The client's address under the app's `trustProxy`: the connection's peer, or what a trusted
   * proxy's `X-Forwarded-For` says. Key rate limits and logs by this, never by the raw header.
   *
   * @example
   * const key = wiring.clientAddress(ex.req) ?? 'unknown';
   */
  clientAddress(req: RequestHead): string | undefined;
  /** The scheme the client used (`https` over TLS, a `https:` fetch `Request`, or a trusted `X-Forwarded-Proto`). */
  requestScheme(req: RequestHead): 'http' | 'https';
  /**
   * Answers a WHATWG `Request` through the app's own pipeline, as `app.fetch` does on either
   * transport: routing, the route's plan (mount options such as `auth`, binding, exception
   * handlers, the request log, `around` hooks such as spans) and the error funnel. For request
   * time — an extension answering with another route of the app (`@api/mcp` runs a tool call as
   * the operation's own request); called before the app has started it rejects with a
   * `WiringError` (`API_WIRING_APP_STATE`).
   *
   * @example
   * const response = await wiring.dispatch(new Request(new URL('/widgets', origin), { headers }));
   */
  dispatch(request: Request): Promise<Response>;
  /**
   * `dispatch` without WHATWG objects: the request as plain fields (method, origin-form path,
   * query, a header record, a string or bytes body, the caller's `signal` or `parent` exchange),
   * the answer as plain data (`status`, a header record, the whole body as bytes), through the
   * same pipeline, without undici's `Request`/`Response`/`Headers` (dear on Node: moving
   * `@api/mcp`'s tool call from `dispatch` to `invoke` took it from 695k to 187k instructions). A
   * streamed answer is collected whole, up to `maxAnswerBytes` (default 16 MiB; past it the
   * stream is stopped and `invoke` rejects with a `RangeError`). Before the app has started it
   * rejects with a `WiringError` (`API_WIRING_APP_STATE`); a method that is no token or a path not
   * in origin-form rejects with a `TypeError`.
   *
   * @example
   * const answer = await wiring.invoke({ method: 'GET', path: '/widgets/w-1', headers: { authorization } });
   * const widget = JSON.parse(new TextDecoder().decode(answer.body));
   */
  invoke(request: InvokeRequest): Promise<InvokeAnswer>;
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
  /**
   * Adds a prefix route: one handler owns every path under `route.prefix` (e.g. a fetch handler
   * from another library; `mountFetch` is built on it). Exact and templated routes win over it,
   * whenever they are added; two overlapping prefixes fail with `API_WIRING_PREFIX_OVERLAP`. The
   * route runs the same plan as any other (mount options, middleware, request log, transform).
   *
   * @example
   * wiring.addPrefixRoute({ prefix: '/legacy', owner: 'legacy', handle: (ex) => proxy(ex) });
   */
  addPrefixRoute(route: PrefixRoute): void;
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
  /**
   * Fails wiring with a `WiringError` naming where, what and the fix: `where: problem. Fix: fix.`.
   * `code` (default `'API_WIRING'`) is one of core's codes when the mistake is of that kind
   * (e.g. `'API_WIRING_UNKNOWN_OPTION'`; the table is docs/errors.md).
   */
  fail(where: string, problem: string, fix: string, code?: WiringErrorCode): never;
  /** Mount-scoped middleware compiled to a contribution (for extensions that take `middleware`). */
  compileMiddleware(
    where: string,
    middleware: readonly Middleware[],
    order: number,
  ): RouteContribution | undefined;
  /** Binds a headers schema from a request (same mapping as the `headers` source); throws `onError()` on failure. */
  headerBinder<TSchema extends AnyObjectSchema>(
    schema: TSchema,
    where: string,
    onError?: (reason: string) => Error,
  ): (req: RequestHead) => SchemaOutput<TSchema>;
  /** Binds a cookies schema from a request (verbatim names); throws `onError()` on failure. */
  cookieBinder<TSchema extends AnyObjectSchema>(
    schema: TSchema,
    where: string,
    onError?: (reason: string) => Error,
  ): (req: RequestHead) => SchemaOutput<TSchema>;
}
