import { describeValue, wiringError } from '../contract/wiring-error';
import { routeClassName } from '../contract/route-name';
import type { RouteInfo } from '../contract/route-info';

/** Path field values used to fill a route template's `{slots}`. */
export type PathValues = Readonly<Record<string, string | number | boolean | bigint>>;

/** Resolves lazy Location/Link targets at send time (the app provides it). */
export interface UrlResolver {
  /**
   * The path for an operation of a mounted class, or a `"name.operation"` ref; `from`: the route
   * answering, whose mount prefix wins when the class is mounted under several.
   */
  pathFor(target: LocationTarget, from?: RouteInfo): string;
  /** The origin/prefix to put before path-based targets ('' when URLs stay relative). */
  base(headers: Readonly<Record<string, string | string[] | undefined>>): string;
}

/** What a Location or Link points at, resolved at send time. */
export type LocationTarget =
  | {
      readonly kind: 'operation';
      readonly owner: abstract new (...args: never[]) => object;
      readonly operation: string;
      readonly path: PathValues | undefined;
    }
  | { readonly kind: 'ref'; readonly ref: string; readonly path: PathValues | undefined }
  | { readonly kind: 'path'; readonly path: string }
  | { readonly kind: 'url'; readonly url: string };

type Ctor = abstract new (...args: never[]) => object;
type EntriesOf<T> = T extends { readonly entries: infer E } ? E : never;
/** The path values an operation's declared `path` schema needs (each slot as text or a scalar). */
type PathOf<TOperation> = TOperation extends { readonly spec: { readonly path: infer P } }
  ? { readonly [K in keyof EntriesOf<P>]: string | number | boolean | bigint }
  : undefined;
type IsUnion<T, TAll = T> = T extends unknown ? ([TAll] extends [T] ? false : true) : never;
/** `[options]` required with its path values when the target operation has a path; optional otherwise. */
export type OperationTargetArgs<
  TClass extends Ctor,
  TOp extends keyof InstanceType<TClass>,
  TExtra = unknown,
> =
  // A misspelled name leaves TOp at its constraint (every key): reading those members' types from
  // inside the class being declared would be circular (tsc's "implicitly has type 'any'" errors
  // before the real one), so a union asks for nothing and the name's own error stands alone.
  IsUnion<TOp> extends true
    ? [options?: TExtra & { readonly path?: PathValues }]
    : PathOf<InstanceType<TClass>[TOp]> extends undefined
      ? [options?: TExtra & { readonly path?: PathValues }]
      : [options: TExtra & { readonly path: PathOf<InstanceType<TClass>[TOp]> }];

function refTarget(factory: string, ref: string, path: PathValues | undefined): LocationTarget {
  if (typeof ref !== 'string' || !ref.includes('.'))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      `${factory}(${typeof ref === 'string' ? `'${ref}'` : describeValue(ref)})`,
      'a ref is "name.operation"',
      "write e.g. 'widgets.readOne'",
    );
  checkPathValues(factory, path);
  return { kind: 'ref', ref, path };
}

// Per-request checks: typeof only (these factories run inside handlers).
function checkPathValues(factory: string, path: unknown): void {
  if (path !== undefined && (typeof path !== 'object' || path === null))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      factory,
      `"path" must be an object of slot → value, got ${describeValue(path)}`,
      '{ path: { widget_id: widget.id } }',
    );
}

function operationTarget(factory: string, owner: unknown, operation: unknown, path: unknown): LocationTarget {
  if (typeof owner !== 'function')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      factory,
      `expected a route class, got ${describeValue(owner)}`,
      `${factory}(WidgetResource, 'readOne', { path: { widget_id } })`,
    );
  if (typeof operation !== 'string')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      `${factory}(${routeClassName(owner as abstract new () => object)}, …)`,
      `the operation must be its name (a string), got ${describeValue(operation)}`,
      "e.g. 'readOne'",
    );
  checkPathValues(factory, path);
  return {
    kind: 'operation',
    owner: owner as abstract new (...args: never[]) => object,
    operation,
    path: path as PathValues | undefined,
  };
}

function pathTarget(factory: string, path: unknown): LocationTarget {
  if (typeof path !== 'string' || path.charCodeAt(0) !== 47)
    throw wiringError(
      'API_WIRING_INVALID_PATH',
      factory,
      'expected an absolute path on this app starting with "/", ' +
        `got ${typeof path === 'string' ? JSON.stringify(path) : describeValue(path)}`,
      `e.g. ${factory}('/widgets/1'); use fromUrl for another origin`,
    );
  return { kind: 'path', path };
}

function urlTarget(factory: string, url: unknown): LocationTarget {
  if (typeof url !== 'string' || url === '')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      factory,
      `expected a URL string, got ${describeValue(url)}`,
      `e.g. ${factory}('https://docs.example/widgets')`,
    );
  return { kind: 'url', url };
}

function checkOptions(factory: string, options: unknown): void {
  if (typeof options !== 'object' || options === null)
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      factory,
      `expected an options object, got ${describeValue(options)}`,
      'pass { path: { … } } or nothing',
    );
}

/**
 * The `Location` header of a response, resolved at send time. Path-based targets pick up the
 * app's URL base (`APP_BASE_URL` / `APP_TRUST_FORWARDED`); `fromUrl` is used verbatim.
 *
 * @example
 * Location.fromOperation(WidgetResource, 'readOne', { path: { widget_id: widget.id } })
 */
export class Location {
  private constructor(readonly target: LocationTarget) {}

  /**
   * Points at a mounted operation of a route class, filling its path slots: the operation's path
   * values are required (a type error without them) when it declares a `path` schema.
   */
  static fromOperation<TClass extends Ctor, TOp extends keyof InstanceType<TClass> & string>(
    owner: TClass,
    operation: TOp,
    ...[options]: OperationTargetArgs<TClass, TOp>
  ): Location {
    if (options !== undefined) checkOptions('Location.fromOperation', options);
    return new Location(operationTarget('Location.fromOperation', owner, operation, options?.path));
  }
  /** An absolute path on this app (`/widgets/1`), prefixed with the app's base. */
  static fromPath(path: string): Location {
    return new Location(pathTarget('Location.fromPath', path));
  }
  /** A URL used verbatim, never rewritten. */
  static fromUrl(url: string): Location {
    return new Location(urlTarget('Location.fromUrl', url));
  }
  /** A `"name.operation"` reference: the import-cycle escape hatch. */
  static fromRef(ref: string, options: { path?: PathValues } = {}): Location {
    checkOptions('Location.fromRef', options);
    return new Location(refTarget('Location.fromRef', ref, options.path));
  }
}

/** Link parameters (RFC 8288). */
export interface LinkParams {
  readonly rel: string;
  readonly title?: string;
  /** Emitted as `type=`. */
  readonly mediaType?: string;
}

/**
 * One RFC 8288 link; several links on a response join into one `Link` header.
 *
 * @example
 * Link.fromRef('widgets.readMany', { rel: 'collection' })
 */
export class Link {
  private constructor(
    readonly target: LocationTarget,
    readonly params: LinkParams,
  ) {}

  /** Checks `params` before the target (per request: typeof only). */
  private static checked(factory: string, params: unknown): LinkParams {
    if (typeof params !== 'object' || params === null)
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        factory,
        `expected link params { rel, title?, mediaType? }, got ${describeValue(params)}`,
        "e.g. { rel: 'collection' }",
      );
    const p = params as { rel?: unknown; title?: unknown; mediaType?: unknown };
    if (typeof p.rel !== 'string' || p.rel === '')
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        factory,
        '"rel" is required (a link relation such as \'next\' ' +
          `or 'collection'), got ${describeValue(p.rel)}`,
        "{ rel: 'collection' }",
      );
    if (
      (p.title !== undefined && typeof p.title !== 'string') ||
      (p.mediaType !== undefined && typeof p.mediaType !== 'string')
    )
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        factory,
        '"title" and "mediaType" must be strings',
        "{ rel: 'next', title: 'Next page' }",
      );
    return params as LinkParams;
  }

  static fromOperation<TClass extends Ctor, TOp extends keyof InstanceType<TClass> & string>(
    owner: TClass,
    operation: TOp,
    options: LinkParams &
      (IsUnion<TOp> extends true // a misspelled name: see OperationTargetArgs
        ? { readonly path?: PathValues }
        : PathOf<InstanceType<TClass>[TOp]> extends undefined
          ? { readonly path?: PathValues }
          : { readonly path: PathOf<InstanceType<TClass>[TOp]> }),
  ): Link {
    const params = Link.checked('Link.fromOperation', options);
    return new Link(operationTarget('Link.fromOperation', owner, operation, options.path), params);
  }
  static fromPath(path: string, params: LinkParams): Link {
    return new Link(pathTarget('Link.fromPath', path), Link.checked('Link.fromPath', params));
  }
  static fromUrl(url: string, params: LinkParams): Link {
    return new Link(urlTarget('Link.fromUrl', url), Link.checked('Link.fromUrl', params));
  }
  static fromRef(ref: string, options: LinkParams & { path?: PathValues }): Link {
    const params = Link.checked('Link.fromRef', options);
    return new Link(refTarget('Link.fromRef', ref, options.path), params);
  }
}
