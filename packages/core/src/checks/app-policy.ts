import { describeValue, wiringError } from '../contract/wiring-error';

/** What `installAppPolicy` needs of a route (core's `RouteInfo` has it). */
export interface PolicyRoute {
  readonly owner: string;
  readonly operation: string;
  readonly mountOptions: Readonly<Record<string, unknown>>;
}

/** What `installAppPolicy` needs of the wiring surface (`Wiring` from `@api/core/extension`). */
export interface PolicyWiring<TRoute extends PolicyRoute, TContribution> {
  readonly appName: string;
  addContributor(contributor: (route: TRoute) => TContribution | undefined): void;
}

/** The app default an extension installs: once per app, overridable per mount. */
export interface AppPolicySpec<TRoute extends PolicyRoute, TContribution> {
  /** The extension's factory, naming the call in errors: `'cors'` → `App.include(cors())`. */
  readonly extension: string;
  /** Why a second install is a mistake, e.g. `'an app-default CORS policy is already installed'`. */
  readonly duplicate: string;
  /** What to do instead of installing twice. */
  readonly duplicateFix: string;
  /**
   * The mount option that replaces the default on a mount, when there is one: a value it
   * `accepts` compiles itself (its `[mountOption]`), and the default stays off that mount; any
   * other value under the option is `API_WIRING_MOUNT_OPTION` at the route, with `fix`.
   */
  readonly override?: {
    readonly option: string;
    readonly accepts: (value: unknown) => boolean;
    /** What the option must be, e.g. `'a CORS policy or CORS.OFF'`. */
    readonly expected: string;
    readonly fix: string;
  };
  /**
   * Builds the default (its mistakes may name `where`, the install call) and returns what it
   * contributes to each route it covers.
   */
  readonly contribute: (where: string) => (route: TRoute) => TContribution | undefined;
}

const installed = new Map<string, WeakSet<object>>();

/**
 * The app default + per-mount override + installed-once pattern in one call, for an extension's
 * `setup`: a second install in one app is `API_WIRING_DUPLICATE` at `App.include(<extension>())`;
 * routes mounted with the override option get nothing from the default; a wrong value under that
 * option is `API_WIRING_MOUNT_OPTION`.
 *
 * @param wiring - The extension's wiring surface.
 * @param spec - The extension's name, the override option and the default's contribution.
 * @example
 * setup(wiring) {
 *   installAppPolicy(wiring, {
 *     extension: 'cors',
 *     duplicate: 'an app-default CORS policy is already installed',
 *     duplicateFix: 'install cors() once',
 *     override: {
 *       option: 'cors',
 *       accepts: (v) => v instanceof CORS || v === CORS.OFF,
 *       expected: 'a CORS policy or CORS.OFF',
 *       fix: 'pass { cors: new CORS({ … }) }',
 *     },
 *     contribute: (where) => { const policy = resolve(where, given); return (route) => contribution(policy, route); },
 *   });
 * }
 */
export function installAppPolicy<TRoute extends PolicyRoute, TContribution>(
  wiring: PolicyWiring<TRoute, TContribution>,
  spec: AppPolicySpec<TRoute, TContribution>,
): void {
  const where = `${wiring.appName}.include(${spec.extension}())`;
  let apps = installed.get(spec.extension);
  if (apps === undefined) installed.set(spec.extension, (apps = new WeakSet()));
  if (apps.has(wiring)) throw wiringError('API_WIRING_DUPLICATE', where, spec.duplicate, spec.duplicateFix);
  const byDefault = spec.contribute(where);
  apps.add(wiring);
  const override = spec.override;
  if (override === undefined) {
    wiring.addContributor(byDefault);
    return;
  }
  wiring.addContributor((route) => {
    const own = route.mountOptions[override.option];
    if (own === undefined) return byDefault(route);
    if (!override.accepts(own))
      throw wiringError(
        'API_WIRING_MOUNT_OPTION',
        `${route.owner}.${route.operation}`,
        `the "${override.option}" mount option must be ${override.expected}, got ${describeValue(own)}`,
        override.fix,
      );
    return undefined;
  });
}
