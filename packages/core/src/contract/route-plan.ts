// A route's compiled plan as the exchange, the error funnel and dispatch read it: the route
// headers (constant, then dynamic), the body transform, observers and `around` hooks. The runner's
// own steps (intercepts, before-steps, binders, handler, writer) are runtime/plan.ts's.
import type { AroundHook, ConnectionClose, Exchange } from './exchange';
import type { BodyTransform } from './body-transform';
import type { RouteInfo } from './route-info';

/** Header pairs a step contributes. */
export type HeaderPairs = ReadonlyArray<readonly [string, string]>;

/** What every answer of a route reads of its plan (`Plan` in runtime/plan.ts is one). */
export interface RoutePlan {
  /** The catalogue entry. */
  readonly info: RouteInfo;
  /**
   * The route headers every answer carries, first part: constant pairs, flat, decided at wiring
   * (CORS, middleware `responseHeaders` objects, contributions' `headers`).
   */
  readonly constantHeaders: readonly string[];
  /**
   * The route headers, second part: hooks computing pairs per response (contributions'
   * `dynamicHeaders`, middleware `responseHeaders` methods).
   */
  readonly dynamicHeaders:
    | ReadonlyArray<(ex: Exchange, status: number) => HeaderPairs | undefined>
    | undefined;
  /** Headers for the route's error answers, by status (e.g. a 401 challenge). */
  readonly errorHeaders: ReadonlyArray<(status: number) => HeaderPairs | undefined> | undefined;
  /** Runs once the response is complete (or taken over): status, duration. */
  readonly observers: ReadonlyArray<(ex: Exchange, status: number, durationMs: number) => void> | undefined;
  /** Runs when a connection the route took over has ended: lifetime, close code. */
  readonly closeObservers: ReadonlyArray<(ex: Exchange, closed: ConnectionClose) => void> | undefined;
  /** Hooks wrapping the run (first outermost); unrouted answers at this route's path use them too. */
  readonly around: readonly AroundHook[] | undefined;
  /** The route headers of the automatic OPTIONS answer: contributions with `headersOnOptions: false` left out. */
  readonly optionsConstantHeaders: readonly string[];
  readonly optionsDynamicHeaders: RoutePlan['dynamicHeaders'];
  /** Extra header blocks for the automatic OPTIONS answer at this path (CORS preflight). */
  readonly options: ReadonlyArray<(ex: Exchange) => HeaderPairs | undefined> | undefined;
  /** Encodes the route's bodies once their head is final (a contribution's `transform`). */
  readonly transform: BodyTransform | undefined;
  /**
   * The constant route headers that are fields sent once (`server`, `access-control-allow-origin`,
   * …), checked against each answer's own head; undefined (most routes) costs nothing.
   */
  readonly constantOnce: readonly string[] | undefined;
}
