// The public types of @api/auth: authenticators, their options, and the `auth` mount option's typing.
import type * as v from 'valibot';
import type { ErrorClass, Operation, WiringTypeError } from '@api/core';
import type { Exchange, MountOptionValue, ObjectSchemaLike } from '@api/core/extension';
import type { SecurityScheme } from './security-scheme';

/** The user schema an authenticator declares: `User` gates, `v.nullable(User)` accepts anonymous callers. */
export type UserSchema = v.GenericSchema;

export type MaybePromise<T> = T | Promise<T>;

/** Which request parts an authenticator reads. */
export type AuthKind = 'headers' | 'cookies' | 'hybrid';

/** What @api/openapi reads from the catalogue (`route.facts.get('auth')`). */
export interface AuthFacts {
  readonly kind: AuthKind;
  /**
   * How OpenAPI documents the authenticator: alternatives, a client sends the credential of one
   * (a hybrid authenticator: bearer or its cookie). Empty when it cannot be described without
   * `openapiSecurity` (`undescribed` says why).
   */
  readonly security: readonly SecurityScheme[];
  /** Why `security` is empty (e.g. a cookie authenticator reading several cookies). */
  readonly undescribed: string | undefined;
  readonly anonymous: boolean;
  readonly userSchema: UserSchema;
}

declare const userType: unique symbol;

/** What every authenticator has, whatever its user schema. */
interface AuthenticatorBase extends MountOptionValue {
  readonly kind: AuthKind;
  /** How OpenAPI documents it: the schemes a client may use, one of them (see `AuthFacts.security`). */
  readonly security: readonly SecurityScheme[];
  /** Runs the authenticator against a request (for other transports, e.g. WebSocket handshakes). */
  resolve(ex: Pick<Exchange, 'req'>): Promise<unknown>;
}

/** An authenticator of one user schema (what `bearerAuth({ user: User, … })` returns). */
export interface TypedAuthenticator<TUser extends UserSchema> extends AuthenticatorBase {
  readonly user: TUser;
  /** True when the user schema is nullable: anonymous callers reach handlers with `user: null`. */
  readonly anonymous: IsNullable<TUser>;
  /** Phantom: keeps `Authenticator<User>` and `Authenticator<Nullable<User>>` apart (invariant). */
  readonly [userType]?: (user: TUser) => TUser;
}

/** Any authenticator (the bare `Authenticator`): every `Authenticator<User>` is one. */
export interface AnyAuthenticator extends AuthenticatorBase {
  readonly user: UserSchema;
  readonly anonymous: boolean;
}

/**
 * A compiled authenticator: a typed mount option (`auth:`) for `includeResource`,
 * `includeEndpoint` (and WebSocket mounts). Build one with `auth`, `bearerAuth`, `basicAuth`,
 * `cookieAuth` or `hybridAuth`. `Authenticator<User>` is one of that user schema (a mount checks
 * it against its operations' `user`); the bare `Authenticator` is any of them, e.g. a variable
 * typed before it is chosen: `const a: Authenticator = bearerAuth({ … })`.
 */
export type Authenticator<TUser extends UserSchema = UserSchema> = [UserSchema] extends [TUser]
  ? AnyAuthenticator
  : TypedAuthenticator<TUser>;

export type Nullable = v.NullableSchema<v.GenericSchema, unknown> | v.NullishSchema<v.GenericSchema, unknown>;
/** `true` for a nullable user schema (anonymous-accepting), else `false`. */
export type IsNullable<TUser> = TUser extends Nullable ? true : false;

export type Out<T> = T extends v.GenericSchema ? v.InferOutput<T> : never;
/**
 * What `authenticate` returns: the user, or null/undefined when the caller presented no
 * credentials (a gating authenticator then answers 401; an anonymous-accepting one passes null).
 */
type UserResult<TUser extends UserSchema> = Out<TUser> | null | undefined;

/** Options shared by every authenticator. */
interface CommonOptions<TUser extends UserSchema> {
  /** The user schema: `User` gates; `v.nullable(User)` accepts anonymous callers. */
  readonly user: TUser;
  /**
   * How the authenticator shows up in OpenAPI: one scheme, or a list of alternatives (a client
   * uses one). Default: bearer for header auth (basic for `basicAuth`), an API key in the cookie
   * for a one-cookie `cookieAuth`, both alternatives for a `hybridAuth` with one cookie; a cookie
   * Struct of several fields cannot be described without it (@api/openapi fails wiring).
   */
  readonly openapiSecurity?: SecurityScheme | readonly [SecurityScheme, ...SecurityScheme[]];
  /**
   * Error classes `authenticate` throws (e.g. a 401 `InvalidTokenError` for a bad token): recorded
   * in the route catalogue, so @api/openapi documents them on every operation of the mount beside
   * the authenticator's own 401 `authentication-required`. [none]
   */
  readonly raises?: readonly ErrorClass[];
  /**
   * The `www-authenticate` challenge every 401 of the mount carries (missing credentials, a `null`
   * user, or a 401 raised by `authenticate` or a handler). Default: `Bearer` for header and hybrid
   * authenticators advertised as HTTP bearer, `Basic realm="…"` for HTTP basic, none for cookie
   * authenticators and API-key schemes (no registered HTTP scheme fits them). `false` sends none.
   */
  readonly wwwAuthenticate?: string | false;
}

/** Options of a header authenticator (`Auth[THeaders, TUser]`). */
export interface AuthOptions<THeaders extends ObjectSchemaLike, TUser extends UserSchema>
  extends CommonOptions<TUser> {
  /**
   * Headers bound like the `headers` source (`authorization` → `authorization`). A header read
   * here (other than an array field) sent on two lines is refused with 400 `malformed-request`.
   */
  readonly headers: THeaders;
  /** Returns the user; throw an HTTP error (e.g. 401) for bad credentials; null = none presented. */
  authenticate(input: { headers: Out<THeaders> }): MaybePromise<UserResult<TUser>>;
  /**
   * The realm of the `Basic realm="…"` challenge (only with `basicAuth` or an HTTP-basic
   * `openapiSecurity`). Default `"api"`.
   */
  readonly realm?: string;
}

/** Options of a cookie authenticator (`CookieAuth[TCookies, TUser]`). */
export interface CookieAuthOptions<TCookies extends ObjectSchemaLike, TUser extends UserSchema>
  extends CommonOptions<TUser> {
  /** Cookies bound by verbatim, case-sensitive name. */
  readonly cookies: TCookies;
  authenticate(input: { cookies: Out<TCookies> }): MaybePromise<UserResult<TUser>>;
  /**
   * Origins whose pages may send unsafe requests (POST, PUT, PATCH, DELETE) to the mounts this
   * authenticator guards: exact `scheme://host[:port]`. Every other cross-origin unsafe request a
   * browser sends is refused with 403 `cross-origin-request` (see `csrf`). [none: same origin only]
   */
  readonly trustedOrigins?: readonly string[];
}

/** Options of a hybrid authenticator (`HybridAuth[THeaders, TCookies, TUser]`). */
export interface HybridAuthOptions<
  THeaders extends ObjectSchemaLike,
  TCookies extends ObjectSchemaLike,
  TUser extends UserSchema,
> extends CommonOptions<TUser> {
  readonly headers: THeaders;
  readonly cookies: TCookies;
  authenticate(input: { headers: Out<THeaders>; cookies: Out<TCookies> }): MaybePromise<UserResult<TUser>>;
  /**
   * Origins whose pages may send unsafe requests with the cookie (see `CookieAuthOptions`). A
   * request presenting one of the authenticator's headers is never checked: a page on another
   * origin cannot attach the credential without having it. [none: same origin only]
   */
  readonly trustedOrigins?: readonly string[];
}

// ------------------------------------------------------------------ mount option typing

type Ops<TRoute> = {
  [K in keyof TRoute]-?: NonNullable<TRoute[K]> extends Operation<infer S> ? S : never;
}[keyof TRoute];
/** The user schemas a route's operations declare (never when none does). */
export type DeclaredUsers<TRoute> =
  Ops<TRoute> extends infer S ? (S extends { readonly user: infer U } ? U : never) : never;
type HasUserless<TRoute> = true extends (
  Ops<TRoute> extends infer S ? (S extends { readonly user: unknown } ? false : true) : never
)
  ? true
  : false;

/**
 * The authenticators a mount accepts, computed from its operations' `user` declarations
 * (the spec's table): when operations declare `user`, exactly that schema (gating `User`, or
 * anonymous-accepting `v.nullable(User)` only if every operation declares it); when none
 * does, any gating authenticator. Each case carries the `WiringTypeError` tsc prints beside the
 * expected type when another authenticator is given (the run-time check says the same).
 */
export type AuthFor<TRoute> = [DeclaredUsers<TRoute>] extends [never]
  ?
      | AnyGating
      | WiringTypeError<'@api: no operation of this mount declares user, so auth must gate (its user schema not nullable). Fix: build the authenticator with user: User, or declare user: v.nullable(User) on every operation.'>
  : IsUnion<DeclaredUsers<TRoute>> extends true
    ? WiringTypeError<`@api: operations ${JoinAnd<UserOperations<TRoute>>} of this mount declare different user schemas, so no one authenticator returns them all. Fix: declare one user schema on every operation (a union is one schema), or mount the operations with another user separately.`>
    : DeclaredUsers<TRoute> extends Nullable
      ? HasUserless<TRoute> extends true
        ? WiringTypeError<'@api: some operations of this mount declare a nullable user and others none, so no authenticator fits (one that accepts anonymous callers needs user on every operation). Fix: declare the nullable user on every operation, or mount the others separately.'>
        :
            | Authenticator<DeclaredUsers<TRoute>>
            | WiringTypeError<'@api: the operations declare a nullable user, so auth must accept anonymous callers and return that same schema. Fix: build the authenticator with user: v.nullable(User) for the declared User, or declare a non-null user.'>
      :
          | Authenticator<DeclaredUsers<TRoute>>
          | WiringTypeError<'@api: the operations declare a non-null user, so auth must gate and return that same user schema. Fix: build the authenticator with the declared user schema (not nullable), or change the user the operations declare.'>;

/** True when `T` is a union of two or more types (two different user schemas on one mount). */
type IsUnion<T, TAll = T> = T extends unknown ? ([TAll] extends [T] ? false : true) : never;
/** The operation names a route class can have, in the order messages list them. */
type OperationNames = [
  'create',
  'readMany',
  'readOne',
  'updateFull',
  'updatePartial',
  'delete',
  'get',
  'post',
  'put',
  'patch',
];
/** The operations of a route that declare `user`, in `OperationNames` order. */
type UserOperations<TRoute, TNames extends readonly string[] = OperationNames> = TNames extends readonly [
  infer H extends string,
  ...infer R extends string[],
]
  ? H extends keyof TRoute
    ? NonNullable<TRoute[H]> extends Operation<infer S>
      ? S extends { readonly user: unknown }
        ? [H, ...UserOperations<TRoute, R>]
        : UserOperations<TRoute, R>
      : UserOperations<TRoute, R>
    : UserOperations<TRoute, R>
  : [];
/** `a`, `a and b`, `a, b and c`. */
type JoinAnd<T extends readonly string[]> = T extends readonly [infer A extends string]
  ? A
  : T extends readonly [infer A extends string, infer B extends string]
    ? `${A} and ${B}`
    : T extends readonly [infer A extends string, ...infer R extends string[]]
      ? `${A}, ${JoinAnd<R>}`
      : '';

/** Any gating authenticator (its user schema is not nullable). */
export type AnyGating = MountOptionValue & { readonly kind: AuthKind; readonly anonymous: false };
