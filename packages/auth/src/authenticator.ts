import type * as v from 'valibot';
import { AuthenticationRequiredError, MalformedRequestError, type Operation } from '@api/core';
import {
  mountOption,
  structInfo,
  toHeaderName,
  WiringError,
  type Exchange,
  type MountContext,
  type MountOptionValue,
  type ObjectSchemaLike,
  type RouteContribution,
} from '@api/core/extension';
import { SecurityScheme } from './security-scheme';

/** The user schema an authenticator declares: `User` gates, `v.nullable(User)` accepts anonymous callers. */
export type UserSchema = v.GenericSchema;

type MaybePromise<T> = T | Promise<T>;

/** Which request parts an authenticator reads. */
export type AuthKind = 'headers' | 'cookies' | 'hybrid';

/** What @api/openapi reads from the catalogue (`route.facts.get('auth')`). */
export interface AuthFacts {
  readonly kind: AuthKind;
  readonly scheme: SecurityScheme;
  readonly anonymous: boolean;
  readonly userSchema: UserSchema;
}

declare const userType: unique symbol;

/**
 * A compiled authenticator: a typed mount option (`auth:`) for `includeResource`,
 * `includeEndpoint` (and WebSocket mounts). Build one with `auth`, `bearerAuth`, `basicAuth`,
 * `cookieAuth` or `hybridAuth`.
 */
export interface Authenticator<TUser extends UserSchema = UserSchema> extends MountOptionValue {
  readonly kind: AuthKind;
  readonly user: TUser;
  /** True when the user schema is nullable: anonymous callers reach handlers with `user: null`. */
  readonly anonymous: IsNullable<TUser>;
  readonly scheme: SecurityScheme;
  /** Runs the authenticator against a request (for other transports, e.g. WebSocket handshakes). */
  resolve(ex: Pick<Exchange, 'req'>): Promise<unknown>;
  /** Phantom: keeps `Authenticator<User>` and `Authenticator<Nullable<User>>` apart (invariant). */
  readonly [userType]?: (user: TUser) => TUser;
}

type Nullable = v.NullableSchema<v.GenericSchema, unknown> | v.NullishSchema<v.GenericSchema, unknown>;
/** `true` for a nullable user schema (anonymous-accepting), else `false`. */
export type IsNullable<TUser> = TUser extends Nullable ? true : false;

function isNullable(schema: UserSchema): boolean {
  const t = (schema as { type: string }).type;
  return t === 'nullable' || t === 'nullish';
}
function core(schema: UserSchema): unknown {
  let s = schema as { type: string; wrapped?: unknown };
  while ((s.type === 'nullable' || s.type === 'nullish' || s.type === 'optional') && s.wrapped)
    s = s.wrapped as typeof s;
  return s;
}
function schemaName(schema: UserSchema): string {
  const s = core(schema) as { type: string };
  const name = structInfo(s)?.name ?? s.type;
  return isNullable(schema) ? `v.nullable(${name})` : name;
}

interface Definition {
  readonly kind: AuthKind;
  readonly label: string;
  readonly user: UserSchema;
  readonly headers: ObjectSchemaLike | undefined;
  readonly cookies: ObjectSchemaLike | undefined;
  readonly authenticate: (input: { headers?: unknown; cookies?: unknown }) => MaybePromise<unknown>;
  /** Whether `openapiSecurity` was given at all (given as undefined/null is a WiringError). */
  readonly schemeGiven: boolean;
  readonly scheme: unknown;
  readonly defaultScheme: () => SecurityScheme;
  /** Whether `wwwAuthenticate` was given at all, and its value. */
  readonly challengeGiven: boolean;
  readonly challenge: unknown;
  /** The `realm` of a basic challenge (`basicAuth({ realm })`). */
  readonly realm: unknown;
}

/** The realm a `Basic` challenge names when none is configured. */
const DEFAULT_REALM = 'api';

// A header value we can send: visible ASCII, space and tab (no CR, LF, NUL or other controls).
const HEADER_VALUE = /^[\t\x20-\x7e]+$/;

/**
 * The `www-authenticate` value every 401 of the mount carries: `Bearer` for header auth advertised
 * as bearer, `Basic realm="…"` for basic, none for cookie auth and API-key schemes (no registered
 * HTTP scheme fits them); `wwwAuthenticate` overrides it (`false` sends none).
 */
function challengeOf(def: Definition, scheme: SecurityScheme): string | undefined {
  if (def.challengeGiven) {
    const given = def.challenge;
    if (given === false) return undefined;
    if (typeof given !== 'string' || !HEADER_VALUE.test(given) || given.trim() !== given) {
      throw new WiringError(
        `${def.label}: wwwAuthenticate must be a header value (visible ASCII, no line breaks) or false. Fix: e.g. wwwAuthenticate: 'Bearer realm="api"', or false to send no challenge.`,
      );
    }
    return given;
  }
  const object = scheme.toOpenapi();
  if (object.type === 'http' && object.scheme === 'basic') {
    const realm = def.realm === undefined ? DEFAULT_REALM : def.realm;
    // Sent as a quoted-string: no quote or backslash to escape, nothing a header cannot carry.
    if (typeof realm !== 'string' || !HEADER_VALUE.test(realm) || /["\\]/.test(realm)) {
      throw new WiringError(
        `${def.label}: realm must be a non-empty string without quotes, backslashes or control characters. Fix: e.g. realm: 'widgets'.`,
      );
    }
    return `Basic realm="${realm}"`;
  }
  if (def.realm !== undefined) {
    throw new WiringError(
      `${def.label}: realm is only used by a Basic challenge. Fix: remove realm, or use basicAuth / openapiSecurity: SecurityScheme.httpBasic().`,
    );
  }
  if (def.kind === 'cookies' || object.type === 'apiKey') return undefined;
  return 'Bearer';
}

/** Wire names of the header fields an authenticator reads singly (credentials must be unambiguous). */
function singleHeaderNames(schema: ObjectSchemaLike | undefined): string[] {
  if (!schema) return [];
  const names: string[] = [];
  for (const [key, field] of Object.entries(schema.entries)) {
    let s = field as { type: string; wrapped?: unknown };
    while (s.wrapped && s.type !== 'array') s = s.wrapped as typeof s;
    if (s.type !== 'array') names.push(toHeaderName(key));
  }
  return names;
}

/**
 * A check that refuses a request sending a credential header on more than one line (400): Node keeps
 * only the first `Authorization` line, so the result would depend on the order of the lines.
 */
function duplicateCheck(names: readonly string[]): ((raw: readonly string[]) => void) | undefined {
  if (names.length === 0) return undefined;
  const lengths = new Set(names.map((n) => n.length));
  return (raw) => {
    let seen: string[] | undefined;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      if (!lengths.has(name.length)) continue;
      const lower = name.toLowerCase();
      if (!names.includes(lower)) continue;
      if (seen?.includes(lower)) {
        const path = `header ${lower}`;
        const message = 'Header sent more than once';
        throw new MalformedRequestError({ reason: `${message} at \`${path}\``, issues: [{ path, message }] });
      }
      (seen ??= []).push(lower);
    }
  };
}

function build<TUser extends UserSchema>(def: Definition): Authenticator<TUser> {
  const anonymous = isNullable(def.user);
  let scheme: SecurityScheme;
  if (!def.schemeGiven) scheme = def.defaultScheme();
  else if (def.scheme instanceof SecurityScheme) scheme = def.scheme;
  else {
    throw new WiringError(
      `${def.label}: openapiSecurity is not a SecurityScheme. Fix: use SecurityScheme.httpBearer(), SecurityScheme.httpBasic() or SecurityScheme.apiKey({ name, location }), or leave it out for the default.`,
    );
  }
  const challenge = challengeOf(def, scheme);
  const challengeHeaders: ReadonlyArray<readonly [string, string]> | undefined =
    challenge === undefined ? undefined : [['www-authenticate', challenge]];
  // Only 401s carry the challenge (whoever raised them on this mount); successful responses pay nothing.
  const errorHeaders = challengeHeaders
    ? (status: number) => (status === 401 ? challengeHeaders : undefined)
    : undefined;
  const checkDuplicates = duplicateCheck(singleHeaderNames(def.headers));
  let bindHeaders: ((req: Exchange['req']) => unknown) | undefined;
  let bindCookies: ((req: Exchange['req']) => unknown) | undefined;
  const unauthenticated = (): Error => new AuthenticationRequiredError();

  const settle = (user: unknown): unknown => {
    if (user === null || user === undefined) {
      if (!anonymous) throw new AuthenticationRequiredError();
      return null;
    }
    return user;
  };
  // Synchronous authenticators stay synchronous: no promise on the request path unless needed.
  const resolveNow = (ex: Pick<Exchange, 'req'>): unknown => {
    const input: { headers?: unknown; cookies?: unknown } = {};
    // Two credential lines are ambiguous: 400 before anything else is decided.
    if (checkDuplicates) checkDuplicates(ex.req.rawHeaders);
    // A required header or cookie that is missing is a 401 before authenticate runs.
    if (bindHeaders) input.headers = bindHeaders(ex.req);
    if (bindCookies) input.cookies = bindCookies(ex.req);
    const user = def.authenticate(input);
    return user instanceof Promise ? user.then(settle) : settle(user);
  };
  const resolve = async (ex: Pick<Exchange, 'req'>): Promise<unknown> => resolveNow(ex);

  const compile = ({ route, wiring }: MountContext): RouteContribution => {
    const where = `${route.owner}.${route.operation}`;
    bindHeaders ??= def.headers ? wiring.headerBinder(def.headers, def.label, unauthenticated) : undefined;
    bindCookies ??= def.cookies ? wiring.cookieBinder(def.cookies, def.label, unauthenticated) : undefined;
    const declared = route.spec?.user;
    // Operations, and extension routes that declare their sources (a WebSocket handler), follow the user table.
    if (route.kind === 'operation' || route.spec !== undefined) {
      if (declared === undefined) {
        if (anonymous) {
          wiring.fail(
            where,
            `the mount's authenticator accepts anonymous callers (${schemaName(def.user)}) but the operation declares no user`,
            `declare user: ${schemaName(def.user)} so the handler sees who called (null for anonymous), or use a gating authenticator`,
          );
        }
      } else {
        if (isNullable(declared) !== anonymous) {
          wiring.fail(
            where,
            anonymous
              ? `declares user: ${schemaName(declared)}, but the authenticator accepts anonymous callers and may pass null`
              : `declares user: ${schemaName(declared)}, but the authenticator gates (it never passes null)`,
            anonymous
              ? `declare user: ${schemaName(def.user)}`
              : `declare user: ${schemaName(def.user)}, or make the authenticator's user nullable to accept anonymous callers`,
          );
        }
        if (core(declared) !== core(def.user)) {
          wiring.fail(
            where,
            `declares user: ${schemaName(declared)}, but the authenticator returns ${schemaName(def.user)}`,
            `declare user: ${schemaName(def.user)}, or mount an authenticator that returns ${schemaName(declared)}`,
          );
        }
      }
    }
    const facts: AuthFacts = { kind: def.kind, scheme, anonymous, userSchema: def.user };
    const contribution: RouteContribution = {
      order: 50,
      sources: { user: resolveNow },
      facts: { auth: facts },
      ...(errorHeaders ? { errorHeaders } : {}),
    };
    return contribution;
  };

  return {
    kind: def.kind,
    user: def.user as TUser,
    anonymous: anonymous as IsNullable<TUser>,
    scheme,
    resolve,
    [mountOption]: compile,
  };
}

type Out<T> = T extends v.GenericSchema ? v.InferOutput<T> : never;
/**
 * What `authenticate` returns: the user, or null/undefined when the caller presented no
 * credentials (a gating authenticator then answers 401; an anonymous-accepting one passes null).
 */
type UserResult<TUser extends UserSchema> = Out<TUser> | null | undefined;

/** Options shared by every authenticator. */
interface CommonOptions<TUser extends UserSchema> {
  /** The user schema: `User` gates; `v.nullable(User)` accepts anonymous callers. */
  readonly user: TUser;
  /** How the authenticator shows up in OpenAPI. */
  readonly openapiSecurity?: SecurityScheme;
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

/**
 * A header authenticator. Advertised as HTTP bearer unless `openapiSecurity` says otherwise.
 *
 * @example
 * const tokenAuth = auth({
 *   headers: Struct('Credentials', { authorization: v.string() }),
 *   user: User,
 *   authenticate: ({ headers }) => users.get(headers.authorization) ?? raise(new AuthenticationRequiredError()),
 * });
 */
export function auth<THeaders extends ObjectSchemaLike, TUser extends UserSchema>(
  options: AuthOptions<THeaders, TUser>,
): Authenticator<TUser> {
  return build({
    kind: 'headers',
    label: 'auth({ headers })',
    user: options.user,
    headers: options.headers,
    cookies: undefined,
    authenticate: (input) => options.authenticate(input as { headers: Out<THeaders> }),
    schemeGiven: 'openapiSecurity' in options,
    scheme: options.openapiSecurity,
    defaultScheme: () => SecurityScheme.httpBearer(),
    challengeGiven: 'wwwAuthenticate' in options,
    challenge: options.wwwAuthenticate,
    realm: options.realm,
  });
}

/** A header authenticator advertised as HTTP bearer (401s carry `www-authenticate: Bearer`). */
export function bearerAuth<THeaders extends ObjectSchemaLike, TUser extends UserSchema>(
  options: AuthOptions<THeaders, TUser>,
): Authenticator<TUser> {
  return auth(
    'openapiSecurity' in options ? options : { ...options, openapiSecurity: SecurityScheme.httpBearer() },
  );
}

/**
 * A header authenticator advertised as HTTP basic; 401s carry `www-authenticate: Basic realm="…"`
 * (`realm` option, default `"api"`).
 *
 * @example
 * const adminAuth = basicAuth({ headers: Credentials, user: Admin, realm: 'admin', authenticate: … });
 */
export function basicAuth<THeaders extends ObjectSchemaLike, TUser extends UserSchema>(
  options: AuthOptions<THeaders, TUser>,
): Authenticator<TUser> {
  return auth(
    'openapiSecurity' in options ? options : { ...options, openapiSecurity: SecurityScheme.httpBasic() },
  );
}

/** Options of a cookie authenticator (`CookieAuth[TCookies, TUser]`). */
export interface CookieAuthOptions<TCookies extends ObjectSchemaLike, TUser extends UserSchema>
  extends CommonOptions<TUser> {
  /** Cookies bound by verbatim, case-sensitive name. */
  readonly cookies: TCookies;
  authenticate(input: { cookies: Out<TCookies> }): MaybePromise<UserResult<TUser>>;
}

/**
 * A cookie authenticator (browsers; also WebSocket handshakes). Advertised as an API key in the
 * cookie when it reads a single cookie. Its 401s carry no `www-authenticate` challenge (no HTTP
 * scheme describes a session cookie; a browser would show a password dialog for `Basic`); set
 * `wwwAuthenticate` to send one.
 *
 * @example
 * const sessionAuth = cookieAuth({ cookies: Struct('Session', { session_id: v.string() }), user: User, authenticate: … });
 */
export function cookieAuth<TCookies extends ObjectSchemaLike, TUser extends UserSchema>(
  options: CookieAuthOptions<TCookies, TUser>,
): Authenticator<TUser> {
  const names = Object.keys(options.cookies.entries);
  return build({
    kind: 'cookies',
    label: 'cookieAuth({ cookies })',
    user: options.user,
    headers: undefined,
    cookies: options.cookies,
    authenticate: (input) => options.authenticate(input as { cookies: Out<TCookies> }),
    schemeGiven: 'openapiSecurity' in options,
    scheme: options.openapiSecurity,
    defaultScheme: () =>
      names.length === 1
        ? SecurityScheme.apiKey({ name: names[0]!, location: 'cookie' })
        : SecurityScheme.httpBearer(),
    challengeGiven: 'wwwAuthenticate' in options,
    challenge: options.wwwAuthenticate,
    realm: undefined,
  });
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
}

/** Reads headers and cookies: bearer-token clients and cookie-carrying browsers on the same routes. */
export function hybridAuth<
  THeaders extends ObjectSchemaLike,
  TCookies extends ObjectSchemaLike,
  TUser extends UserSchema,
>(options: HybridAuthOptions<THeaders, TCookies, TUser>): Authenticator<TUser> {
  return build({
    kind: 'hybrid',
    label: 'hybridAuth({ headers, cookies })',
    user: options.user,
    headers: options.headers,
    cookies: options.cookies,
    authenticate: (input) =>
      options.authenticate(input as { headers: Out<THeaders>; cookies: Out<TCookies> }),
    schemeGiven: 'openapiSecurity' in options,
    scheme: options.openapiSecurity,
    defaultScheme: () => SecurityScheme.httpBearer(),
    challengeGiven: 'wwwAuthenticate' in options,
    challenge: options.wwwAuthenticate,
    realm: undefined,
  });
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
 * does, any gating authenticator.
 */
export type AuthFor<TRoute> = [DeclaredUsers<TRoute>] extends [never]
  ? AnyGating
  : HasUserless<TRoute> extends true
    ? DeclaredUsers<TRoute> extends Nullable
      ? never
      : Authenticator<DeclaredUsers<TRoute>>
    : Authenticator<DeclaredUsers<TRoute>>;

/** Any gating authenticator (its user schema is not nullable). */
export type AnyGating = MountOptionValue & { readonly kind: AuthKind; readonly anonymous: false };
