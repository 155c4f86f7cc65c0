// What a route requires of its mount, by package: the registry packages augment, the options it
// adds up to, and the compile-time error for a mount that leaves them out. Type-only.
import type { TypeErrorMessage, WiringTypeError } from '../contract/type-errors';

declare const requirementMessage: unique symbol;

/**
 * An entry of `MountRequirementRegistry`: the mount options `TOptions` a route cannot do without,
 * and the message tsc shows when a mount leaves them out (`'@api: <rule>. Fix: <fix>'`, ASCII).
 *
 * @example
 * interface MountRequirementRegistry<TRoute extends object> {
 *   auth: DeclaresUser<TRoute> extends true
 *     ? MountRequirement<'@api: ... Fix: mount with { auth }', { readonly auth: AuthFor<TRoute> }>
 *     : unknown;
 * }
 */
export type MountRequirement<TMessage extends string, TOptions extends object> = {
  readonly [requirementMessage]?: TMessage;
} & TOptions;

/**
 * Mount options a route requires, by package: each entry is a `MountRequirement` (or `unknown` when
 * the route needs nothing from that package). `@api/auth` adds one that makes `auth` required on a
 * mount whose operations declare `user`; with no entry, every mount option is optional.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars, @typescript-eslint/no-empty-object-type
export interface MountRequirementRegistry<TRoute extends object> {}

type Registry<TRoute extends object> = MountRequirementRegistry<TRoute>;
/**
 * The mount options a route cannot do without: the intersection of the registry's entries. Each
 * entry goes through a parameter position first, so an entry that requires nothing (`unknown`)
 * does not absorb the others (as `unknown | X` would).
 */
export type MountRequirements<TRoute extends object> = {
  [K in keyof Registry<TRoute>]: (entry: Registry<TRoute>[K]) => void;
}[keyof Registry<TRoute>] extends (entry: infer I) => void
  ? I
  : never;
/**
 * True when a route requires mount options (decided without instantiating anything when no package
 * registers requirements).
 */
export type NeedsOptions<TRoute extends object> = [keyof MountRequirementRegistry<TRoute>] extends [never]
  ? false
  : object extends MountRequirements<TRoute>
    ? false
    : true;
type RequirementMessages<TRoute extends object> =
  MountRequirements<TRoute> extends { readonly [requirementMessage]?: infer M extends string } ? M : never;
/** The names of the mount options a route requires (they exist once a package registers requirements). */
// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- the keys exist once registered
type RequiredOptionNames<TRoute extends object> = Exclude<
  keyof MountRequirements<TRoute>,
  typeof requirementMessage
> &
  string;
/**
 * `unknown`, or the error tsc shows on the route argument when the route requires mount options and
 * the mount passes none (instead of "Expected 2 arguments, but got 1").
 */
export type OmittedOptionsCheck<TRoute extends object> =
  NeedsOptions<TRoute> extends true
    ? WiringTypeError<
        [RequirementMessages<TRoute>] extends [never]
          ? TypeErrorMessage<
              `this route needs the mount options ${RequiredOptionNames<TRoute>}`,
              'pass them as the second argument of the mount'
            >
          : RequirementMessages<TRoute>
      >
    : unknown;
