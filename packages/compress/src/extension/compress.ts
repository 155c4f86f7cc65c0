import {
  defineExtension,
  installAppPolicy,
  mountOption,
  type BodyTransform,
  type Extension,
  type MountContext,
  type MountOptionValue,
  type RouteContribution,
  type RouteInfo,
} from '@api/core/extension';
import { resolveOptions, type CompressOptions, type ResolvedOptions } from '../options/options';
import { compileTransform, couldCompress } from '../transform/transform';

/**
 * A compression policy: what `compress(…)` installs app-wide, and the value of a mount's own
 * `compress` option (`{ compress: new Compression({ threshold: 0 }) }`), which replaces the app
 * default on that mount. `{ compress: false }` turns compression off for a mount.
 *
 * @example
 * this.includeResource(new Reports(), { compress: new Compression({ levels: { br: 6 } }) });
 */
export class Compression implements MountOptionValue {
  /** The checked options, defaults filled in. */
  readonly options: ResolvedOptions;
  #transform: BodyTransform | undefined;

  /**
   * @param options - encodings, threshold, levels, contentTypes, etag (all optional)
   * @throws WiringError - on an unknown option or a value out of range, naming the fix
   */
  constructor(options: CompressOptions = {}) {
    this.options = resolveOptions('new Compression(options)', options);
  }

  /** The per-answer transform, compiled once for every route this policy covers. */
  get transform(): BodyTransform {
    return (this.#transform ??= compileTransform(this.options));
  }

  /** The contribution for one route: a transform where an answer could be compressed, else nothing. */
  contributionFor(route: RouteInfo): RouteContribution | undefined {
    return couldCompress(route, this.options) ? { transform: this.transform } : undefined;
  }

  /** The mount-option compiler: this policy on the mount's routes. */
  [mountOption]({ route }: MountContext): RouteContribution | undefined {
    return this.contributionFor(route);
  }
}

/**
 * Installs dynamic response compression app-wide (at most once): br and gzip (and zstd where the
 * running Node has it), chosen per request from `Accept-Encoding`, on every answer whose media
 * type compresses — operations, custom routes, streams (flushed after every item), intercept
 * answers, errors and 404s — except on mounts with their own `compress` option (a `Compression`,
 * or `false` to turn it off).
 *
 * @param options - a `Compression`, or its options (defaults: br 4, gzip 6, threshold 1 KiB)
 * @example
 * this.include(compress());
 * this.includeEndpoint(new Session(), { compress: false }); // answers that reflect secrets: see BREACH
 */
export function compress(options: CompressOptions | Compression = {}): Extension<void> {
  return defineExtension({
    name: 'compress',
    setup(wiring) {
      installAppPolicy(wiring, {
        extension: 'compress',
        duplicate: 'compression is already installed app-wide',
        duplicateFix:
          'include compress() once; give a mount its own policy with { compress: new Compression({ … }) } or turn it off with { compress: false }',
        // A mount's own policy compiles itself; false turns compression off; anything else is a mistake.
        override: {
          option: 'compress',
          accepts: (own) => own === false || own instanceof Compression,
          expected: 'a Compression or false',
          fix: 'pass { compress: new Compression({ … }) } to override the app default, or { compress: false } to turn it off for the mount',
        },
        contribute: (where) => {
          const policy = options instanceof Compression ? options : new CompressionFor(where, options);
          return (route) => policy.contributionFor(route);
        },
      });
    },
  });
}

/** A `Compression` whose option errors name the `compress(…)` call instead of the constructor. */
class CompressionFor extends Compression {
  constructor(where: string, options: CompressOptions) {
    resolveOptions(where, options);
    super(options);
  }
}
