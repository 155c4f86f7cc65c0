// Which apps installed `rateLimit()`: a policy given as a mount option checks it, so a policy on
// an app without a store fails wiring instead of silently limiting nothing.
import type { Wiring } from '@api/core/extension';

/** The wiring surfaces of apps that included `rateLimit()`. */
export const installed: WeakSet<Wiring> = new WeakSet();

/** The `where` of mount-option mistakes: the route's owner and operation. */
export function routeWhere(route: { readonly owner: string; readonly operation: string }): string {
  return `${route.owner}.${route.operation}`;
}
