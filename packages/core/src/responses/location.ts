import { WiringError } from '../errors/wiring-error';

/** Path field values used to fill a route template's `{slots}`. */
export type PathValues = Readonly<Record<string, string | number | boolean | bigint>>;

/** Resolves lazy Location/Link targets at send time (the app provides it). */
export interface UrlResolver {
  /** The path for an operation of a mounted class, or a `"name.operation"` ref. */
  pathFor(target: LocationTarget): string;
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
/** `[options]` required with its path values when the target operation has a path; optional otherwise. */
export type OperationTargetArgs<
  TClass extends Ctor,
  TOp extends keyof InstanceType<TClass>,
  TExtra = unknown,
> =
  PathOf<InstanceType<TClass>[TOp]> extends undefined
    ? [options?: TExtra & { readonly path?: PathValues }]
    : [options: TExtra & { readonly path: PathOf<InstanceType<TClass>[TOp]> }];

function refTarget(ref: string, path: PathValues | undefined): LocationTarget {
  if (!ref.includes('.'))
    throw new WiringError(
      `Location.fromRef('${ref}'): a ref is "name.operation". Fix: write e.g. 'widgets.readOne'.`,
    );
  return { kind: 'ref', ref, path };
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
    return new Location({
      kind: 'operation',
      owner,
      operation,
      path: options?.path as PathValues | undefined,
    });
  }
  /** An absolute path on this app (`/widgets/1`), prefixed with the app's base. */
  static fromPath(path: string): Location {
    return new Location({ kind: 'path', path });
  }
  /** A URL used verbatim, never rewritten. */
  static fromUrl(url: string): Location {
    return new Location({ kind: 'url', url });
  }
  /** A `"name.operation"` reference: the import-cycle escape hatch. */
  static fromRef(ref: string, options: { path?: PathValues } = {}): Location {
    return new Location(refTarget(ref, options.path));
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
  ) {
    if (!params.rel) throw new TypeError('Link: "rel" is required');
  }

  static fromOperation<TClass extends Ctor, TOp extends keyof InstanceType<TClass> & string>(
    owner: TClass,
    operation: TOp,
    options: LinkParams &
      (PathOf<InstanceType<TClass>[TOp]> extends undefined
        ? { readonly path?: PathValues }
        : { readonly path: PathOf<InstanceType<TClass>[TOp]> }),
  ): Link {
    return new Link(
      { kind: 'operation', owner, operation, path: options.path as PathValues | undefined },
      options,
    );
  }
  static fromPath(path: string, params: LinkParams): Link {
    return new Link({ kind: 'path', path }, params);
  }
  static fromUrl(url: string, params: LinkParams): Link {
    return new Link({ kind: 'url', url }, params);
  }
  static fromRef(ref: string, options: LinkParams & { path?: PathValues }): Link {
    return new Link(refTarget(ref, options.path), options);
  }
}
