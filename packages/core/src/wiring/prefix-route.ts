// `wiring.addPrefixRoute`: the checks of a prefix route and its records (one per method it
// answers, or one for every method), each a catalogue entry of kind `prefix`.
import { describeValue, wiringError } from '../contract/wiring-error';
import type { Limits } from '../contract/limits';
import type { PrefixRoute } from '../contract/contribution';
import { checkInterceptsReach, checkMethodNames } from '../middleware/check';
import { ANY_METHOD, checkPrefix } from '../routing/prefix-table';
import { checkMountOptions } from './mount';
import { newRouteInfo, type RouteRecord } from './records';

/** Checks a prefix route and builds its records; throws a `WiringError` naming the fix. */
export function prefixRouteRecords(route: PrefixRoute, limits: Limits): RouteRecord[] {
  if (typeof route !== 'object' || route === null)
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      'wiring.addPrefixRoute',
      `expected a prefix route object, got ${describeValue(route)}`,
      'pass { prefix, owner, handle(ex, input) }',
    );
  if (typeof route.owner !== 'string' || route.owner === '')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      'wiring.addPrefixRoute',
      `"owner" must name who adds the route (a non-empty string), got ${describeValue(route.owner)}`,
      "owner: 'my-extension'",
    );
  if (route.operation !== undefined && typeof route.operation !== 'string')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      `wiring.addPrefixRoute (${route.owner})`,
      `"operation" must be a string label, got ${describeValue(route.operation)}`,
      "operation: 'auth'",
    );
  const operation = route.operation ?? 'handle';
  const where = `${route.owner}.${operation}`;
  const prefix = checkPrefix(`${where} (prefix route)`, route.prefix);
  if (typeof route.handle !== 'function')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      'a prefix route needs a handle(ex, input) function',
      'add handle',
    );
  const methods = route.methods;
  if (methods !== undefined) {
    if (!Array.isArray(methods) || methods.length === 0 || !methods.every((m) => typeof m === 'string'))
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        `${where} (prefix route)`,
        `methods must be a non-empty list of method names, got ${describeValue(methods)}`,
        "methods: ['GET', 'POST'], or leave it out for every method",
      );
    checkMethodNames(`${where} (prefix route): methods`, methods);
    if (new Set(methods).size !== methods.length)
      throw wiringError(
        'API_WIRING_DUPLICATE',
        `${where} (prefix route)`,
        `methods lists a method twice (${methods.join(', ')})`,
        'list each method once',
      );
  }
  if (route.spec?.path !== undefined)
    throw wiringError(
      'API_WIRING_PATH_BINDING',
      where,
      'a prefix route has no slots, so it cannot declare a path source',
      'drop spec.path (read ex.path instead)',
    );
  const mountOptions = route.mountOptions ?? {};
  const middleware = checkMountOptions(where, mountOptions, where);
  checkInterceptsReach(
    `${where} (prefix route)`,
    middleware,
    methods ?? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  );
  const handle = route.handle.bind(route);
  return (methods ?? [ANY_METHOD]).map((method) => ({
    info: newRouteInfo({
      method,
      path: prefix,
      kind: 'prefix',
      owner: route.owner,
      ownerClass: route.ownerClass,
      operation,
      spec: route.spec,
      classMeta: route.classMeta,
      ref: undefined,
      responses: [],
      defaultStatus: 200,
      mountOptions,
      hidden: route.hidden ?? false,
      literal: true,
    }),
    slots: [],
    limits,
    mountMiddleware: middleware,
    target: { kind: 'extension', handle },
  }));
}
