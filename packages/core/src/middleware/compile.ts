import { MalformedRequestError } from '../errors';
import type { Exchange } from '../contract/exchange';
import type { RouteContribution } from '../contract/contribution';
import { headersBinder } from '../binding/binders';
import { toErrorReason } from '../schema/issues';
import type { Middleware, Request } from './middleware';

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

/** Like the hook, but undefined instead of throwing (for observers, after the fact). */
function softly(hook: Hook, ex: Exchange): Request<unknown> | undefined {
  try {
    return hook(ex);
  } catch {
    return undefined;
  }
}

/**
 * Compiles a list of middleware into one contribution at an order position. Every middleware object
 * was checked once where it was registered (`checkMiddleware`), so nothing is checked again per route.
 */
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
    const hook = middlewareHook(mw);
    const rh = mw.responseHeaders;
    // An observer that reads headers binds them before the handler runs: a missing required header
    // is a 400. A computed responseHeaders hook binds when the head is assembled instead: failing
    // there fails a normal answer closed (the 400 Problem) and leaves an error answer its status.
    if (hook.binds && typeof rh !== 'function' && mw.observe) early.push(hook);
    if (typeof rh === 'function') {
      dynamic.push((ex, status) => {
        const out = rh(hook(ex), status);
        return out ? Object.entries(out).map(([k, val]) => [k.toLowerCase(), val]) : undefined;
      });
    } else if (rh) {
      for (const [k, val] of Object.entries(rh)) {
        headers.push([k.toLowerCase(), val]);
      }
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
