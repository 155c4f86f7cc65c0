import type { Duplex } from 'node:stream';
import { MethodNotAllowedError, NotFoundError, ServiceUnavailableError, type BaseHTTPError } from '../errors';
import type { BindingExchange } from '../binding/binders';
import { Uploads } from '../binding/body';
import type { Health } from './health';
import type { LoadMonitor } from './load-monitor';
import type { AroundHook, Exchange, HeaderList } from '../contract/exchange';
import type { Logger } from '../logging/logger';
import type { Limits } from '../contract/limits';
import type { ConnectionControl, WireResponse } from '../contract/wire';
import type { UrlResolver } from '../responses/location';
import { writeUndeclaredResponse } from '../responses/undeclared';
import { pick, type PathEntry, type Router } from '../routing/router';
import { pickPrefix, type PrefixTable } from '../routing/prefix-table';
import type { CoreExchange } from '../responses/core-exchange';
import type { ExchangeRuntime } from '../responses/exchange-runtime';
import type { ErrorFunnel } from './funnel';
import type { Plan } from './plan';
import { ShutdownPhases } from './shutdown-phases';
import { composeAround, observeWhenFinished, runPlan, runRoute } from './runner';

/**
 * Shutdown accounting: what is in flight (requests until their response closes, sockets taken
 * over by upgrade routes until they close, requests still reading their body); where shutdown
 * stands comes from `ShutdownPhases`. The runtime is one (it extends this class: the counters sit
 * on the object every request already holds, no extra hop); `lifecycle/shutdown.ts` drives the phases.
 */
export class InFlight extends ShutdownPhases {
  /** Requests whose response has not closed yet. */
  inFlight = 0;
  /** Sockets taken over by upgrade routes, until they close. */
  readonly upgraded = new Set<Duplex>();
  /** Requests still reading their body (answered 503 by `refuseReading` when shutdown hits its cap). */
  readonly reading = new Uploads<BindingExchange>();
  #idle: (() => void) | undefined;

  /** Resolves when no request is in flight and no upgraded socket is open. */
  whenIdle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => (this.#idle = resolve));
  }

  /** Answers every request still uploading its body 503 (the shutdown cap was reached); node then closes them. */
  refuseReading(): void {
    for (const ex of this.reading.takeAll()) {
      ex.closeAfterAnswer();
      ex.fail(new ServiceUnavailableError());
    }
  }

  /** Destroys every upgraded socket still open (the shutdown cap was reached). */
  destroyUpgraded(): void {
    for (const socket of this.upgraded) socket.destroy();
  }

  /** Counts a request in flight until its response closes. */
  track(res: WireResponse): void {
    this.inFlight++;
    // 'on', not 'once': no wrapper per request; the response object is dropped after 'close' anyway.
    res.on('close', this.#onClose);
  }

  /**
   * An upgrade route took the connection over: the socket is tracked (shutdown waits for it)
   * instead of the request.
   */
  adopt(ex: CoreExchange, socket: Duplex): void {
    ex.res.off('close', this.#onClose);
    this.inFlight--;
    this.upgraded.add(socket);
    socket.once('close', () => {
      this.upgraded.delete(socket);
      this.#checkIdle();
    });
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
}

// The router's answers carry no per-request data: one instance each serves every miss.
const NOT_FOUND = new NotFoundError();
const METHOD_NOT_ALLOWED = new MethodNotAllowedError();
/** The automatic OPTIONS `allow` of a prefix route that answers every method (only its preflights reach it). */
const ANY_ALLOW = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/** A CORS preflight: OPTIONS asking with `access-control-request-method`. */
function isPreflight(ex: CoreExchange): boolean {
  return ex.req.headers['access-control-request-method'] !== undefined;
}

/** An app-wide intercept, compiled: runs before routing. */
export interface CompiledIntercept {
  readonly methods: ReadonlySet<string> | undefined;
  readonly intercept: (ex: Exchange) => unknown;
}

/** What the runtime is built from, at wiring. */
export type RuntimeParts = Pick<
  Runtime,
  | 'router'
  | 'prefixes'
  | 'fallback'
  | 'appIntercepts'
  | 'funnel'
  | 'resolver'
  | 'limits'
  | 'log'
  | 'requestIds'
  | 'connections'
  | 'health'
  | 'shedding'
>;

/** The request path, built once when wiring finishes: route → plan → runner, errors → funnel. */
export class Runtime extends InFlight implements ExchangeRuntime {
  /** Every route's plan by method and path (static paths in a map, templates in buckets). */
  readonly router: Router<Plan>;
  /** Prefix routes (mounted handlers), consulted when no route has the path; undefined when there are none. */
  readonly prefixes: PrefixTable<Plan> | undefined;
  /**
   * The plan of unrouted answers (404, 405, automatic OPTIONS, app intercepts): app-wide route
   * headers and observers.
   */
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
  /** The transport's control of connections (given when the app starts). */
  readonly connections: ConnectionControl;
  /** Liveness and readiness answers (the app's `health` option), before anything else. */
  readonly health: Health | undefined;
  /** Load shedding (the app's `loadShedding` option), before routing. */
  readonly shedding: LoadMonitor | undefined;
  /** True when `health` or `shedding` is set: without them dispatch checks nothing more. */
  readonly #gated: boolean;
  constructor(parts: RuntimeParts) {
    super();
    this.router = parts.router;
    this.prefixes = parts.prefixes;
    this.fallback = parts.fallback;
    this.appIntercepts = parts.appIntercepts;
    this.funnel = parts.funnel;
    this.resolver = parts.resolver;
    this.limits = parts.limits;
    this.log = parts.log;
    this.requestIds = parts.requestIds;
    this.connections = parts.connections;
    this.health = parts.health;
    this.shedding = parts.shedding;
    this.#gated = parts.health !== undefined || parts.shedding !== undefined;
  }

  /**
   * Runs an exchange a transport built (node:http above, or `app.fetch`): counted in flight until
   * its response closes; a `refusal` (a request the transport cannot trust) answers unrouted.
   */
  dispatch(ex: CoreExchange, refusal: BaseHTTPError | undefined): void {
    this.track(ex.res);
    if (refusal !== undefined) {
      // A request the server cannot trust (its framing, host or target) is the connection's last.
      ex.closeAfterAnswer();
      this.#unrouted(ex, refusal);
      return;
    }
    if (this.#gated && this.#gate(ex)) return;
    if (this.appIntercepts.length > 0) {
      this.#interceptThenRoute(ex).catch((error: unknown) => ex.fail(error));
      return;
    }
    this.route(ex);
  }

  /**
   * Renders `error` as the exchange's answer through the funnel (`extra`: headers it must carry);
   * once a deadline answered, a late failure is dropped (logged once).
   */
  fail(ex: CoreExchange, error: unknown, extra?: HeaderList): void {
    const control = ex.control;
    if (control !== undefined && control.expired) {
      control.late(error);
      return;
    }
    this.funnel.fail(ex, error, extra);
  }

  /** Health probes, then load shedding: true when one of them answered. */
  #gate(ex: CoreExchange): boolean {
    if (this.health !== undefined && this.health.answer(ex, this.ready)) return true;
    const shedding = this.shedding;
    if (shedding === undefined || !shedding.overloaded) return false;
    this.#unrouted(ex, shedding.error);
    return true;
  }

  async #interceptThenRoute(ex: CoreExchange): Promise<void> {
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
  route(ex: CoreExchange): void {
    // Exact paths first, without allocating a match.
    const entry = this.router.findStatic(ex.path);
    if (entry !== undefined && ex.method !== 'OPTIONS') {
      const plan = pick(entry, ex.method);
      if (plan !== undefined) {
        ex.routeTo(plan);
        runPlan(plan, ex, this.resolver);
        return;
      }
    }
    const match = this.router.find(ex.method, ex.path);
    if (match === undefined) {
      // Exact and templated routes first; then the prefix that owns the path, if the app has any.
      const owner = this.prefixes?.find(ex.path);
      if (owner !== undefined) this.#prefix(ex, owner);
      else this.#unrouted(ex, NOT_FOUND);
      return;
    }
    if (ex.method === 'OPTIONS') {
      this.#options(ex, match.entry.methods, match.entry.allow, match.params);
      return;
    }
    const plan = match.route;
    if (plan === undefined) {
      // The 405 carries the path's own route headers (its mount's CORS or CORS.OFF, its middleware headers).
      const sibling: Plan | undefined = match.entry.methods.values().next().value;
      ex.routeTo(sibling, match.params);
      this.#around(sibling?.around, ex, () => {
        if (sibling?.observers) observeWhenFinished(sibling, ex);
        else this.#observeFallback(ex);
        ex.fail(METHOD_NOT_ALLOWED, ['allow', match.entry.allow]);
      });
      return;
    }
    ex.routeTo(plan, match.params);
    runPlan(plan, ex, this.resolver);
  }

  /**
   * A path a prefix route owns: its plan for the method (or its every-method plan) runs; an
   * OPTIONS preflight a contribution accepts (CORS) is answered here, as for any route; a method
   * it does not answer is 405, and OPTIONS then gets the automatic answer.
   */
  #prefix(ex: CoreExchange, entry: PathEntry<Plan>): void {
    const plan = pickPrefix(entry, ex.method);
    if (ex.method === 'OPTIONS' && (plan === undefined || isPreflight(ex))) {
      const allow = entry.allow === '' ? ANY_ALLOW : entry.allow;
      this.#options(ex, entry.methods, allow, ex.params, plan);
      return;
    }
    if (plan === undefined) {
      const sibling: Plan | undefined = entry.methods.values().next().value;
      ex.routeTo(sibling);
      this.#around(sibling?.around, ex, () => {
        if (sibling?.observers) observeWhenFinished(sibling, ex);
        else this.#observeFallback(ex);
        ex.fail(METHOD_NOT_ALLOWED, ['allow', entry.allow]);
      });
      return;
    }
    ex.routeTo(plan);
    runPlan(plan, ex, this.resolver);
  }

  /** 404, 414, 431, 400: the fallback plan's around hooks, route headers and observers apply. */
  #unrouted(ex: CoreExchange, error: unknown, extra?: HeaderList): void {
    this.#around(this.fallback.around, ex, () => {
      this.#observeFallback(ex);
      ex.fail(error, extra);
    });
  }

  /** Runs an unrouted answer inside `around` hooks (composed per call: these answers are off the hot path). */
  #around(around: readonly AroundHook[] | undefined, ex: CoreExchange, answer: () => void): void {
    if (around === undefined) answer();
    else composeAround(around, answer)(ex);
  }

  #observeFallback(ex: CoreExchange): void {
    if (ex.finished === undefined && this.fallback.observers) observeWhenFinished(this.fallback, ex);
  }

  #options(
    ex: CoreExchange,
    plans: ReadonlyMap<string, Plan>,
    allow: string,
    params: readonly string[],
    handler?: Plan,
  ): void {
    // The automatic answer carries the path's own route headers (its routes share a mount), not the fallback's.
    ex.routeTo(plans.values().next().value, params);
    this.#around(ex.plan?.around, ex, () => this.#answerOptions(ex, plans, allow, handler));
  }

  /**
   * The automatic OPTIONS answer, or an accepted preflight's. `handler`: the plan of a prefix
   * route that answers OPTIONS itself, so a preflight no contribution accepts goes to it instead.
   */
  #answerOptions(ex: CoreExchange, plans: ReadonlyMap<string, Plan>, allow: string, handler?: Plan): void {
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
    if (handler !== undefined) {
      ex.routeTo(handler);
      runRoute(handler, ex, this.resolver);
      return;
    }
    ex.sendOptions(head);
  }
}
