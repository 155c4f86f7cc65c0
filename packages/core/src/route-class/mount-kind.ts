// The mount-kind check of `includeResource` / `includeEndpoint` at type level: a route class whose
// operations the mount does not take is refused with the rule first (tsc's own "Argument of type
// 'X' is not assignable to parameter of type 'ResourceOperations'" then the rule, deep in the
// chain, was what the user read before).
import type { TypeErrorMessage, WiringTypeError } from '../contract/type-errors';
import type {
  EndpointOperations,
  ExactPathError,
  Operation,
  OperationKind,
  ResourceOperations,
  RouteKindName,
} from './route-class';
import type { OperationSpec } from '../contract/operation-spec';

type OperationsOf<TKind extends RouteKindName> = TKind extends 'resource'
  ? ResourceOperations
  : EndpointOperations;

/** Why one operation does not fit the mount: path fields beyond an exact path's slots, or its class kind. */
type Mismatch<TOp, TName extends string, TKind extends RouteKindName> =
  TOp extends Operation<OperationSpec, infer TExtra, infer TOpKind>
    ? [TOpKind] extends [OperationKind<TKind>]
      ? [TExtra] extends [ExactPathError<TKind>]
        ? never
        : ExactPathError<TKind>
      : TKind extends 'resource'
        ? // An Endpoint mounted as a Resource.
          TypeErrorMessage<
            `${TName} is an Endpoint operation, and includeResource mounts a Resource`,
            'mount its class with includeEndpoint'
          >
        : [TExtra] extends [ExactPathError<TKind>]
          ? TypeErrorMessage<
              `${TName} is a Resource operation, and includeEndpoint mounts an Endpoint`,
              'mount its class with includeResource'
            >
          : ExactPathError<TKind>
    : TypeErrorMessage<`${TName} is not an operation`, 'declare it with this.operation({ ... }, handler)'>;

/** The messages of the operations of `TRoute` the mount does not take (never when it takes all). */
type Mismatches<TRoute, TKind extends RouteKindName> = {
  [K in keyof OperationsOf<TKind> & keyof TRoute]-?: [NonNullable<TRoute[K]>] extends [
    NonNullable<OperationsOf<TKind>[K]>,
  ]
    ? never
    : Mismatch<NonNullable<TRoute[K]>, K & string, TKind>;
}[keyof OperationsOf<TKind> & keyof TRoute];

/**
 * `unknown` when `TRoute`'s operations fit a mount of `TKind` (`includeResource`: `'resource'`),
 * else a `WiringTypeError` whose message says which rule and how to fix it (the run-time
 * `WiringError` says the same).
 */
// Distributed over a union of route classes: each is checked.
export type MountKindCheck<TRoute, TKind extends RouteKindName> = TRoute extends unknown
  ? KindCheckOf<TRoute, TKind>
  : never;

type KindCheckOf<TRoute, TKind extends RouteKindName> = [keyof TRoute] extends [never]
  ? unknown // a route typed `object`: checked at run time
  : [keyof TRoute & keyof OperationsOf<TKind>] extends [never]
    ? WiringTypeError<
        TKind extends 'resource'
          ? TypeErrorMessage<
              [
                'this class declares no Resource operation ',
                '(create, readMany, readOne, updateFull, updatePartial, delete)',
              ],
              'declare one with this.operation, or mount an Endpoint with includeEndpoint'
            >
          : TypeErrorMessage<
              'this class declares no Endpoint operation (get, post, put, patch, delete)',
              'declare one with this.operation, or mount a Resource with includeResource'
            >
      >
    : [Mismatches<TRoute, TKind>] extends [never]
      ? unknown
      : WiringTypeError<Mismatches<TRoute, TKind>>;
