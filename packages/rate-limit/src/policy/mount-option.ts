// The values of the `rateLimit` mount option besides a single policy: several policies at once,
// and policies chosen per operation.
import {
  describeValue,
  mountOption,
  wiringError,
  type MountContext,
  type MountOptionValue,
  type RouteContribution,
  type RouteInfo,
} from '@api/core/extension';
import { RateLimit, requireInstalled } from './policy';

/**
 * Several policies on one route, all charged (or none): e.g. a burst limit and an hourly one.
 * Each keeps its own budget and its own `RateLimit` item.
 */
export class RateLimitGroup implements MountOptionValue {
  constructor(readonly policies: readonly RateLimit[]) {}

  [mountOption](ctx: MountContext): RouteContribution | undefined {
    requireInstalled(ctx);
    return undefined;
  }
}

/**
 * Several policies as one mount option (or one app default): a request is admitted only when
 * every policy has room, and then charged by each.
 *
 * @param policies - at least one `RateLimit`, each name once
 * @example
 * { rateLimit: rateLimits(burst, hourly) }
 */
export function rateLimits(...policies: RateLimit[]): RateLimitGroup {
  const where = 'rateLimits(…)';
  if (policies.length === 0)
    throw wiringError('API_WIRING_INVALID_ARGUMENT', where, 'no policy given', 'rateLimits(burst, hourly)');
  const names = new Set<string>();
  for (const policy of policies) {
    if (!(policy instanceof RateLimit))
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `${describeValue(policy)} is not a RateLimit`,
        'pass policies built with new RateLimit({ name, limit, window })',
      );
    if (names.has(policy.name))
      throw wiringError(
        'API_WIRING_DUPLICATE',
        where,
        `two policies are named "${policy.name}"`,
        'name each policy once',
      );
    names.add(policy.name);
  }
  return new RateLimitGroup(policies);
}

/** What one operation of a `perOperation` map is limited by: a policy, several, or `false` (none). */
export type OperationLimit = RateLimit | RateLimitGroup | false;

/**
 * Policies chosen per operation of the mount (`create`, `readOne`, `post`, …); operations not
 * named get the app default. Every name must be an operation of the mounted class: a name that
 * matches none fails wiring.
 */
export class PerOperation<TOperations extends string = string> implements MountOptionValue {
  /** Phantom: keeps the operation names checked against the mounted route's (see `MountOptions`). */
  declare readonly operationNames?: TOperations;

  constructor(readonly byOperation: Readonly<Record<string, OperationLimit>>) {}

  /** What `route` is limited by under this option: its entry, or undefined (the app default). */
  limitFor(route: RouteInfo): OperationLimit | undefined {
    return Object.hasOwn(this.byOperation, route.operation) ? this.byOperation[route.operation] : undefined;
  }

  [mountOption](ctx: MountContext): RouteContribution | undefined {
    requireInstalled(ctx);
    return undefined;
  }
}

/**
 * A `rateLimit` mount option choosing policies per operation.
 *
 * @param byOperation - operation name → a policy, `rateLimits(…)`, or `false` (not limited)
 * @example
 * this.includeResource(new WidgetResource(), { rateLimit: perOperation({ create: writes }) });
 */
export function perOperation<const TMap extends Readonly<Record<string, OperationLimit>>>(
  byOperation: TMap,
): PerOperation<Extract<keyof TMap, string>> {
  const where = 'perOperation({ … })';
  if (typeof byOperation !== 'object' || byOperation === null || Array.isArray(byOperation))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `expected an object of operation name → policy, got ${describeValue(byOperation)}`,
      'perOperation({ create: writes })',
    );
  for (const [operation, limit] of Object.entries(byOperation))
    if (!(limit === false || limit instanceof RateLimit || limit instanceof RateLimitGroup))
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `operation "${operation}" is given ${describeValue(limit)}, not a policy`,
        `${operation}: new RateLimit({ … }), rateLimits(a, b), or false`,
      );
  return new PerOperation(byOperation);
}
