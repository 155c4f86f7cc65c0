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

/** The mount path a route class declares (`Resource('/widgets')` → `'/widgets'`). */
export type MountPath<TRoute> = PathOf<RouteClassOf<TRoute>>;
type PathOf<TRoute> = NonNullable<TRoute[keyof RouteClassFacts & keyof TRoute]>['path' &
  keyof NonNullable<TRoute[keyof RouteClassFacts & keyof TRoute]>];

declare const authType: unique symbol;
declare const authRoute: unique symbol;
/**
 * A route class mounted with `auth` (from @api/auth): every call may answer 401
 * `authentication-required`, and the errors the authenticator `raises` (list them as the second
 * parameter; by default any 401 Problem).
 *
 * @example
 * route<Authenticated<WidgetResource, typeof InvalidTokenError>>('/widgets')
 */
export interface Authenticated<TRoute, TRaises = AnyUnauthorized> extends AuthMark<TRaises> {
  /** Phantom: the route class, never present at run time. */
  readonly [authRoute]: TRoute;
}
/**
 * The mark `Authenticated` carries. `Authenticated` wraps the class rather than intersecting it
 * (`TRoute & AuthMark`): tsc reads an intersection's members with `this` bound to the whole
 * intersection, so every member type of the class (each operation's spec and the valibot types in
 * it) would be instantiated again per authenticated mount.
 */
export interface AuthMark<TRaises> {
  readonly [authType]?: TRaises;
}
/** The default of `Authenticated`'s raises: any 401 Problem. */
export interface AnyUnauthorized {
  readonly status: 401;
  readonly type: string;
}

/** The route class of a mount: the class itself, or the one inside `Authenticated`. */
export type RouteClassOf<TRoute> = TRoute extends Authenticated<infer R, unknown> ? R : TRoute;

/** Server messages of a WebSocket endpoint (never for HTTP route classes). */
type Receive<TRoute> = TRoute extends RouteClassFacts<string, { readonly receive: infer R }> ? R : never;

/** `route()`'s options: `{ text: true }` exactly for a WebSocket endpoint whose server sends plain text. */
export type RouteOptions<TRoute> = [Receive<RouteClassOf<TRoute>>] extends [never]
  ? []
  : [Receive<RouteClassOf<TRoute>>] extends [string]
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
