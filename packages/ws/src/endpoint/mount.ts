import type { IncomingMessage } from 'node:http';
import { WebSocketServer } from 'ws';
import {
  ForbiddenError,
  MalformedRequestError,
  ServiceUnavailableError,
  structInfo,
  WiringError,
  type MountOptions,
} from '@api/core';
import {
  defineExtension,
  routeClassName,
  type Exchange,
  type Extension,
  type RouteInfo,
} from '@api/core/extension';
import { UpgradeRequiredError } from '../errors';
import { SocketSet } from '../liveness/socket-set';
import { compileOriginCheck } from '../origin/origin';
import { runSession } from '../socket/session';
import { WebSocket } from '../socket/websocket';
import { kInternals } from '../symbols';
import { endpointInfo, isSocketHandler, type AsRoute, type SocketHandler, type SocketSpec } from './endpoint';

/** Options of the WebSocket mount that are its own (defaults in brackets). */
export interface WebSocketMountOptions {
  /**
   * The largest message a client may send, in bytes (`ws`'s `maxPayload`): a larger frame is
   * refused from its length header with 1009, before it is buffered. [1,048,576]
   */
  readonly maxFrameSize?: number;
  /** Milliseconds between liveness pings; a socket that missed the previous pong is cut. 0 disables. [30,000] */
  readonly pingInterval?: number;
  /**
   * Origins allowed besides the same origin, on mounts whose authentication reads cookies
   * (`cookieAuth`, `hybridAuth`) or whose handler binds `cookies`. Exact `scheme://host[:port]`. [none]
   */
  readonly allowedOrigins?: readonly string[];
}

/**
 * Options of `websocket(endpoint, options)`: the mount options every route takes (`auth` from
 * @api/auth, `cors` from @api/cors, `middleware`), typed against the endpoint's handler, plus the
 * WebSocket's own.
 */
export type WebSocketOptions<TEndpoint extends object> = Omit<MountOptions<AsRoute<TEndpoint>>, 'limits'> &
  WebSocketMountOptions;

/** The instance shape `websocket()` mounts. */
export interface WebSocketEndpointInstance {
  readonly handle: SocketHandler;
}

/** The default `maxFrameSize`: 1 MiB. */
export const DEFAULT_MAX_FRAME_SIZE = 1024 * 1024;
/** The default `pingInterval`: 30 s. */
export const DEFAULT_PING_INTERVAL = 30_000;
/** How long a client has to answer the shutdown close (1001) before it is cut. */
export const SHUTDOWN_GRACE_MS = 1_000;

const OWN_OPTIONS = new Set(['maxFrameSize', 'pingInterval', 'allowedOrigins']);
const SPEC_KEYS = new Set(['path', 'params', 'headers', 'cookies', 'rawHeaders', 'user']);
const KEY = /^[+/0-9A-Za-z]{22}==$/;
const PROTOCOLS = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+(?:[ \t]*,[ \t]*[!#$%&'*+\-.^_`|~0-9A-Za-z]+)*$/;
const kBadVersion = Symbol('@api/ws.badVersion');

interface AuthLike {
  readonly kind?: unknown;
  readonly user?: unknown;
  readonly anonymous?: unknown;
}

/**
 * Mounts a `WebSocketEndpoint`: an upgrade route in the app's route catalogue, so the handshake
 * goes through the same pipeline as any route — app-wide and mount middleware, `auth` (401
 * before the upgrade), binding of `path` / `params` / `headers` / `cookies` / `rawHeaders` /
 * `user`, and the error funnel (Problem or adapter body) for every refusal. Then: a plain GET
 * is answered 426, a bad `Sec-WebSocket-Key`/`Version` 400, a foreign or `null` `Origin` on a
 * cookie-authenticated mount 403, and otherwise the connection is accepted and the handler runs
 * for its lifetime. On shutdown every socket gets close 1001 and is cut after a short grace.
 *
 * @param endpoint - an instance of a `WebSocketEndpoint` class
 * @param options - `auth`, `cors`, `middleware`, `maxFrameSize`, `pingInterval`, `allowedOrigins`
 * @example
 * this.include(websocket(new ChatSocket(chat), { auth: sessionAuth, allowedOrigins: ['https://app.example'] }));
 */
export function websocket<TEndpoint extends WebSocketEndpointInstance>(
  endpoint: TEndpoint,
  options: WebSocketOptions<TEndpoint> = {},
): Extension<void> {
  return defineExtension({
    name: 'websocket',
    setup(wiring) {
      const cls = endpoint?.constructor as (abstract new (...args: never[]) => object) | undefined;
      const info = endpoint && typeof endpoint === 'object' ? endpointInfo(endpoint) : undefined;
      if (!cls || !info) {
        throw new WiringError(
          `${wiring.appName}.include(websocket(…)): ${cls ? routeClassName(cls) : typeof endpoint} is not a WebSocketEndpoint. Fix: declare it with \`class ${cls ? routeClassName(cls) : 'MySocket'} extends WebSocketEndpoint('/path', { inbound, outbound }) {}\`.`,
        );
      }
      const className = routeClassName(cls);
      const where = `${className}.handle`;
      const declared: unknown = (endpoint as { handle?: unknown }).handle;
      if (!isSocketHandler(declared)) {
        throw new WiringError(
          `${where}: ${declared === undefined ? 'is missing' : 'is not a handler'}. Fix: declare \`handle = this.handler({ … }, async ({ websocket }) => { … })\`.`,
        );
      }
      const spec = declared.spec;
      for (const key of Object.keys(spec)) {
        if (!SPEC_KEYS.has(key))
          throw new WiringError(
            `${where}: unknown handshake source "${key}" (a handshake has no body). Fix: use path, params, headers, cookies, rawHeaders or user.`,
          );
      }
      checkPath(where, info.path, spec);

      const all = options as Record<string, unknown>;
      const maxFrameSize = (all.maxFrameSize as number | undefined) ?? DEFAULT_MAX_FRAME_SIZE;
      const pingInterval = (all.pingInterval as number | undefined) ?? DEFAULT_PING_INTERVAL;
      if (!Number.isSafeInteger(maxFrameSize) || maxFrameSize < 1)
        throw new WiringError(
          `${where}: maxFrameSize must be a whole number of bytes ≥ 1. Fix: e.g. maxFrameSize: 64 * 1024.`,
        );
      if (!Number.isSafeInteger(pingInterval) || pingInterval < 0)
        throw new WiringError(
          `${where}: pingInterval must be whole milliseconds ≥ 0 (0 disables pings). Fix: e.g. pingInterval: 30_000.`,
        );
      const mountOptions: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(all)) if (!OWN_OPTIONS.has(key)) mountOptions[key] = value;

      const auth = mountOptions.auth as AuthLike | undefined;
      checkUser(where, spec, auth);
      const cookieMount = auth?.kind === 'cookies' || auth?.kind === 'hybrid' || spec.cookies !== undefined;
      const allowed = all.allowedOrigins as readonly string[] | undefined;
      if (allowed !== undefined && !cookieMount)
        throw new WiringError(
          `${where}: allowedOrigins has no effect here: the Origin check runs on mounts authenticated by cookies (cookieAuth, hybridAuth) or binding cookies, and this one is not. Fix: remove allowedOrigins, or mount with a cookie authenticator.`,
        );
      if (allowed !== undefined && !Array.isArray(allowed))
        throw new WiringError(
          `${where}: allowedOrigins must be a list of origins. Fix: e.g. ['https://app.example'].`,
        );
      const originCheck = cookieMount ? compileOriginCheck(where, allowed ?? []) : undefined;

      const wss = new WebSocketServer({
        noServer: true,
        clientTracking: false,
        perMessageDeflate: false,
        maxPayload: maxFrameSize,
      });
      const sockets = new SocketSet(pingInterval);
      const { inbound, outbound } = info;
      const handle = declared.handler as (input: Record<string, unknown>) => unknown;
      const log = wiring.log;

      const isOurs = (route: RouteInfo): boolean =>
        route.kind === 'upgrade' && route.ownerClass === cls && route.path === info.path;
      wiring.addContributor((route) =>
        isOurs(route)
          ? {
              order: 40,
              dynamicHeaders: (ex, status) =>
                status === 426
                  ? [['upgrade', 'websocket']]
                  : status === 400 && ex.state[kBadVersion] === true
                    ? [['sec-websocket-version', '13']]
                    : undefined,
            }
          : undefined,
      );

      wiring.addUpgradeRoute({
        path: info.path,
        owner: className,
        operation: 'handle',
        ownerClass: cls,
        ...(info.meta !== undefined ? { classMeta: info.meta } : {}),
        spec,
        mountOptions,
        handle(ex, input) {
          const req = ex.req;
          if (ex.upgrade === undefined || req.headers.upgrade?.toLowerCase() !== 'websocket')
            throw new UpgradeRequiredError();
          checkHandshake(ex, req);
          if (sockets.closing) throw new ServiceUnavailableError();
          if (originCheck && originCheck(req.headers.origin, req.headers.host) === 'refused')
            throw new ForbiddenError();
          const { socket, head } = ex.takeOver();
          wss.handleUpgrade(req, socket, head, (raw) => {
            const ws = new WebSocket(raw, socket, inbound, outbound);
            sockets.add(ws[kInternals]);
            void runSession(ws, (websocket) => handle({ ...input, websocket }), log, where);
          });
        },
      });

      wiring.onBeforeClose(() => {
        void sockets.closeAll(SHUTDOWN_GRACE_MS);
      });
    },
  });
}

function badHeader(header: string, message: string): MalformedRequestError {
  const path = `header ${header}`;
  return new MalformedRequestError({ reason: `${message} at \`${path}\``, issues: [{ path, message }] });
}

/** The checks `ws` would make (and answer with its own bare 400), made first so the funnel answers. */
function checkHandshake(ex: Exchange, req: IncomingMessage): void {
  const version = req.headers['sec-websocket-version'];
  if (version !== '13' && version !== '8') {
    ex.state[kBadVersion] = true;
    throw badHeader('sec-websocket-version', 'Unsupported WebSocket version (expected 13)');
  }
  const key = req.headers['sec-websocket-key'];
  if (typeof key !== 'string' || !KEY.test(key))
    throw badHeader('sec-websocket-key', 'Invalid Sec-WebSocket-Key (expected 16 base64-encoded bytes)');
  const protocols = req.headers['sec-websocket-protocol'];
  if (protocols !== undefined) {
    const list = protocols.split(',').map((p) => p.trim());
    if (!PROTOCOLS.test(protocols.trim()) || new Set(list).size !== list.length)
      throw badHeader('sec-websocket-protocol', 'Invalid Sec-WebSocket-Protocol (expected distinct tokens)');
  }
}

/** Path rules of the route (WiringError): the `path` schema covers exactly the slots, with no defaults. */
function checkPath(where: string, template: string, spec: SocketSpec): void {
  const slots = [...template.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!);
  if (!spec.path) return;
  const entries = (spec.path as unknown as { entries: Record<string, { type: string }> }).entries;
  for (const slot of slots) {
    if (!(slot in entries))
      throw new WiringError(
        `${where}: path "${template}" has slot "{${slot}}" but the path schema has no field "${slot}". Fix: add "${slot}" to the path Struct.`,
      );
  }
  for (const [field, schema] of Object.entries(entries)) {
    if (!slots.includes(field))
      throw new WiringError(
        `${where}: path field "${field}" is not a slot of "${template}" (a WebSocket path is exact). Fix: remove it or add "{${field}}" to the path.`,
      );
    if (['optional', 'exact_optional', 'nullish', 'undefinedable'].includes(schema.type))
      throw new WiringError(
        `${where}: path field "${field}" cannot be optional or defaulted. Fix: declare it required.`,
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
function checkUser(where: string, spec: SocketSpec, auth: AuthLike | undefined): void {
  if (!auth) {
    if (spec.user !== undefined)
      throw new WiringError(
        `${where}: declares user, but the mount has no auth. Fix: mount with { auth } from @api/auth, or remove user.`,
      );
    return;
  }
  if (auth.user === undefined) return; // not an @api/auth authenticator: its own compiler decides
  const anonymous = auth.anonymous === true;
  if (spec.user === undefined) {
    if (anonymous)
      throw new WiringError(
        `${where}: the mount's authenticator accepts anonymous callers (${userName(auth.user)}) but the handler declares no user. Fix: declare user: ${userName(auth.user)}, or use a gating authenticator.`,
      );
    return;
  }
  const t = (spec.user as { type?: string }).type;
  const nullable = t === 'nullable' || t === 'nullish';
  if (nullable !== anonymous)
    throw new WiringError(
      anonymous
        ? `${where}: declares user: ${userName(spec.user)}, but the authenticator accepts anonymous callers and may pass null. Fix: declare user: ${userName(auth.user)}.`
        : `${where}: declares user: ${userName(spec.user)}, but the authenticator gates (it never passes null). Fix: declare user: ${userName(auth.user)}.`,
    );
  if (unwrapUser(spec.user) !== unwrapUser(auth.user))
    throw new WiringError(
      `${where}: declares user: ${userName(spec.user)}, but the authenticator returns ${userName(auth.user)}. Fix: declare user: ${userName(auth.user)}, or mount an authenticator that returns ${userName(spec.user)}.`,
    );
}
