// The authenticator factories (auth, bearerAuth, basicAuth, cookieAuth, hybridAuth) and the compiled
// mount option they build. Option checks: definition.ts; the user table: user-table.ts; the 401
// challenge: challenge.ts; duplicate credential headers: credential-headers.ts; OpenAPI schemes and
// declared errors: advertised.ts.
import { AuthenticationRequiredError, MalformedRequestError, type ErrorClass } from '@api/core';
import {
  mountOption,
  objectEntries,
  toHeaderName,
  type Exchange,
  type MountContext,
  describeValue,
  wiringError,
  type ObjectSchemaLike,
  type RouteContribution,
  type RouteInfo,
} from '@api/core/extension';
import { advertised, checkRaises } from './advertised';
import { challengeOf } from './challenge';
import { duplicateCheck, singleHeaderNames } from './credential-headers';
import { checkOptions, type Definition } from './definition';
import {
  compileCrossOriginCheck,
  CrossOriginProtection,
  CrossOriginRequestError,
  crossOriginStep,
  isUnsafe,
  type CrossOriginCheck,
} from './cross-origin';
import { SecurityScheme } from './security-scheme';
import type {
  AuthFacts,
  AuthOptions,
  Authenticator,
  CookieAuthOptions,
  HybridAuthOptions,
  IsNullable,
  TypedAuthenticator,
  Out,
  UserSchema,
} from './types';
import { checkUserTable, isNullable } from './user-table';

function build<TUser extends UserSchema>(def: Definition): Authenticator<TUser> {
  const anonymous = isNullable(def.user);
  const { security, undescribed } = advertised(def);
  const challenge = challengeOf(
    def,
    def.schemeGiven ? security[0] : def.kind === 'cookies' ? undefined : def.headerScheme(),
  );
  const challengeHeaders: ReadonlyArray<readonly [string, string]> | undefined =
    challenge === undefined ? undefined : [['www-authenticate', challenge]];
  // Only 401s carry the challenge (whoever raised them on this mount); successful responses pay nothing.
  const errorHeaders = challengeHeaders
    ? (status: number) => (status === 401 ? challengeHeaders : undefined)
    : undefined;
  const checkDuplicates = duplicateCheck(singleHeaderNames(def.headers));
  // What the mount answers with besides the handler's own errors, for documents (@api/openapi):
  // the 401 (missing or refused credentials), the 400 of a credential header sent twice, and what
  // `authenticate` is declared to raise.
  const raises: readonly ErrorClass[] = [
    AuthenticationRequiredError,
    ...(checkDuplicates ? [MalformedRequestError] : []),
    ...checkRaises(def.label, def.raises),
  ];
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
    // Two credential lines are ambiguous: 400 before anything else is decided. Where the transport
    // already joined them into one value (fetch), there are no lines to count: the scheme's own
    // parse refuses the joined value.
    if (checkDuplicates && ex.req.repeatsJoined !== true) checkDuplicates(ex.req.rawHeaders);
    // A required header or cookie that is missing is a 401 before authenticate runs.
    if (bindHeaders) input.headers = bindHeaders(ex.req);
    if (bindCookies) input.cookies = bindCookies(ex.req);
    const user = def.authenticate(input);
    return user instanceof Promise ? user.then(settle) : settle(user);
  };
  const resolve = async (ex: Pick<Exchange, 'req'>): Promise<unknown> => resolveNow(ex);
  const crossOrigin = crossOriginOf(def);

  const compile = ({ route, wiring }: MountContext): RouteContribution => {
    bindHeaders ??= def.headers ? wiring.headerBinder(def.headers, def.label, unauthenticated) : undefined;
    bindCookies ??= def.cookies ? wiring.cookieBinder(def.cookies, def.label, unauthenticated) : undefined;
    checkUserTable(route, def.user);
    const facts: AuthFacts = { kind: def.kind, security, undescribed, anonymous, userSchema: def.user };
    const before = crossOrigin?.(route);
    const contribution: RouteContribution = {
      order: 50,
      sources: { user: resolveNow },
      facts: { auth: facts },
      raises: before ? [CrossOriginRequestError, ...raises] : raises,
      ...(before ? { before } : {}),
      ...(errorHeaders ? { errorHeaders } : {}),
    };
    return contribution;
  };

  const built: TypedAuthenticator<TUser> = {
    kind: def.kind,
    user: def.user as TUser,
    anonymous: anonymous as IsNullable<TUser>,
    security,
    resolve,
    [mountOption]: compile,
  };
  return built;
}

/**
 * The cross-origin protection a cookie or hybrid authenticator applies on a route: on unsafe
 * methods, unless the mount says `csrf: false`; the mount's own `csrf(…)` replaces the
 * authenticator's trusted origins. A hybrid request presenting a header credential is not checked.
 */
function crossOriginOf(
  def: Definition,
): ((route: RouteInfo) => ((ex: Exchange) => void) | undefined) | undefined {
  if (def.kind === 'headers') return undefined;
  const trusted = def.trustedOrigins ?? [];
  if (!Array.isArray(trusted))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      def.label,
      `trustedOrigins must be a list of origins, got ${describeValue(trusted)}`,
      "trustedOrigins: ['https://app.example']",
    );
  const own: CrossOriginCheck = compileCrossOriginCheck(def.label, trusted as readonly string[]);
  const headerNames =
    def.kind === 'hybrid' && def.headers
      ? Object.keys(objectEntries(def.headers) ?? {}).map(toHeaderName)
      : [];
  const presentsHeader = headerNames.length
    ? (ex: Exchange) => headerNames.some((name) => ex.req.headers[name] !== undefined)
    : undefined;
  return (route) => {
    const option: unknown = route.mountOptions.csrf;
    if (!isUnsafe(route) || option === false) return undefined;
    return crossOriginStep(option instanceof CrossOriginProtection ? option.check : own, presentsHeader);
  };
}

/** A header authenticator built by `factory`, advertised as `defaultScheme` unless `openapiSecurity` says otherwise. */
function headerAuth<THeaders extends ObjectSchemaLike, TUser extends UserSchema>(
  factory: string,
  options: AuthOptions<THeaders, TUser>,
  headerScheme: () => SecurityScheme,
): Authenticator<TUser> {
  const label = `${factory}({ headers })`;
  checkOptions(label, 'headers', options);
  return build({
    kind: 'headers',
    label,
    user: options.user,
    headers: options.headers,
    cookies: undefined,
    authenticate: (input) => options.authenticate(input as { headers: Out<THeaders> }),
    schemeGiven: 'openapiSecurity' in options,
    scheme: options.openapiSecurity,
    headerScheme,
    raises: options.raises,
    challengeGiven: 'wwwAuthenticate' in options,
    challenge: options.wwwAuthenticate,
    realm: options.realm,
    trustedOrigins: undefined,
  });
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
  return headerAuth('auth', options, () => SecurityScheme.httpBearer());
}

/** A header authenticator advertised as HTTP bearer (401s carry `www-authenticate: Bearer`). */
export function bearerAuth<THeaders extends ObjectSchemaLike, TUser extends UserSchema>(
  options: AuthOptions<THeaders, TUser>,
): Authenticator<TUser> {
  return headerAuth('bearerAuth', options, () => SecurityScheme.httpBearer());
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
  return headerAuth('basicAuth', options, () => SecurityScheme.httpBasic());
}

/**
 * A cookie authenticator (browsers; also WebSocket handshakes). Advertised in OpenAPI as an API
 * key in its cookie when it reads a single cookie; one reading several needs `openapiSecurity`
 * (@api/openapi refuses to guess which is the credential). Its 401s carry no `www-authenticate` challenge (no HTTP
 * scheme describes a session cookie; a browser would show a password dialog for `Basic`); set
 * `wwwAuthenticate` to send one.
 *
 * @example
 * const sessionAuth = cookieAuth({ cookies: Struct('Session', { session_id: v.string() }), user: User, authenticate: … });
 */
export function cookieAuth<TCookies extends ObjectSchemaLike, TUser extends UserSchema>(
  options: CookieAuthOptions<TCookies, TUser>,
): Authenticator<TUser> {
  const label = 'cookieAuth({ cookies })';
  checkOptions(label, 'cookies', options);
  return build({
    kind: 'cookies',
    label,
    user: options.user,
    headers: undefined,
    cookies: options.cookies,
    authenticate: (input) => options.authenticate(input as { cookies: Out<TCookies> }),
    schemeGiven: 'openapiSecurity' in options,
    scheme: options.openapiSecurity,
    headerScheme: () => SecurityScheme.httpBearer(),
    raises: options.raises,
    challengeGiven: 'wwwAuthenticate' in options,
    challenge: options.wwwAuthenticate,
    realm: undefined,
    trustedOrigins: options.trustedOrigins,
  });
}

/**
 * Reads headers and cookies: bearer-token clients and cookie-carrying browsers on the same routes.
 * Advertised in OpenAPI as two alternatives, HTTP bearer or an API key in its cookie (a cookie
 * Struct of several fields needs `openapiSecurity`). Its 401s carry `www-authenticate: Bearer`.
 */
export function hybridAuth<
  THeaders extends ObjectSchemaLike,
  TCookies extends ObjectSchemaLike,
  TUser extends UserSchema,
>(options: HybridAuthOptions<THeaders, TCookies, TUser>): Authenticator<TUser> {
  const label = 'hybridAuth({ headers, cookies })';
  checkOptions(label, 'hybrid', options);
  return build({
    kind: 'hybrid',
    label,
    user: options.user,
    headers: options.headers,
    cookies: options.cookies,
    authenticate: (input) =>
      options.authenticate(input as { headers: Out<THeaders>; cookies: Out<TCookies> }),
    schemeGiven: 'openapiSecurity' in options,
    scheme: options.openapiSecurity,
    headerScheme: () => SecurityScheme.httpBearer(),
    raises: options.raises,
    challengeGiven: 'wwwAuthenticate' in options,
    challenge: options.wwwAuthenticate,
    realm: undefined,
    trustedOrigins: options.trustedOrigins,
  });
}
