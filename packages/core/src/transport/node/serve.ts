import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Limits } from '../../contract/limits';
import type { Transport } from '../../contract/exchange';
import type { ShutdownOptions } from '../../lifecycle/shutdown';
import type { Logger } from '../../logging/logger';
import { consoleLogger } from '../../logging/logger';
import { freshRequestId } from '../../logging/request-id';
import { describeValue, wiringError } from '../../contract/wiring-error';
import { isClosing } from './linger';
import {
  MalformedRequestError,
  RequestHeaderFieldsTooLargeError,
  RequestTimeoutError,
  type HTTPError,
} from '../../errors';

/** Options of `serve()`. */
/**
 * What `serve()` needs of an app: a `BaseApp` is one (structural, so this transport does not
 * depend on the app layer above it, and a second copy of core in node_modules still serves).
 */
export interface ServableApp {
  start(options?: { readonly transport?: Transport }): Promise<void>;
  close(options?: ShutdownOptions): Promise<void>;
  readonly limits: Limits;
  readonly logger: Logger;
  readonly listener: (req: IncomingMessage, res: ServerResponse) => void;
  readonly upgradeListener: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  readonly hasUpgradeRoutes: boolean;
  /** Request ids and the request log, for the answers `serve()` writes itself (BaseApp has it). */
  readonly requestTracing?: { readonly ids: boolean; readonly log: boolean };
  /** Readiness answers 503 from now on (older copies of core lack it). */
  markUnready?(): void;
  /** True when the app answers health probes (its `health` option). */
  readonly answersProbes?: boolean;
}

export interface ServeOptions {
  /** Port to listen on (0 picks a free one). Default 8000. */
  readonly port?: number;
  /** Host to bind. Default `127.0.0.1`. */
  readonly host?: string;
  /** Install SIGTERM/SIGINT handlers that shut down gracefully. Default true. */
  readonly signals?: boolean;
  /** Do not log the listening address and shutdown progress. Default false. */
  readonly quiet?: boolean;
  /**
   * On SIGTERM, how long the server goes on accepting and answering after readiness turned `503`,
   * before it stops accepting (ms): a load balancer's probe sees the 503 and takes the instance
   * out first (Kubernetes' preStop pattern). Default 500 when the app answers health probes
   * (`health`), else 0. SIGINT (Ctrl-C) and `close()` do not wait.
   */
  readonly drainDelayMs?: number;
}

/** A running server. */
export interface RunningServer {
  readonly server: Server;
  readonly port: number;
  readonly url: string;
  /** Graceful shutdown: stop accepting, finish in-flight requests (up to the limit), tear the app down. */
  close(): Promise<void>;
}

const SERVE_KEYS: readonly string[] = ['port', 'host', 'signals', 'quiet', 'drainDelayMs'];

/** The default `drainDelayMs` of an app that answers health probes. */
export const DEFAULT_DRAIN_DELAY_MS = 500;

/** `serve(app, options)`: an app instance and known options of the right kinds, before anything starts. */
function checkServeArguments(app: unknown, options: unknown): void {
  // Structural (start, listener): a second copy of core in node_modules still serves.
  const a = app as Partial<Record<'start' | 'listener', unknown>> | null;
  if (
    typeof a !== 'object' ||
    a === null ||
    typeof a.start !== 'function' ||
    typeof a.listener !== 'function'
  )
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      'serve(app)',
      `expected an app instance (a BaseApp subclass), got ${describeValue(app)}`,
      'serve(new App(), { port: 8000 })',
    );
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      `serve(${(app as object).constructor.name}, options)`,
      `options must be an object, got ${describeValue(options)}`,
      `pass { ${SERVE_KEYS.join(', ')} } or nothing`,
    );
  const where = `serve(${(app as object).constructor.name}, options)`;
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o))
    if (!SERVE_KEYS.includes(key))
      throw wiringError(
        'API_WIRING_UNKNOWN_OPTION',
        where,
        `unknown option "${key}"`,
        `use only ${SERVE_KEYS.join(', ')}`,
      );
  const port = o.port;
  if (
    port !== undefined &&
    !(typeof port === 'number' && Number.isInteger(port) && port >= 0 && port <= 65535)
  )
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      'port must be an integer from 0 to 65535, ' +
        `got ${typeof port === 'number' ? port : describeValue(port)}`,
      'e.g. port: 8000 (0 picks a free port)',
    );
  if (o.host !== undefined && (typeof o.host !== 'string' || o.host === ''))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `host must be a non-empty string, got ${describeValue(o.host)}`,
      "e.g. host: '0.0.0.0' (every interface) or '127.0.0.1'",
    );
  const delay = o.drainDelayMs;
  if (
    delay !== undefined &&
    !(typeof delay === 'number' && Number.isInteger(delay) && delay >= 0 && delay <= 600_000)
  )
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      'drainDelayMs must be a whole number of ms from 0 to 600000, ' +
        `got ${typeof delay === 'number' ? delay : describeValue(delay)}`,
      'e.g. drainDelayMs: 5000 (longer than the readiness probe period), 0 for none',
    );
  for (const key of ['signals', 'quiet'])
    if (o[key] !== undefined && typeof o[key] !== 'boolean')
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `${key} must be true or false, got ${describeValue(o[key])}`,
        `${key}: ${key === 'signals' ? 'false' : 'true'}, or leave it out`,
      );
}

/**
 * True while a response's head is out on the socket and its body is not finished (a stream): a
 * parse error of a pipelined request must not write into it. The same check node:http's own
 * default `clientError` handler makes (it reads the same field; there is no public accessor).
 */
function responseInFlight(socket: Socket): boolean {
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  return current?.headersSent === true;
}

/** A raw HTTP/1.1 Problem answer for errors node:http reports before there is a request object. */
const PROBLEM = (error: HTTPError, reason: string, requestId?: string): string => {
  const body = error.problemJson();
  return (
    `HTTP/1.1 ${error.status} ${reason}\r\ncontent-type: application/problem+json\r\n` +
    (requestId === undefined ? '' : `x-request-id: ${requestId}\r\n`) +
    `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  );
};

/**
 * Serves an app on node:http: starts it (runs `wire()`), listens, and on SIGTERM/SIGINT stops
 * accepting, finishes in-flight requests within the shutdown limit, then tears the app down. An
 * app with `health` listens first and starts while listening: probes meanwhile get liveness 200
 * and readiness 503 `{"status":"starting"}`, other requests wait for the start; resolves once started.
 *
 * @example
 * const running = await serve(new App(), { port: 8000 });
 */
export async function serve(app: ServableApp, options: ServeOptions = {}): Promise<RunningServer> {
  checkServeArguments(app, options);
  // An app that answers probes listens while it starts: liveness 200, readiness 503 "starting"
  // (a probe sees the process while wire() and its startup work run; other requests wait for the
  // start). Without probes nothing could tell "starting" from "serving": it listens once started.
  const listensWhileStarting = app.answersProbes === true;
  if (!listensWhileStarting) await app.start({ transport: 'node' });
  const limits = app.limits;
  const server = createServer(
    {
      // node:http requires headersTimeout <= requestTimeout
      headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: 5_000,
      // The app answers a missing Host itself, with a Problem body (node's own 400 has none).
      requireHostHeader: false,
      // How often node:http checks the timeouts above (its default, 30 s, would let them overrun).
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, limits.headersTimeoutMs / 2)),
    },
    app.listener,
  );
  // One over the limit so the app sees the overflow and answers 431 itself.
  server.maxHeadersCount = limits.maxHeaders + 1;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const code = error.code;
    if (!socket.writable || code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    if (isClosing(socket) || responseInFlight(socket)) {
      // The app has answered on this connection (e.g. a refusal whose body node's parser then
      // rejects, such as `transfer-encoding: xchunked`): nothing more is written on it. A closing
      // socket lingers after its answer and then closes; only a timeout ends it at once.
      if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || !isClosing(socket)) socket.destroy();
      return;
    }
    if (code === 'HPE_HEADER_OVERFLOW') {
      // A head over node's maxHeaderSize never reaches the app: answered here, with an id and a
      // request-log line as the app gives a 413 (the caller's own id is in the unread head).
      const tracing = app.requestTracing;
      const requestId = tracing?.ids ? freshRequestId() : undefined;
      socket.end(
        PROBLEM(new RequestHeaderFieldsTooLargeError(), 'Request Header Fields Too Large', requestId),
      );
      if (tracing?.log)
        app.logger.info('request finished', {
          status: 431,
          reason: 'the request head is over the server limit (maxHeaderSize)',
          requestId,
        });
    } else if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
      socket.end(PROBLEM(new RequestTimeoutError(), 'Request Timeout'));
    else {
      const reason = 'The request could not be parsed as HTTP/1.1';
      socket.end(
        PROBLEM(
          new MalformedRequestError({ reason, issues: [{ path: 'request', message: reason }] }),
          'Bad Request',
        ),
      );
    }
  });
  // Through the app's logger (pino's JSON lines when the app logs there), console for a bare view.
  const logger = (app as { readonly logger?: Logger }).logger ?? consoleLogger;
  const log = (message: string): void => {
    if (!options.quiet) logger.info(message);
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8000, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  if (listensWhileStarting) await startListening(app, server);
  // Upgrade routes are known once wired.
  if (app.hasUpgradeRoutes) server.on('upgrade', app.upgradeListener);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  log(`${app.constructor.name} listening on ${url}`);

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      log(`${app.constructor.name} shutting down: no new connections, finishing in-flight requests`);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      try {
        // before-close → in-flight requests and upgraded sockets (capped) → drain → exit stack
        await app.close({
          onDeadline: () => {
            log(`${app.constructor.name}: shutdown deadline reached; closing remaining connections`);
            server.closeAllConnections();
          },
        });
      } finally {
        server.closeAllConnections();
        await stopped;
      }
      log(`${app.constructor.name} stopped`);
    })());

  if (options.signals ?? true) {
    const drainDelay = options.drainDelayMs ?? (app.answersProbes === true ? DEFAULT_DRAIN_DELAY_MS : 0);
    let signalled = false;
    const onSignal = (signal: NodeJS.Signals): void => {
      // A second signal (a terminal's Ctrl-C reaches the package manager too, which forwards it)
      // must not kill a shutdown in progress: it is noted, not obeyed.
      if (signalled) {
        log(`${signal} received again; still shutting down (the cap is ${limits.shutdownTimeoutMs} ms)`);
        return;
      }
      signalled = true;
      log(`${signal} received`);
      const delay = signal === 'SIGTERM' ? drainDelay : 0;
      if (delay > 0) {
        app.markUnready?.();
        log(`readiness answers 503; still accepting for ${delay} ms before shutting down`);
      }
      new Promise((resolve) => setTimeout(resolve, delay)).then(close).then(
        () => {
          process.off('SIGTERM', onSignal);
          process.off('SIGINT', onSignal);
          log(`${app.constructor.name} shut down cleanly; exiting with 0`);
          process.exit(0);
        },
        (error: unknown) => {
          logger.error(`${app.constructor.name}: shutdown failed`, error);
          process.exit(1);
        },
      );
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }
  return { server, port: address.port, url, close };
}

/**
 * Starts an app whose server already listens: an upgrade request meanwhile is refused (closed: no
 * upgrade route exists yet); a failed start closes the server before `serve()` rejects.
 */
async function startListening(app: ServableApp, server: Server): Promise<void> {
  const refuseUpgrade = (_req: IncomingMessage, socket: Duplex): void => void socket.destroy();
  server.on('upgrade', refuseUpgrade);
  try {
    await app.start({ transport: 'node' });
  } catch (error) {
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await stopped;
    throw error;
  } finally {
    server.off('upgrade', refuseUpgrade);
  }
}
