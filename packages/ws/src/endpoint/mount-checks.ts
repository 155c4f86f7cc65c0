// What `websocket()` checks at wiring, each a WiringError naming the class, the problem and the fix.
import { structInfo } from '@api/core';
import { describeValue, routeClassName, wiringError } from '@api/core/extension';
import {
  endpointInfo,
  isSocketHandler,
  type EndpointInfo,
  type SocketHandler,
  type SocketSpec,
} from './endpoint';
import { kEndpoint } from '../symbols';

/** What the mount reads of an authenticator (@api/auth's, structurally). */
export interface AuthLike {
  readonly kind?: unknown;
  readonly user?: unknown;
  readonly anonymous?: unknown;
}

const SPEC_KEYS = new Set(['path', 'params', 'headers', 'cookies', 'rawHeaders', 'user']);

/** What was passed where an endpoint instance belongs, in words (its kind, never its contents). */
function describeGiven(given: unknown): string {
  if (typeof given === 'function') {
    const isEndpointClass = (given as { [kEndpoint]?: unknown })[kEndpoint] !== undefined;
    const name =
      (isEndpointClass ? routeClassName(given as abstract new () => object) : given.name) ||
      'an anonymous class';
    return isEndpointClass ? `the class ${name} itself, not an instance` : `a function (${name})`;
  }
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return describeValue(given);
  const ctor = (given as { constructor?: unknown }).constructor;
  const name = typeof ctor === 'function' ? ctor.name : '';
  if (ctor === Object || ctor === undefined) return 'a plain object';
  return name ? `an instance of ${name}, which is not declared with WebSocketEndpoint(…)` : 'an object';
}

/**
 * The endpoint's class, info and handler, or a WiringError saying what was passed instead.
 *
 * @param appName - for the message
 * @param endpoint - what `websocket()` was given
 */
export function checkEndpoint(
  appName: string,
  endpoint: unknown,
): {
  cls: abstract new (...args: never[]) => object;
  info: EndpointInfo;
  where: string;
  declared: SocketHandler;
} {
  const info = endpoint && typeof endpoint === 'object' ? endpointInfo(endpoint) : undefined;
  if (!info) {
    const isClass = typeof endpoint === 'function' && (endpoint as { [kEndpoint]?: unknown })[kEndpoint];
    throw wiringError(
      'API_WIRING_MOUNT_WRONG_CLASS',
      `${appName}.include(websocket(…))`,
      `expected an instance of a WebSocketEndpoint class, got ${describeGiven(endpoint)}`,
      isClass
        ? `pass an instance: websocket(new ${routeClassName(endpoint as abstract new () => object)}(…))`
        : "declare the class with `class ChatSocket extends WebSocketEndpoint('/path', { inbound, outbound }) { handle = this.handler(…) }` and pass `new ChatSocket(…)`",
    );
  }
  const cls = (endpoint as object).constructor as abstract new (...args: never[]) => object;
  const where = `${routeClassName(cls)}.handle`;
  const declared: unknown = (endpoint as { handle?: unknown }).handle;
  if (!isSocketHandler(declared)) {
    throw wiringError(
      'API_WIRING_WS_HANDLER',
      where,
      declared === undefined ? 'is missing' : 'is not a handler',
      `declare \`handle = this.handler({ … }, async ({ websocket }) => { … })\``,
    );
  }
  for (const key of Object.keys(declared.spec)) {
    if (!SPEC_KEYS.has(key))
      throw wiringError(
        'API_WIRING_UNKNOWN_OPTION',
        where,
        `unknown handshake source "${key}" (a handshake has no body)`,
        'use path, params, headers, cookies, rawHeaders or user',
      );
  }
  return { cls, info, where, declared };
}

/**
 * Mount middleware whose intercept cannot run on the handshake: a WebSocket handshake is a GET,
 * so an intercept whose `interceptMethods` lacks GET would never run, and the socket it was
 * meant to guard would be open to everyone.
 *
 * @param where - `ChatSocket.handle`
 * @param middleware - the mount's `middleware` option
 */
export function checkMiddlewareMethods(where: string, middleware: unknown): void {
  if (middleware === undefined) return;
  if (!Array.isArray(middleware))
    throw wiringError(
      'API_WIRING_MOUNT_OPTION',
      where,
      `mount option "middleware" must be a list, got ${describeGiven(middleware)}`,
      'middleware: [myMiddleware]',
    );
  middleware.forEach((mw: unknown, i) => {
    if (typeof mw !== 'object' || mw === null) return; // core's middleware check words the rest
    const { intercept, interceptMethods } = mw as { intercept?: unknown; interceptMethods?: unknown };
    if (typeof intercept !== 'function' || !Array.isArray(interceptMethods)) return;
    const methods = interceptMethods.map((m) => String(m).toUpperCase());
    if (!methods.includes('GET'))
      throw wiringError(
        'API_WIRING_INTERCEPT_UNREACHABLE',
        where,
        `mount middleware[${i}] intercepts ${methods.join(', ') || 'no method'} only, but a WebSocket handshake is a GET, so its intercept would never run and the socket would not be guarded`,
        "add 'GET' to its interceptMethods (e.g. interceptMethods: ['GET']), or leave it off this mount",
      );
  });
}

/** Path rules of the route (WiringError): the `path` schema covers exactly the slots, with no defaults. */
export function checkPath(where: string, template: string, spec: SocketSpec): void {
  const slots = [...template.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!);
  if (!spec.path) return;
  const entries = (spec.path as unknown as { entries: Record<string, { type: string }> }).entries;
  for (const slot of slots) {
    if (!(slot in entries))
      throw wiringError(
        'API_WIRING_PATH_BINDING',
        where,
        `path "${template}" has slot "{${slot}}" but the path schema has no field "${slot}"`,
        `add "${slot}" to the path Struct`,
      );
  }
  for (const [field, schema] of Object.entries(entries)) {
    if (!slots.includes(field))
      throw wiringError(
        'API_WIRING_PATH_BINDING',
        where,
        `path field "${field}" is not a slot of "${template}" (a WebSocket path is exact)`,
        `remove it or add "{${field}}" to the path`,
      );
    if (['optional', 'exact_optional', 'nullish', 'undefinedable'].includes(schema.type))
      throw wiringError(
        'API_WIRING_PATH_BINDING',
        where,
        `path field "${field}" cannot be optional or defaulted`,
        'declare it required',
      );
  }
}

function unwrapUser(schema: unknown): unknown {
  let s = schema as { type?: string; wrapped?: unknown };
  while ((s.type === 'nullable' || s.type === 'nullish' || s.type === 'optional') && s.wrapped) s = s.wrapped;
  return s;
}

function userName(schema: unknown): string {
  const core = unwrapUser(schema) as { type?: string };
  const name = structInfo(core)?.name ?? core.type ?? 'schema';
  const t = (schema as { type?: string }).type;
  return t === 'nullable' || t === 'nullish' ? `v.nullable(${name})` : name;
}

/**
 * The spec's table of `user` against the authenticator (rule 7/8). @api/auth checks it for
 * operations only, so the mount checks it for its upgrade route.
 */
export function checkUser(where: string, spec: SocketSpec, auth: AuthLike | undefined): void {
  if (!auth) {
    if (spec.user !== undefined)
      throw wiringError(
        'API_WIRING_SOURCE',
        where,
        'declares user, but the mount has no auth',
        'mount with { auth } from @api/auth, or remove user',
      );
    return;
  }
  if (auth.user === undefined) return; // not an @api/auth authenticator: its own compiler decides
  const anonymous = auth.anonymous === true;
  if (spec.user === undefined) {
    if (anonymous)
      throw wiringError(
        'API_WIRING_SOURCE',
        where,
        `the mount's authenticator accepts anonymous callers (${userName(auth.user)}) but the handler declares no user`,
        `declare user: ${userName(auth.user)}, or use a gating authenticator`,
      );
    return;
  }
  const t = (spec.user as { type?: string }).type;
  const nullable = t === 'nullable' || t === 'nullish';
  if (nullable !== anonymous)
    throw wiringError(
      'API_WIRING_SOURCE',
      where,
      anonymous
        ? `declares user: ${userName(spec.user)}, but the authenticator accepts anonymous callers and may pass null`
        : `declares user: ${userName(spec.user)}, but the authenticator gates (it never passes null)`,
      `declare user: ${userName(auth.user)}`,
    );
  if (unwrapUser(spec.user) !== unwrapUser(auth.user))
    throw wiringError(
      'API_WIRING_SOURCE',
      where,
      `declares user: ${userName(spec.user)}, but the authenticator returns ${userName(auth.user)}`,
      `declare user: ${userName(auth.user)}, or mount an authenticator that returns ${userName(spec.user)}`,
    );
}
