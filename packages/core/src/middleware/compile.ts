import { MalformedRequestError } from '../errors';
import { WiringError } from '../errors/wiring-error';
import type { Exchange, RouteContribution } from '../extension/types';
import { headersBinder } from '../binding/binders';
import { toErrorReason } from '../schema/issues';
import type { Middleware, Request } from './middleware';

/** Checks a middleware object's shape at wiring; every mistake is a `WiringError` naming `where`. */
export function checkMiddleware(where: string, mw: Middleware): void {
  if (typeof mw !== 'object' || mw === null)
    throw new WiringError(
      `${where}: middleware must be an object. Fix: pass { responseHeaders?, intercept?, observe? }.`,
    );
  const hasHook =
    mw.responseHeaders !== undefined ||
    typeof mw.intercept === 'function' ||
    typeof mw.observe === 'function';
  if (!hasHook)
    throw new WiringError(
      `${where}: the middleware object has none of responseHeaders, intercept, observe. Fix: add at least one hook.`,
    );
  if (mw.interceptMethods !== undefined && typeof mw.intercept !== 'function')
    throw new WiringError(
      `${where}: interceptMethods without intercept. Fix: add an intercept method or drop interceptMethods.`,
    );
  if (typeof mw.intercept === 'function') checkInterceptMethods(where, mw.interceptMethods);
  const rh = mw.responseHeaders;
  if (rh !== undefined && typeof rh !== 'function' && (typeof rh !== 'object' || rh === null))
    throw new WiringError(
      `${where}: responseHeaders must be an object of constant headers or a method. Fix: return a Record<string, string>.`,
    );
  if (typeof rh === 'function' && rh.constructor.name === 'AsyncFunction')
    throw new WiringError(
      `${where}: responseHeaders is async; headers are computed while the response is written. Fix: make it synchronous (compute what it needs in intercept or observe).`,
    );
  if (rh !== undefined && typeof rh === 'object') {
    for (const [name, value] of Object.entries(rh)) {
      const lower = name.toLowerCase();
      if (FRAMING.has(lower))
        throw new WiringError(
          `${where}: responseHeaders sets "${lower}", which the framework owns per response. Fix: remove it; declare the content type on the response instead.`,
        );
      if (typeof value !== 'string' || /[\r\n\0]/.test(value))
        throw new WiringError(
          `${where}: responseHeaders "${lower}" must be a string without CR, LF or NUL. Fix: give a plain string value.`,
        );
    }
  }
}

const FRAMING = new Set(['content-type', 'content-length', 'transfer-encoding', 'connection']);
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** The spec's rule: an intercept names the methods it runs for, each once, never OPTIONS. */
function checkInterceptMethods(where: string, methods: readonly string[] | undefined): void {
  if (!Array.isArray(methods) || methods.length === 0)
    throw new WiringError(
      `${where}: an intercept needs interceptMethods (the methods it runs for). Fix: add interceptMethods: ['GET', 'POST', …].`,
    );
  const seen = new Set<string>();
  for (const m of methods) {
    const upper = typeof m === 'string' ? m.toUpperCase() : String(m);
    if (upper === 'OPTIONS')
      throw new WiringError(
        `${where}: interceptMethods names OPTIONS, which the framework answers itself (CORS preflights). Fix: remove OPTIONS.`,
      );
    if (!KNOWN_METHODS.has(upper))
      throw new WiringError(
        `${where}: interceptMethods names unknown method "${String(m)}". Fix: use GET, HEAD, POST, PUT, PATCH or DELETE.`,
      );
    if (seen.has(upper))
      throw new WiringError(`${where}: interceptMethods names ${upper} twice. Fix: list each method once.`);
    seen.add(upper);
  }
}

interface Hook {
  /** The hook's request view; throws 400 when a required hook header is missing (cached per request). */
  (ex: Exchange): Request<unknown>;
  /** True when the view binds headers (and so can fail). */
  readonly binds: boolean;
}

/** Builds the `Request<H>` a hook receives (headers bound from the hook's own schema, once per request). */
export function middlewareHook(mw: Middleware): Hook {
  const bind = mw.headers
    ? headersBinder(mw.headers, (issues) => new MalformedRequestError(toErrorReason('header', issues)))
    : undefined;
  const key = Symbol('middleware request');
  const hook = (ex: Exchange): Request<unknown> => {
    if (!bind) return { headers: {}, method: ex.method, path: ex.path, receivedAt: ex.receivedAt };
    const cached = ex.state[key] as Request<unknown> | undefined;
    if (cached) return cached;
    const request = { headers: bind(ex.req), method: ex.method, path: ex.path, receivedAt: ex.receivedAt };
    ex.state[key] = request;
    return request;
  };
  return Object.assign(hook, { binds: bind !== undefined });
}

/** Like the hook, but undefined instead of throwing (for headers and observers after the fact). */
function softly(hook: Hook, ex: Exchange): Request<unknown> | undefined {
  try {
    return hook(ex);
  } catch {
    return undefined;
  }
}

/** Compiles a list of middleware into one contribution at an order position. */
export function compileMiddlewareList(
  where: string,
  list: readonly Middleware[],
  order: number,
): RouteContribution | undefined {
  if (list.length === 0) return undefined;
  const headers: [string, string][] = [];
  const dynamic: ((ex: Exchange, status: number) => [string, string][] | undefined)[] = [];
  const intercepts: ((ex: Exchange) => unknown)[] = [];
  const observers: ((ex: Exchange, status: number, ms: number) => void)[] = [];
  const early: Hook[] = [];
  for (const mw of list) {
    checkMiddleware(where, mw);
    const hook = middlewareHook(mw);
    const rh = mw.responseHeaders;
    // A hook that reads headers binds them before the handler runs: a missing required header is a 400.
    if (hook.binds && (typeof rh === 'function' || mw.observe)) early.push(hook);
    if (typeof rh === 'function') {
      dynamic.push((ex, status) => {
        const request = softly(hook, ex);
        const out = request ? rh(request, status) : undefined;
        return out ? Object.entries(out).map(([k, val]) => [k.toLowerCase(), val]) : undefined;
      });
    } else if (rh) {
      for (const [k, val] of Object.entries(rh)) headers.push([k.toLowerCase(), val]);
    }
    if (mw.intercept) {
      const methods = mw.interceptMethods
        ? new Set(mw.interceptMethods.map((m) => m.toUpperCase()))
        : undefined;
      intercepts.push((ex) => (methods && !methods.has(ex.method) ? undefined : mw.intercept!(hook(ex))));
    }
    if (mw.observe) {
      observers.push((ex, status, ms) => {
        const request = softly(hook, ex);
        if (request) mw.observe!(request, status, ms);
      });
    }
  }
  const contribution: { -readonly [K in keyof RouteContribution]: RouteContribution[K] } = { order };
  if (headers.length) contribution.headers = headers;
  if (dynamic.length)
    contribution.dynamicHeaders = (ex, status) => dynamic.flatMap((d) => d(ex, status) ?? []);
  if (intercepts.length) {
    contribution.intercept = async (ex) => {
      for (const i of intercepts) {
        const answer = await i(ex);
        if (answer !== undefined) return answer;
      }
      return undefined;
    };
  }
  if (observers.length)
    contribution.observe = (ex, status, ms) => observers.forEach((o) => o(ex, status, ms));
  if (early.length) contribution.before = (ex) => void early.forEach((hook) => hook(ex));
  return contribution;
}
