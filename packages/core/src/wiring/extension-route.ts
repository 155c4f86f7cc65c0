// The checks of a route an extension adds (`wiring.addRoute` / `addUpgradeRoute`): its shape,
// method, literal path and mount options, each mistake a WiringError naming the fix. The route's
// registration (duplicates, the record) stays in app-wiring.ts.
import { describeValue, wiringError } from '../contract/wiring-error';
import type { Middleware } from '../middleware/middleware';
import { checkInterceptsReach } from '../middleware/check';
import type { CustomRoute, UpgradeRoute } from '../contract/contribution';
import { checkMountOptions } from './mount';

/** An extension route once checked: its method, label and mount options, as the record needs them. */
export interface CheckedExtensionRoute {
  readonly method: string;
  readonly operation: string;
  /** `owner.operation`, for later wiring errors. */
  readonly where: string;
  readonly literal: boolean;
  readonly mountOptions: Readonly<Record<string, unknown>>;
  readonly middleware: readonly Middleware[];
}

/** Checks an extension route before it is registered; throws a `WiringError` naming the fix. */
export function checkExtensionRoute(
  kind: 'custom' | 'upgrade',
  route: CustomRoute | UpgradeRoute,
): CheckedExtensionRoute {
  const adder = kind === 'upgrade' ? 'addUpgradeRoute' : 'addRoute';
  if (typeof route !== 'object' || route === null)
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      `wiring.${adder}`,
      `expected a route object, got ${describeValue(route)}`,
      `pass { ${kind === 'custom' ? 'method, ' : ''}path, ` +
        `owner, ${kind === 'custom' ? 'operation, ' : ''}handle(ex, input) }`,
    );
  if (typeof route.owner !== 'string' || route.owner === '')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      `wiring.${adder}`,
      `"owner" must name who adds the route (a non-empty string), got ${describeValue(route.owner)}`,
      "owner: 'my-extension'",
    );
  if (route.operation !== undefined && typeof route.operation !== 'string')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      `wiring.${adder} (${route.owner})`,
      `"operation" must be a string label, got ${describeValue(route.operation)}`,
      "operation: 'document'",
    );
  if (typeof route.path !== 'string' || !route.path.startsWith('/'))
    throw wiringError(
      'API_WIRING_INVALID_PATH',
      `wiring.${adder} (${route.owner})`,
      '"path" must be a path template starting with "/", ' +
        `got ${typeof route.path === 'string' ? JSON.stringify(route.path) : describeValue(route.path)}`,
      "path: '/_meta/routes'",
    );
  const method = kind === 'upgrade' ? 'GET' : String((route as CustomRoute).method ?? '').toUpperCase();
  const operation = route.operation ?? 'handle';
  const where = `${route.owner}.${operation}`;
  const literal = kind === 'custom' && (route as CustomRoute).literal === true;
  if (typeof route.handle !== 'function')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      'an extension route needs a handle(ex, input) function',
      'add handle',
    );
  if (!/^[A-Z]+$/.test(method))
    throw wiringError(
      'API_WIRING_HTTP_METHOD',
      where,
      `"${method}" is not an HTTP method`,
      "use an upper-case method name, e.g. method: 'GET' or 'POST'",
    );
  if (literal) checkLiteralPath(where, route.path, route.spec);
  const mountOptions = route.mountOptions ?? {};
  const middleware = checkMountOptions(where, mountOptions, where);
  checkInterceptsReach(`${where} (${kind} route)`, middleware, [method]);
  return { method, operation, where, literal, mountOptions, middleware };
}

/**
 * A literal path must be one a request can carry (so the route is reachable) and has no slots
 * (so nothing can bind from it): each mistake is a `WiringError` naming the fix.
 */
function checkLiteralPath(where: string, path: string, spec: CustomRoute['spec']): void {
  const bad = /[^\x21-\x7e]|[?#]/.exec(path);
  if (bad)
    throw wiringError(
      'API_WIRING_INVALID_PATH',
      where,
      `literal path ${JSON.stringify(path)} has ${JSON.stringify(bad[0])}, ` +
        'which no request target carries as is, so the route could never match',
      'percent-encode it (as a browser would) in the path you add',
    );
  if (spec?.path !== undefined)
    throw wiringError(
      'API_WIRING_PATH_BINDING',
      where,
      'a literal route has no slots, so it cannot declare a path source',
      'drop spec.path, or add the route as a template (without literal: true)',
    );
}
