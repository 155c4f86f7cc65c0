import type { HeaderList } from '../contract/exchange';
import type { HealthPaths } from '../contract/serving-options';

/** What a probe's answer needs of the exchange (`CoreExchange` is one). */
interface ProbedExchange {
  readonly method: string;
  readonly path: string;
  answer(status: number, headers: HeaderList, body?: string): void;
  fail(error: unknown): void;
}

/** The default liveness path. */
export const DEFAULT_LIVE_PATH = '/livez';
/** The default readiness path. */
export const DEFAULT_READY_PATH = '/readyz';

const OK = '{"status":"ok"}';
/** The readiness answer while the app starts (before its runtime exists). */
export const STARTING = '{"status":"starting"}';
const DRAINING = '{"status":"draining"}';

/**
 * The liveness and readiness answers, checked before anything else the runtime does (app
 * intercepts, load shedding, routing): `GET`/`HEAD` at either path. Liveness is `200` while the
 * process answers at all; readiness is `200` while the app serves and `503` once it is draining.
 */
export class Health {
  constructor(
    readonly livePath: string,
    readonly readyPath: string,
  ) {}

  /** True when `ex` is a probe, answered here (`ready`: the runtime's readiness). */
  answer(ex: ProbedExchange, ready: boolean): boolean {
    const path = ex.path;
    if (path !== this.livePath && path !== this.readyPath) return false;
    const method = ex.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const ok = ready || path === this.livePath;
    try {
      ex.answer(ok ? 200 : 503, probeHeaders(), ok ? OK : DRAINING);
    } catch (error) {
      ex.fail(error);
    }
    return true;
  }
}

/** A probe answer's own headers (a fresh list: the exchange appends the route headers to it). */
export function probeHeaders(): HeaderList {
  return ['content-type', 'application/json', 'cache-control', 'no-store'];
}

/**
 * The answer to a probe that arrives before the app's runtime exists (it is starting): liveness
 * `200`, readiness `503 {"status":"starting"}`. Undefined when the request is not a probe (it
 * waits for the start). Both transports answer from this.
 *
 * @param health - the app's probe paths, if it answers probes
 * @param method - the request's method
 * @param path - the request's path (no query)
 */
export function probeWhileStarting(
  health: HealthPaths | undefined,
  method: string,
  path: string,
): { readonly status: 200 | 503; readonly body: string } | undefined {
  if (health === undefined || (method !== 'GET' && method !== 'HEAD')) return undefined;
  if (path === health.livePath) return { status: 200, body: OK };
  if (path === health.readyPath) return { status: 503, body: STARTING };
  return undefined;
}
