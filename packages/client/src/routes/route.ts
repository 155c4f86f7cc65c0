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

/** The mount path a route class declares (`Resource('/widgets')` → `'/widgets'`). */
export type MountPath<TRoute> = TRoute extends RouteClassFacts<infer P> ? P : never;

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
type Receive<TRoute> = TRoute extends RouteClassFacts<string, { readonly receive: infer R }> ? R : never;

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
  return options[0]?.text ? { path, text: true } : { path };
}
