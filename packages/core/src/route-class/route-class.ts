import type { ErrorClass, RouteMeta } from '../contract/meta';
import type { ResponseSpec } from '../responses/response';
import type { RawHeadersView } from '../binding/raw-headers';
import type { FormInput } from '../binding/form';
import { kOperation, kRouteClass } from '../contract/symbols';
import { nameRouteClass } from '../contract/route-name';
import { checkRouteClassArgs } from './route-class-args';
import { describeValue, wiringError } from '../contract/wiring-error';
import type { TypeErrorMessage, WiringTypeError } from '../contract/type-errors';
import type { PeerPathSyntax } from '../routing/peer-syntax';
import type { DefaultedPathFields, PathFields, PathSlots } from './path-fields';

import type { ObjectSchemaLike } from '../contract/object-schema';
import type { SchemaOutput, SchemaReturn } from '../contract/standard-schema';
import type { ExtensionSources, OperationSpec, SourceName } from '../contract/operation-spec';
export type { ObjectSchemaLike } from '../contract/object-schema';
export type {
  CoreOperationSpec,
  ExtensionSources,
  OperationSpec,
  Returns,
  ReturnsEntry,
  SourceName,
} from '../contract/operation-spec';

type SourceValue<K, S> = K extends keyof ExtensionSources
  ? ExtensionSources[K] extends { value: infer V }
    ? V
    : never
  : K extends 'content'
    ? Buffer
    : K extends 'requestId'
      ? string
      : K extends 'signal'
        ? AbortSignal
        : K extends 'rawHeaders'
          ? RawHeadersView
          : K extends 'form'
            ? S extends ObjectSchemaLike
              ? FormInput<S>
              : SchemaOutput<S>
            : SchemaOutput<S>;

/** The single argument a handler receives: one key per declared binding source. */
export type HandlerInput<S extends OperationSpec> = {
  readonly [K in keyof S as K extends SourceName | keyof ExtensionSources ? K : never]: SourceValue<K, S[K]>;
};

type ReturnOf1<R> = R extends ResponseSpec<infer T> ? T : SchemaReturn<R>;
/** The value a handler returns for its `returns:` declaration. */
export type HandlerOutput<S extends OperationSpec> = S extends { readonly returns: infer R }
  ? R extends readonly unknown[]
    ? ReturnOf1<R[number]>
    : ReturnOf1<R>
  : void | undefined;

/** A handler: sync or async, receiving the declared sources. */
export type Handler<S extends OperationSpec> = (
  input: HandlerInput<S>,
) => HandlerOutput<S> | Promise<HandlerOutput<S>>;

export type { PathSlots } from './path-fields';

type ExtraFields<S, TPath extends string> = S extends { readonly path: infer P }
  ? Exclude<PathFields<P>, PathSlots<TPath>>
  : never;

declare const extraPathFields: unique symbol;
declare const operationKind: unique symbol;
declare const routeClassFacts: unique symbol;

/**
 * Type-only facts of a route class instance: its mount path, the error classes its class-level
 * `meta.exceptions` lists (and, for a WebSocket endpoint, the message types per direction).
 * Nothing holds them at run time; `@api/client` reads them through `import type`
 * (`RouteClassFacts<infer TPath>`). Extensions add them to their own route classes by interface
 * merging.
 */
export interface RouteClassFacts<TPath extends string = string, TMessages = unknown, TErrors = unknown> {
  /** Phantom: the mount path as written in `Resource(path)` / `Endpoint(path)`. */
  readonly [routeClassFacts]?: {
    readonly path: TPath;
    readonly messages: TMessages;
    readonly errors?: TErrors;
  };
}

/** A declared operation (what `this.operation(...)` returns). */
export interface Operation<
  S extends OperationSpec = OperationSpec,
  TExtra extends string = string,
  TKind extends OperationKind = OperationKind,
> {
  readonly [kOperation]: true;
  readonly spec: S;
  readonly handler: (input: never) => unknown;
  /** Phantom: path fields beyond the mount's slots (must be none on exact routes). */
  readonly [extraPathFields]?: TExtra;
  /** Phantom: the class kind that declared it (an Endpoint's `delete` is not a Resource's). */
  readonly [operationKind]?: TKind;
}

/** The two route class kinds. */
export type RouteKindName = 'resource' | 'endpoint';

/**
 * The kind of class an operation was declared in, as tsc prints it when an Endpoint is mounted
 * with `includeResource` (or the reverse): the rule and the fix.
 */
export type OperationKind<TKind extends RouteKindName = RouteKindName> = TKind extends 'resource'
  ? '@api: a Resource operation (mount its class with includeResource)'
  : '@api: an Endpoint operation (mount its class with includeEndpoint)';

/** What tsc prints for a path field beyond the slots of an exact path. */
export type ExactPathError<TKind extends RouteKindName> = TKind extends 'resource'
  ? TypeErrorMessage<
      'create and readMany answer on the mount path itself, so their path fields must all be {slots} of it',
      'remove the other path fields, or declare an item operation (readOne, updateFull, updatePartial, delete)'
    >
  : TypeErrorMessage<
      'an Endpoint path is exact, so every path field must be a {slot} of it',
      [
        'remove the other path fields or add them to the path as {slots} ',
        '(a Resource with item operations is mounted with includeResource)',
      ]
    >;

/** An operation on an exact path (endpoints, `create`, `readMany`): no path fields beyond the slots. */
export type ExactOperation<TKind extends RouteKindName = RouteKindName> = Operation<
  OperationSpec,
  ExactPathError<TKind>,
  OperationKind<TKind>
>;

/** `unknown`, or the error tsc shows on the spec: a mount slot without a path field, or a defaulted path field. */
type SpecCheck<S, TPath extends string> = S extends { readonly path: infer P }
  ? PathCheck<Exclude<PathSlots<TPath>, PathFields<P>>, DefaultedPathFields<P>>
  : unknown;
/**
 * The spec, or (when a check fails) only the error: tsc then prints the rule right after the
 * argument, instead of the spec's whole type twice (once as the argument, once intersected).
 */
type SpecChecked<S, TPath extends string> =
  SpecCheck<S, TPath> extends WiringTypeError<string> ? SpecCheck<S, TPath> : S;
type PathCheck<TMissing, TDefaulted> = [TMissing] extends [never]
  ? [TDefaulted] extends [never]
    ? unknown
    : WiringTypeError<
        TypeErrorMessage<
          `path field ${TDefaulted & string} is optional or has a default, but a matched path always carries its value`,
          [
            `declare ${TDefaulted & string} without v.optional, v.nullish or a default `,
            `(zod: .optional(), .nullish(), .default(); ArkType: '${TDefaulted & string}?' or a default)`,
          ]
        >
      >
  : WiringTypeError<
      TypeErrorMessage<
        `the path schema has no field for the mount path slot {${TMissing & string}}`,
        `add ${TMissing & string} to the path Struct`
      >
    >;

/**
 * Class-level options of `Resource(...)` and `Endpoint(...)`; `TErrors`: the error classes of
 * `meta.exceptions`, kept as a type (the route class's facts carry them).
 */
export interface RouteClassOptions<TErrors extends readonly ErrorClass[] = readonly ErrorClass[]> {
  /**
   * The class's name in operationIds (`<name>_<operation>`), the route catalogue, `WiringError`s
   * and logs; default: the class name, which a bundler may change (esbuild renames a class that
   * refers to itself to `_WidgetResource`). An identifier.
   */
  readonly name?: string;
  /** A name for reverse routing: `Location.fromRef('<ref>.readOne', ...)`. */
  readonly ref?: string;
  /** OpenAPI metadata for every operation of the class. */
  readonly meta?: RouteMeta & { readonly exceptions?: TErrors };
}

/** What core records about a route class. */
export interface RouteClassInfo {
  readonly kind: 'resource' | 'endpoint';
  readonly path: string;
  readonly ref: string | undefined;
  readonly meta: RouteMeta | undefined;
}

abstract class RouteBase<TPath extends string, TKind extends OperationKind, TErrors = never>
  implements RouteClassFacts<TPath, unknown, TErrors>
{
  declare readonly [routeClassFacts]?: {
    readonly path: TPath;
    readonly messages: unknown;
    readonly errors?: TErrors;
  };
  /**
   * Declares an operation: its binding sources and responses, and its handler. The handler's
   * argument and return types are inferred from the schemas.
   */
  protected operation<const S extends OperationSpec>(
    spec: SpecChecked<S, TPath>,
    handler: Handler<S>,
  ): Operation<S, ExtraFields<S, TPath>, TKind> {
    // Runs when the route class is instantiated (`new MyRoute()`), never per request.
    if (typeof spec !== 'object' || spec === null || Array.isArray(spec))
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        `${this.constructor.name}.operation`,
        'the spec must be an object ({ path?, params?, ' +
          `json?, …, returns? }), got ${describeValue(spec)}`,
        'this.operation({ returns: Widget }, handler)',
      );
    if (typeof handler !== 'function')
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        `${this.constructor.name}.operation`,
        `the handler must be a function, got ${describeValue(handler)}`,
        'this.operation({ … }, (input) => value)',
      );
    // A call that compiled passed S itself (the error type is what no value has).
    return { [kOperation]: true, spec: spec as S, handler: handler };
  }
}

/** The instance shape of a `Resource` subclass: any of six CRUD operations. */
export interface ResourceOperations {
  create?: ExactOperation<'resource'>;
  readMany?: ExactOperation<'resource'>;
  readOne?: Operation<OperationSpec, string, OperationKind<'resource'>>;
  updateFull?: Operation<OperationSpec, string, OperationKind<'resource'>>;
  updatePartial?: Operation<OperationSpec, string, OperationKind<'resource'>>;
  delete?: Operation<OperationSpec, string, OperationKind<'resource'>>;
}

/** The instance shape of an `Endpoint` subclass: any of five verbs on an exact path. */
export interface EndpointOperations {
  get?: ExactOperation<'endpoint'>;
  post?: ExactOperation<'endpoint'>;
  put?: ExactOperation<'endpoint'>;
  patch?: ExactOperation<'endpoint'>;
  delete?: ExactOperation<'endpoint'>;
}

/** The constructor `Resource(...)` returns: extend it. */
export type ResourceClass<TPath extends string, TErrors = never> = abstract new () => RouteBase<
  TPath,
  OperationKind<'resource'>,
  TErrors
>;
/** The constructor `Endpoint(...)` returns: extend it. */
export type EndpointClass<TPath extends string, TErrors = never> = abstract new () => RouteBase<
  TPath,
  OperationKind<'endpoint'>,
  TErrors
>;

type BadSlot<S extends string> = S extends Lowercase<S> ? (S extends `${string}-${string}` ? S : never) : S;
/** A mount path whose `{slots}` are not snake_case is a type error (and a `WiringError` at run time). */
export type SnakeCaseSlots<TPath extends string> = [BadSlot<PathSlots<TPath>>] extends [never]
  ? unknown
  : WiringTypeError<
      TypeErrorMessage<
        `path slots are snake_case, and {${BadSlot<PathSlots<TPath>>}} is not`,
        'name slots like {widget_id}'
      >
    >;

/**
 * A mount path in another router's syntax (`/books/:id`, `/files/*`) is a type error naming the
 * `{slot}` form; otherwise its `{slots}` must be snake_case. (Both are `WiringError`s at run time.)
 */
export type PathSyntax<TPath extends string> =
  PeerPathSyntax<TPath> extends WiringTypeError<string> ? PeerPathSyntax<TPath> : SnakeCaseSlots<TPath>;
/** The path, or (when `PathSyntax` fails) only the error: tsc prints the rule, not the path twice. */
type CheckedPath<TPath extends string> =
  PathSyntax<TPath> extends WiringTypeError<string> ? PathSyntax<TPath> : TPath;

/** Builds the base class `Resource(...)` / `Endpoint(...)` return, after checking the arguments. */
function defineRouteClass<TPath extends string, TKind extends RouteKindName, TErrors>(
  kind: TKind,
  path: TPath,
  options: RouteClassOptions,
): abstract new () => RouteBase<TPath, OperationKind<TKind>, TErrors> {
  const name = kind === 'resource' ? 'Resource' : 'Endpoint';
  const given = checkRouteClassArgs(name, path, options);
  abstract class RouteClass extends RouteBase<TPath, OperationKind<TKind>, TErrors> {}
  const info: RouteClassInfo = { kind, path, ref: options.ref, meta: options.meta };
  Object.defineProperty(RouteClass, kRouteClass, { value: info });
  nameRouteClass(RouteClass, given.name, `${name}('${path}', { name })`);
  return RouteClass;
}

/**
 * Declares a REST collection mounted at `path`. Operations: `create` (POST, 201), `readMany`
 * (GET), `readOne` (GET), `updateFull` (PUT), `updatePartial` (PATCH), `delete` (DELETE); item
 * operations extend the mount with their path fields beyond its slots.
 *
 * @example
 * class WidgetResource extends Resource('/widgets', { name: 'WidgetResource', ref: 'widgets' }) {
 *   constructor(private readonly store: WidgetStore) { super(); }
 *   readOne = this.operation({ path: WidgetPath, returns: Widget }, ({ path }) => this.store.get(path.widget_id));
 * }
 */
export function Resource<
  const TPath extends string,
  const TErrors extends readonly ErrorClass[] = readonly [],
>(path: CheckedPath<TPath>, options: RouteClassOptions<TErrors> = {}): ResourceClass<TPath, TErrors[number]> {
  return defineRouteClass('resource', path as TPath, options);
}

/**
 * Declares single routes on an exact path: any of `get`, `post`, `put`, `patch`, `delete`, each
 * 200 by default. For health checks, webhook receivers and legacy paths.
 *
 * @example
 * class HealthEndpoint extends Endpoint('/healthz') {
 *   get = this.operation({ returns: Health }, () => ({ status: 'ok' }));
 * }
 */
export function Endpoint<
  const TPath extends string,
  const TErrors extends readonly ErrorClass[] = readonly [],
>(path: CheckedPath<TPath>, options: RouteClassOptions<TErrors> = {}): EndpointClass<TPath, TErrors[number]> {
  return defineRouteClass('endpoint', path as TPath, options);
}

/** The route-class info of an instance, or undefined when it is not a Resource/Endpoint. */
export function routeClassInfo(instance: object): RouteClassInfo | undefined {
  return (instance.constructor as { [kRouteClass]?: RouteClassInfo })[kRouteClass];
}

/** True when a value is an operation declared with `this.operation`. */
export function isOperation(value: unknown): value is Operation {
  return typeof value === 'object' && value !== null && kOperation in value;
}

/** Resource operation names with their HTTP method, item-ness and default status. */
export const RESOURCE_OPERATIONS = {
  create: { method: 'POST', item: false, status: 201 },
  readMany: { method: 'GET', item: false, status: 200 },
  readOne: { method: 'GET', item: true, status: 200 },
  updateFull: { method: 'PUT', item: true, status: 200 },
  updatePartial: { method: 'PATCH', item: true, status: 200 },
  delete: { method: 'DELETE', item: true, status: 200 },
} as const;

/** Endpoint verbs with their HTTP method. */
export const ENDPOINT_OPERATIONS = {
  get: { method: 'GET', item: false, status: 200 },
  post: { method: 'POST', item: false, status: 200 },
  put: { method: 'PUT', item: false, status: 200 },
  patch: { method: 'PATCH', item: false, status: 200 },
  delete: { method: 'DELETE', item: false, status: 200 },
} as const;
