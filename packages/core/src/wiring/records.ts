import type { Limits } from '../contract/limits';
import type { Exchange } from '../contract/exchange';
import type { RouteInfo } from '../contract/route-info';
import type { ErrorClass } from '../contract/meta';
import type { Middleware } from '../middleware/middleware';

/** A catalogue entry while wiring runs (facts and errors are filled in as contributions compile). */
export type MutableRouteInfo = RouteInfo & {
  readonly facts: Map<string, unknown>;
  readonly errors: ErrorClass[];
};

/** What the handler step of a route does. */
export type RouteTarget =
  | { readonly kind: 'operation'; readonly handler: (input: Record<string, unknown>) => unknown }
  | {
      readonly kind: 'extension';
      readonly handle: (ex: Exchange, input: Readonly<Record<string, unknown>>) => void | Promise<void>;
    };

/** One route as wiring collects it: every kind (operation, custom, upgrade) has this shape. */
export interface RouteRecord {
  readonly info: MutableRouteInfo;
  /** Slot names of the path template, in order. */
  readonly slots: readonly string[];
  readonly limits: Limits;
  /** Mount-scoped middleware (the `middleware` mount option). */
  readonly mountMiddleware: readonly Middleware[];
  readonly target: RouteTarget;
}

/** Builds a catalogue entry with no facts and no contributed errors yet. */
export function newRouteInfo(fields: Omit<RouteInfo, 'facts' | 'errors'>): MutableRouteInfo {
  return { ...fields, facts: new Map<string, unknown>(), errors: [] };
}
