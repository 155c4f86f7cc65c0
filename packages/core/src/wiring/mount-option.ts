// Typed mount options (`auth`, `cors`, …): a value that compiles itself into a route's contribution.
import type { Wiring } from './extension-api';
import type { RouteInfo } from '../contract/route-info';
import type { RouteContribution } from '../contract/contribution';

/** Mount-time context a mount option's compiler gets. */
export interface MountContext {
  readonly route: RouteInfo;
  readonly wiring: Wiring;
}

/** A mount option value that compiles itself per route (the run-time half of a typed mount option). */
export interface MountOptionValue {
  readonly [mountOption]: (ctx: MountContext) => RouteContribution | undefined;
}

/** The symbol a mount option value implements. */
export const mountOption: unique symbol = Symbol('@api/core.mountOption') as never;
