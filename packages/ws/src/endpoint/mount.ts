import type { IncomingMessage } from 'node:http';
import { WebSocketServer } from 'ws';
import { ForbiddenError, ServiceUnavailableError, type MountOptions } from '@api/core';
import {
  defineExtension,
  routeClassName,
  wiringError,
  type Extension,
  type RouteInfo,
} from '@api/core/extension';
import { UpgradeRequiredError } from '../errors';
import { checkHandshake, kBadVersion, selectProtocol, upgradeHeaders } from '../handshake/handshake';
import { SocketSet } from '../liveness/socket-set';
import { compileOriginCheck } from '../origin/origin';
import { runSession } from '../socket/session';
import { WebSocket } from '../socket/websocket';
import { kInternals } from '../symbols';
import type { AsRoute, SocketHandler } from './endpoint';
import { checkEndpoint, checkMiddlewareMethods, checkPath, checkUser, type AuthLike } from './mount-checks';

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
      const { cls, info, where, declared } = checkEndpoint(wiring.appName, endpoint);
      if (wiring.transport === 'fetch')
        throw wiringError(
          'API_WIRING_APP_STATE',
          where,
          `WebSockets need node:http's upgrade, and ${wiring.appName} is started for the fetch transport (app.fetch, or start({ transport: 'fetch' })), which has none`,
          'serve the app with serve() (Node, Bun, Deno), or leave the WebSocket endpoint out of the fetch build',
        );
      const spec = declared.spec;
      checkPath(where, info.path, spec);

      const all = options as Record<string, unknown>;
      const maxFrameSize = (all.maxFrameSize as number | undefined) ?? DEFAULT_MAX_FRAME_SIZE;
      const pingInterval = (all.pingInterval as number | undefined) ?? DEFAULT_PING_INTERVAL;
      if (!Number.isSafeInteger(maxFrameSize) || maxFrameSize < 1)
        throw wiringError(
          'API_WIRING_LIMIT',
          where,
          'maxFrameSize must be a whole number of bytes ≥ 1',
          'e.g. maxFrameSize: 64 * 1024',
        );
      if (!Number.isSafeInteger(pingInterval) || pingInterval < 0)
        throw wiringError(
          'API_WIRING_INVALID_ARGUMENT',
          where,
          'pingInterval must be whole milliseconds ≥ 0 (0 disables pings)',
          'e.g. pingInterval: 30_000',
        );
      const mountOptions: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(all)) if (!OWN_OPTIONS.has(key)) mountOptions[key] = value;

      checkMiddlewareMethods(where, mountOptions.middleware);
      const auth = mountOptions.auth as AuthLike | undefined;
      checkUser(where, spec, auth);
      const cookieMount = auth?.kind === 'cookies' || auth?.kind === 'hybrid' || spec.cookies !== undefined;
      const allowed = all.allowedOrigins as readonly string[] | undefined;
      if (allowed !== undefined && !cookieMount)
        throw wiringError(
          'API_WIRING_WS_ORIGIN',
          where,
          'allowedOrigins has no effect here: the Origin check runs on mounts authenticated by cookies (cookieAuth, hybridAuth) or binding cookies, and this one is not',
          'remove allowedOrigins, or mount with a cookie authenticator',
        );
      if (allowed !== undefined && !Array.isArray(allowed))
        throw wiringError(
          'API_WIRING_INVALID_ARGUMENT',
          where,
          'allowedOrigins must be a list of origins',
          "e.g. ['https://app.example']",
        );
      const originCheck = cookieMount ? compileOriginCheck(where, allowed ?? []) : undefined;

      // What the handshake decided before the upgrade, for `ws` to write into the 101 (by request:
      // `handleUpgrade` asks for the protocol and the headers while it answers).
      const accepting = new WeakMap<
        IncomingMessage,
        { protocol: string | undefined; lines: readonly string[] }
      >();
      const wss = new WebSocketServer({
        noServer: true,
        clientTracking: false,
        perMessageDeflate: false,
        maxPayload: maxFrameSize,
        handleProtocols: (_offered, req) => accepting.get(req)?.protocol ?? false,
      });
      wss.on('headers', (headers, req) => {
        const lines = accepting.get(req)?.lines;
        if (lines) headers.push(...lines);
      });
      const sockets = new SocketSet(pingInterval);
      const { inbound, outbound, protocols } = info;
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
        owner: routeClassName(cls),
        operation: 'handle',
        ownerClass: cls,
        ...(info.meta !== undefined ? { classMeta: info.meta } : {}),
        spec,
        mountOptions,
        handle(ex, input) {
          const upgrade = ex.upgrade;
          if (upgrade === undefined || upgrade.request.headers.upgrade?.toLowerCase() !== 'websocket')
            throw new UpgradeRequiredError();
          // An upgrade carries node's own request: the `ws` library takes it as it is.
          const req = upgrade.request;
          const protocol = selectProtocol(checkHandshake(ex, req), protocols);
          if (sockets.closing) throw new ServiceUnavailableError();
          if (originCheck && originCheck(req.headers.origin, req.headers.host) === 'refused')
            throw new ForbiddenError();
          // Decided before the takeover, so a failing header hook is still an ordinary 500.
          const lines = upgradeHeaders(ex);
          const label = `${ex.method} ${ex.path}: WebSocket handler ${where}`;
          const { socket, head, end } = ex.takeOver();
          accepting.set(req, { protocol, lines });
          wss.handleUpgrade(req, socket, head, (raw) => {
            const ws = new WebSocket(raw, socket, inbound, outbound);
            // The close code, for the route's observeClose hooks (request log, traces).
            ws[kInternals].closeListeners.add(() => end({ code: ws.closeCode }));
            sockets.add(ws[kInternals]);
            void runSession(ws, (websocket) => handle({ ...input, websocket }), log, label);
          });
          accepting.delete(req);
        },
      });

      wiring.onBeforeClose(() => {
        void sockets.closeAll(SHUTDOWN_GRACE_MS);
      });
    },
  });
}
