// The route catalogue as extensions (e.g. @api/openapi) read it once wiring is finished.
import type { ErrorClass, RouteMeta } from './meta';
import type { ResponseKindFacts } from './response-spec';
import type { OperationSpec } from './operation-spec';

/** A route in the finished catalogue, as extensions (e.g. @api/openapi) read it. */
export interface RouteInfo {
  /** The method; `*` for a prefix route that answers every method. */
  readonly method: string;
  /** The path template, e.g. `/widgets/{widget_id}`; for a prefix route its prefix (`/api/auth`). */
  readonly path: string;
  /**
   * `operation` (Resource/Endpoint), `custom` (an extension answers), `upgrade` (e.g. a WebSocket
   * handshake), `prefix` (one handler owns every path under `path`, e.g. a mounted fetch handler).
   */
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
  readonly responses: readonly ResponseKindFacts[];
  /** Status when a response does not fix one. */
  readonly defaultStatus: number;
  /** The options the route was mounted with (`auth`, `cors`, `middleware`, …). */
  readonly mountOptions: Readonly<Record<string, unknown>>;
  /**
   * The `prefix` the route's class was mounted under (`/v1`), already part of `path`; absent
   * without one. A class mounted under two prefixes has a route for each.
   */
  readonly mountPrefix?: string;
  /** Excluded from generated documents (spec routes, assets, favicon). */
  readonly hidden: boolean;
  /**
   * True for a route added with `literal: true`: `path` is an exact path, not a template — a `{…}`
   * in it is two characters, not a slot.
   */
  readonly literal?: boolean;
  /**
   * Header names the route's answers set themselves (`addRoute({ ownHeaders })`, lower case):
   * constant contribution headers of those names are left out on this route.
   */
  readonly ownHeaders?: readonly string[];
  /**
   * Route facts: what contributions recorded on this route at wiring (their `facts`), keyed by
   * extension, for other extensions to read (e.g. `auth`: the policy @api/openapi documents).
   */
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
export type RouteKind = 'operation' | 'custom' | 'upgrade' | 'prefix';
