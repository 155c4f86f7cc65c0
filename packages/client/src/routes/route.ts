import type { RouteClassFacts } from '@api/core';

declare const routeType: unique symbol;

/**
 * One mount as the client knows it at run time: the route class's path. The route class itself
 * rides along in the type only (`import type`).
 */
export interface RouteRef<TRoute = unknown> {
  readonly path: string;
  /** A WebSocket endpoint whose server messages are plain text (`outbound: 'string'`). */
  readonly text?: true;
  /** Phantom: the route class (and the mount's auth), never present at run time. */
  readonly [routeType]?: TRoute;
}

/** The route class a `RouteRef` carries (`unknown` for anything else). */
export type RouteOfRef<TRef> = TRef extends { readonly [routeType]?: infer TRoute } ? TRoute : never;

/**
 * A route class's phantom facts (`RouteClassFacts`: mount path, WebSocket messages, class-level
 * errors), read by indexed access: cheaper for tsc than matching the class against
 * `RouteClassFacts<infer …>` once per fact. `never` for a type that is not a route class.
 */
export type Facts<TRoute> = NonNullable<TRoute[keyof RouteClassFacts & keyof TRoute]>;
/** One fact of a route class (`never` when it has none). */
export type FactOf<TRoute, K extends string> = Facts<TRoute>[K & keyof Facts<TRoute>];

/** The mount path a route class declares (`Resource('/widgets')` → `'/widgets'`). */
export type MountPath<TRoute> = FactOf<TRoute, 'path'>;

declare const authType: unique symbol;
/**
 * A route class mounted with `auth` (from @api/auth): every call may answer 401
 * `authentication-required`, and the errors the authenticator `raises` (list them as the second
 * parameter; by default any 401 Problem).
 *
 * @example
 * route<Authenticated<WidgetResource, typeof InvalidTokenError>>('/widgets')
 */
export type Authenticated<TRoute, TRaises = AnyUnauthorized> = TRoute & AuthMark<TRaises>;
/**
 * The mark `Authenticated` adds (interfaces, not type literals: tsc carries an interface through
 * instantiations without walking into it, which keeps a mount's cost per call low).
 */
export interface AuthMark<TRaises> {
  readonly [authType]?: TRaises;
}
/** The default of `Authenticated`'s raises: any 401 Problem. */
export interface AnyUnauthorized {
  readonly status: 401;
  readonly type: string;
}

/** The authenticator errors of a mount (never when it is not `Authenticated`). */
export type AuthOf<TRoute> = TRoute extends { readonly [authType]?: infer E }
  ? unknown extends E
    ? never
    : Exclude<E, undefined>
  : never;

/** Server messages of a WebSocket endpoint (never for HTTP route classes). */
type Receive<TRoute> = Field<FactOf<TRoute, 'messages'>, 'receive'>;
type Field<T, K extends string> = T[K & keyof T];

/** `route()`'s options: `{ text: true }` exactly for a WebSocket endpoint whose server sends plain text. */
export type RouteOptions<TRoute> = [Receive<TRoute>] extends [never]
  ? []
  : [Receive<TRoute>] extends [string]
    ? [options: { readonly text: true }]
    : [];

/**
 * Names one mount for `createClient`: the route class as a type argument, its path as the value.
 * The path must be the one the class declares (tsc rejects any other), so the client's only run-time
 * knowledge is one string per mount, checked against the server's types.
 *
 * @param path - the class's mount path, as in `Resource('/widgets')`
 * @example
 * import type { WidgetResource } from '../server/widgets';
 * const api = createClient({ baseUrl, routes: { widgets: route<WidgetResource>('/widgets') } });
 */
export function route<TRoute>(path: MountPath<TRoute>, ...options: RouteOptions<TRoute>): RouteRef<TRoute> {
  // `path` is the class's path literal, a string (tsc cannot see that through the indexed access).
  const at = path as unknown as string;
  return options[0]?.text ? { path: at, text: true } : { path: at };
}
