// What extensions add to routes at wiring: contributions (headers, steps, sources, hooks),
// binding sources, app-wide intercepts, and the routes an extension adds itself.
import type { ErrorClass, RouteMeta } from './meta';
import type { OperationSpec } from './operation-spec';
import type { ResponseKindFacts } from './response-spec';
import type { BodyTransform } from './body-transform';
import type { RouteInfo } from './route-info';
import type { AroundHook, ConnectionClose, Exchange } from './exchange';

/** A value produced for a binding source (e.g. `user`) before core binds its own sources. */
export type SourceResolver = (ex: Exchange) => unknown;

/** A step that runs after route resolution, before binding; throw an `HTTPError` to reject. */
export type BeforeStep = (ex: Exchange) => void | Promise<void>;

/**
 * A pre-handler step that reads the values of the route's mount-provided sources (the `user` of
 * `auth`), by name; it runs after every `before` step and before core binds anything (path,
 * headers, query, body). Throw an `HTTPError` to reject (e.g. a 429 keyed by the user).
 */
export type AfterSourcesStep = (
  ex: Exchange,
  sources: Readonly<Record<string, unknown>>,
) => void | Promise<void>;

/** What an extension adds to one route. Every part is decided at wiring. */
export interface RouteContribution {
  /** Position in the route headers: CORS uses 10, app-wide middleware 20, scoped middleware 30. */
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
  /**
   * A step that needs the mount-provided sources' values (a limit per authenticated `user`): on a
   * route with one, those sources are resolved once, after the `before` steps, then this step runs
   * with them (`sources.user`), then core binds. Absent, sources resolve as binders as usual.
   */
  readonly afterSources?: AfterSourcesStep;
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
  /**
   * Route facts: values recorded on the route's catalogue entry (`route.facts`), keyed by
   * extension, for other extensions to read (e.g. @api/openapi reads `auth`, the auth policy).
   */
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
   * wiring.addRoute({
   *   method: 'GET', path: '/assets/{a}.css', literal: true, owner: 'assets', operation: 'asset', handle,
   * });
   */
  readonly literal?: boolean;
  /** A label for the catalogue, e.g. `document` or `asset`. */
  readonly operation: string;
  /** Declared responses (for documents); optional. */
  readonly responses?: readonly ResponseKindFacts[];
  /**
   * Header names every answer of this route sets itself (a page with its own
   * `content-security-policy`): contributions' constant headers of those names are left out on
   * this route, decided at wiring, so the answer never carries two. [none]
   */
  readonly ownHeaders?: readonly string[];
  /** Answers the request; use `ex.send` so the route headers are applied. */
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

/**
 * A prefix route: one handler owns every path under `prefix` (`/api/auth` answers `/api/auth` and
 * `/api/auth/…`, never `/api/authx`), e.g. a fetch handler from another library. Exact and
 * templated routes always win over it; two prefix routes whose prefixes overlap (equal, or one
 * inside the other) are a `WiringError`. It runs the same plan as any route: limits, app-wide
 * and mount middleware, mount options (CORS, auth), request log, spans, compression.
 *
 * @example
 * wiring.addPrefixRoute({
 *   prefix: '/legacy', owner: 'legacy', operation: 'proxy',
 *   handle: (ex) => ex.send(200, ['content-type', 'text/plain'], `legacy ${ex.path}`),
 * });
 */
export interface PrefixRoute extends Omit<ExtensionRouteBase, 'path'> {
  /**
   * The path prefix: `/` then segments without slots, no trailing `/` (`/` alone owns every path
   * no other route answers).
   */
  readonly prefix: string;
  /**
   * The methods it answers (upper case); another method gets 405 with `allow`. Default: every
   * method, HEAD and OPTIONS included (a CORS preflight a mount's policy accepts is still
   * answered by core).
   */
  readonly methods?: readonly string[];
  /** A label for the catalogue (default `handle`). */
  readonly operation?: string;
  /** Answers the request (`ex.send`, or `sendFetchResponse(ex, response)` for a WHATWG `Response`). */
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
