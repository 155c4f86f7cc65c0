// One name per route class, the same under tsx, vitest and any bundler. esbuild (and so tsup)
// renames a class that refers to itself (`_WidgetResource`) or that clashes with another module's
// (`WidgetResource2`), so a class's `.name` depends on the build; the `name` option does not.
import { describeValue, wiringError } from './wiring-error';
import { kRouteName } from './symbols';

/** A route class name: an identifier (it becomes part of operationIds such as `WidgetResource_readOne`). */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

type AnyClass = abstract new (...args: never[]) => object;

/**
 * Records `name` as the name of the route classes built on `base` (the class a route factory such
 * as `Resource(...)` returns; its subclasses inherit the name). Does nothing when `name` is
 * `undefined`. A name that is not an identifier is a `WiringError` naming `where`.
 *
 * @param base - the base class the factory returns
 * @param name - the `name` option as given
 * @param where - the factory call, for the error (`Resource('/widgets', { name })`)
 * @example
 * abstract class Base extends MyRouteBase {}
 * nameRouteClass(Base, options.name, `MyRoute(${JSON.stringify(path)}, { name })`);
 */
export function nameRouteClass(base: AnyClass, name: unknown, where: string): void {
  if (name === undefined) return;
  if (typeof name !== 'string' || !NAME.test(name))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      'name must be an identifier (letters, digits and _, not starting with a digit), ' +
        `got ${typeof name === 'string' ? JSON.stringify(name) : describeValue(name)}`,
      "name the class as in its declaration, e.g. name: 'WidgetResource'",
    );
  Object.defineProperty(base, kRouteName, { value: name });
}

/**
 * The name a route class goes by wherever core and packages show it — operationIds
 * (`<name>_<operation>`), the catalogue's `owner`, `WiringError`s and log lines: its `name` option,
 * else its class name (which a bundler may have changed: give `name`, or build with `keepNames`).
 *
 * @param cls - a route class (`instance.constructor`)
 * @example
 * routeClassName(WidgetResource); // 'WidgetResource', also from a bundle that renamed the class
 */
export function routeClassName(cls: AnyClass | (abstract new (...args: never[]) => unknown)): string {
  const named = (cls as { [kRouteName]?: string })[kRouteName];
  return named ?? cls.name;
}
