import { setMaxListeners } from 'node:events';
import type { Socket } from 'node:net';
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  MalformedRequestError,
  MethodNotAllowedError,
  NotFoundError,
  RequestHeaderFieldsTooLargeError,
  ServiceUnavailableError,
  URITooLongError,
  type BaseHTTPError,
} from '../errors';
import type { AroundHook, Exchange, HeaderList } from './exchange-api';
import type { Logger } from '../logging/logger';
import type { Limits } from '../app/limits';
import type { UrlResolver } from '../responses/location';
import { writeUndeclaredResponse } from '../responses/undeclared';
import { pick, type Router } from '../routing/router';
import { normalizePercentEncoding, toOriginForm } from '../routing/normalize-path';
import { isClosing } from '../server/linger';
import { ExchangeImpl, type ExchangeHost } from './exchange';
import type { ErrorFunnel } from './funnel';
import type { Plan } from './plan';
import { composeAround, observeWhenFinished, runPlan } from './runner';

// The router's answers carry no per-request data: one instance each serves every miss.
const NOT_FOUND = new NotFoundError();
const METHOD_NOT_ALLOWED = new MethodNotAllowedError();

/** An app-wide intercept, compiled: runs before routing. */
export interface CompiledIntercept {
  readonly methods: ReadonlySet<string> | undefined;
  readonly intercept: (ex: Exchange) => unknown;
}

/** What the runtime is built from, at wiring. */
export type RuntimeParts = Pick<
  Runtime,
  'router' | 'fallback' | 'appIntercepts' | 'funnel' | 'resolver' | 'limits' | 'log' | 'requestIds'
>;

/** The request path, built once when wiring finishes: route → plan → runner, errors → funnel. */
export class Runtime implements ExchangeHost {
  /** Every route's plan by method and path (static paths in a map, templates in buckets). */
  readonly router: Router<Plan>;
  /** The plan of unrouted answers (404, 405, automatic OPTIONS, app intercepts): app-wide tail and observers. */
  readonly fallback: Plan;
  /** `wiring.addIntercept` intercepts, in order: they run before routing. */
  readonly appIntercepts: readonly CompiledIntercept[];
  /** Renders every error (exception handlers, adapter, Problem, logged 500). */
  readonly funnel: ErrorFunnel;
  /** Resolves Location/Link targets (base URL, route paths). */
  readonly resolver: UrlResolver;
  /** The app's effective limits (headers, bodies, shutdown cap). */
  readonly limits: Limits;
  /** The app's logger. */
  readonly log: Logger;
  /** True when the app has request ids (request log, or a `requestId` source): echoed and logged. */
  readonly requestIds: boolean;
  /** True once shutdown began: responses carry `connection: close`. */
  draining = false;
  readonly #shutdown = new AbortController();
  /** Requests whose response has not closed yet. */
  inFlight = 0;
  /** Sockets taken over by upgrade routes, until they close. */
  readonly upgraded = new Set<Duplex>();
  /** Requests still reading their body (answered 503 by `refuseReading` when shutdown hits its cap). */
  readonly reading = new Set<ExchangeImpl>();
  #idle: (() => void) | undefined;

  constructor(parts: RuntimeParts) {
    this.router = parts.router;
    this.fallback = parts.fallback;
    this.appIntercepts = parts.appIntercepts;
    this.funnel = parts.funnel;
    this.resolver = parts.resolver;
    this.limits = parts.limits;
    this.log = parts.log;
    this.requestIds = parts.requestIds;
    // One listener per open stream: thousands of SSE clients are normal, not a leak.
    setMaxListeners(0, this.#shutdown.signal);
  }

  /** Aborted by `beginShutdown()`; every open stream may listen (no listener cap). */
  get shutdownSignal(): AbortSignal {
    return this.#shutdown.signal;
  }

  /** The first shutdown phase: new responses say `connection: close`, long responses are told to end. */
  beginShutdown(): void {
    if (this.draining) return;
    this.draining = true;
    this.#shutdown.abort();
  }

  /** Resolves when no request is in flight and no upgraded socket is open. */
  whenIdle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => (this.#idle = resolve));
  }

  /** Answers every request still uploading its body 503 (the shutdown cap was reached); node then closes them. */
  refuseReading(): void {
    for (const ex of this.reading) {
      ex.closeAfter = true;
      ex.fail(new ServiceUnavailableError());
    }
    this.reading.clear();
  }

  /** Destroys every upgraded socket still open (the shutdown cap was reached). */
  destroyUpgraded(): void {
    for (const socket of this.upgraded) socket.destroy();
  }

  #isIdle(): boolean {
    return this.inFlight === 0 && this.upgraded.size === 0;
  }

  #checkIdle(): void {
    if (this.#idle !== undefined && this.#isIdle()) {
      const idle = this.#idle;
      this.#idle = undefined;
      idle();
    }
  }

  readonly #onClose = (): void => {
    this.inFlight--;
    this.#checkIdle();
  };

  /**
   * node:http's `request` event (and `handleUpgrade`'s): builds the exchange from the request
   * target, then `dispatch`es it.
   */
  handle(req: IncomingMessage, res: ServerResponse, upgradeHead?: Buffer): void {
    // A request pipelined behind its connection's last response (node queues its response without
    // a socket) is never answered: that connection closes after the answer already decided.
    if (res.socket === null && isClosing(req.socket)) return;
    const target = req.url ?? '/';
    // Origin-form ("/…") is the common case: one char check. Absolute-form routes like it.
    const url = target.charCodeAt(0) === 47 ? target : toOriginForm(target);
    const q = url === undefined ? -1 : url.indexOf('?');
    let path = url === undefined ? target : q < 0 ? url : url.slice(0, q);
    // Percent-encoded octets compare case-insensitively, an encoded unreserved character equals
    // the plain one: normalized once here, so routing, binding, assets and hooks see one spelling.
    if (path.includes('%')) path = normalizePercentEncoding(path);
    const ex = new ExchangeImpl(
      this,
      req,
      res,
      req.method ?? 'GET',
      path,
      url === undefined || q < 0 ? '' : url.slice(q + 1),
    );
    if (upgradeHead !== undefined) ex.upgrade = { head: upgradeHead, request: req, response: res };
    this.dispatch(
      ex,
      url === undefined ? badRequest(BAD_TARGET) : refuseRequest(req, target, this.limits.maxHeaders),
    );
  }

  /**
   * Runs an exchange a transport built (node:http above, or `app.fetch`): counted in flight until
   * its response closes; a `refusal` (a request the transport cannot trust) answers unrouted.
   */
  dispatch(ex: ExchangeImpl, refusal: BaseHTTPError | undefined): void {
    this.inFlight++;
    // 'on', not 'once': no wrapper per request; the response object is dropped after 'close' anyway.
    ex.res.on('close', this.#onClose);
    if (refusal !== undefined) {
      // A request the server cannot trust (its framing, host or target) is the connection's last.
      ex.closeAfter = true;
      this.#unrouted(ex, refusal);
      return;
    }
    if (this.appIntercepts.length > 0) {
      this.#interceptThenRoute(ex).catch((error: unknown) => ex.fail(error));
      return;
    }
    this.route(ex);
  }

  /**
   * The `upgrade` event: the request gets a real response object on the socket, so it runs through
   * the same router, plans and funnel as any request; the upgrade route accepts with `takeOver()`.
   */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // node:http stops watching an upgraded socket; a reset must not crash the process.
    socket.on('error', () => socket.destroy());
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Socket);
    // Every answer that is not a takeover ends the connection.
    res.once('finish', () => socket.end());
    this.handle(req, res, head);
  }

  /** An upgrade route took the connection over: the socket is tracked (shutdown waits for it) instead of the request. */
  adopt(ex: ExchangeImpl, socket: Duplex): void {
    ex.res.off('close', this.#onClose);
    this.inFlight--;
    this.upgraded.add(socket);
    socket.once('close', () => {
      this.upgraded.delete(socket);
      this.#checkIdle();
    });
  }

  /** Renders `error` as the exchange's answer through the funnel (`extra`: headers it must carry). */
  fail(ex: ExchangeImpl, error: unknown, extra?: HeaderList): void {
    this.funnel.fail(ex, error, extra);
  }

  async #interceptThenRoute(ex: ExchangeImpl): Promise<void> {
    for (const { methods, intercept } of this.appIntercepts) {
      if (methods && !methods.has(ex.method)) continue;
      const answer = await intercept(ex);
      if (answer !== undefined) {
        this.#around(this.fallback.around, ex, () => {
          this.#observeFallback(ex);
          writeUndeclaredResponse(answer, ex, this.resolver);
        });
        return;
      }
    }
    this.route(ex);
  }

  /** Finds the exchange's route and runs its plan; 404, 405 and the automatic OPTIONS answer unrouted. */
  route(ex: ExchangeImpl): void {
    // Exact paths first, without allocating a match.
    const entry = this.router.findStatic(ex.path);
    if (entry !== undefined && ex.method !== 'OPTIONS') {
      const plan = pick(entry, ex.method);
      if (plan !== undefined) {
        ex.plan = plan;
        runPlan(plan, ex, this.resolver);
        return;
      }
    }
    const match = this.router.find(ex.method, ex.path);
    if (match === undefined) {
      this.#unrouted(ex, NOT_FOUND);
      return;
    }
    if (ex.method === 'OPTIONS') {
      this.#options(ex, match.entry.methods, match.entry.allow, match.params);
      return;
    }
    const plan = match.route;
    if (plan === undefined) {
      // The 405 carries the path's own tail (its mount's CORS or CORS.OFF, its middleware headers).
      const sibling: Plan | undefined = match.entry.methods.values().next().value;
      ex.params = match.params;
      ex.plan = sibling;
      this.#around(sibling?.around, ex, () => {
        if (sibling?.observers) observeWhenFinished(sibling, ex);
        else this.#observeFallback(ex);
        ex.fail(METHOD_NOT_ALLOWED, ['allow', match.entry.allow]);
      });
      return;
    }
    ex.params = match.params;
    ex.plan = plan;
    runPlan(plan, ex, this.resolver);
  }

  /** 404, 414, 431, 400: the fallback plan's around hooks, tail and observers apply. */
  #unrouted(ex: ExchangeImpl, error: unknown, extra?: HeaderList): void {
    this.#around(this.fallback.around, ex, () => {
      this.#observeFallback(ex);
      ex.fail(error, extra);
    });
  }

  /** Runs an unrouted answer inside `around` hooks (composed per call: these answers are off the hot path). */
  #around(around: readonly AroundHook[] | undefined, ex: ExchangeImpl, answer: () => void): void {
    if (around === undefined) answer();
    else composeAround(around, answer)(ex);
  }

  #observeFallback(ex: ExchangeImpl): void {
    if (ex.finished === undefined && this.fallback.observers) observeWhenFinished(this.fallback, ex);
  }

  #options(
    ex: ExchangeImpl,
    plans: ReadonlyMap<string, Plan>,
    allow: string,
    params: readonly string[],
  ): void {
    ex.params = params;
    // The automatic answer carries the path's own tail (its routes share a mount), not the fallback's.
    ex.plan = plans.values().next().value;
    this.#around(ex.plan?.around, ex, () => this.#answerOptions(ex, plans, allow));
  }

  #answerOptions(ex: ExchangeImpl, plans: ReadonlyMap<string, Plan>, allow: string): void {
    if (ex.plan?.observers) observeWhenFinished(ex.plan, ex);
    else this.#observeFallback(ex);
    const head: HeaderList = ['allow', allow];
    for (const plan of plans.values()) {
      if (!plan.options) continue;
      for (const hook of plan.options) {
        const extra = hook(ex);
        if (extra) {
          for (const [k, val] of extra) head.push(k, val);
          ex.sendRaw(204, head);
          return;
        }
      }
    }
    ex.sendOptions(head);
  }
}

/** The longest request target served (longer: 414). */
const MAX_TARGET = 8 * 1024;

const BAD_TARGET = 'The request target is not a valid absolute URI (userinfo or an empty host)';

function badRequest(reason: string): MalformedRequestError {
  return new MalformedRequestError({ reason, issues: [{ path: 'request', message: reason }] });
}

/**
 * Wire checks node:http leaves to the app, before routing: header count (431), target length (414),
 * exactly one Host on HTTP/1.1 (400), and a transfer-encoding that is exactly `chunked` (400).
 */
function refuseRequest(req: IncomingMessage, url: string, maxHeaders: number): BaseHTTPError | undefined {
  const raw = req.rawHeaders;
  if (raw.length > maxHeaders * 2) return new RequestHeaderFieldsTooLargeError();
  if (url.length > MAX_TARGET) return new URITooLongError();
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // Exact spellings first: lowercasing every 4-letter name costs more than the comparisons.
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) hosts++;
  }
  if (hosts > 1) return badRequest('The request has more than one Host header');
  if (hosts === 0 && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1)
    return badRequest('The request has no Host header (required by HTTP/1.1)');
  const te = req.headers['transfer-encoding'];
  if (te !== undefined && te.toLowerCase() !== 'chunked')
    return badRequest('transfer-encoding must be exactly "chunked"');
  return undefined;
}
