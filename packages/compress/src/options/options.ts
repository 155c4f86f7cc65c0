import * as v from 'valibot';
import { checkOptions, describeValue, wiringError } from '@api/core/extension';
import { availableParallelism } from 'node:os';
import { defaultSyncBelow, ZSTD_AVAILABLE, type Coding } from '../encoders/encoders';

/** What `compress(…)` and `new Compression(…)` take; every field is optional. */
export interface CompressOptions {
  /**
   * The codings offered, in order of preference (a tie in the client's weights goes to the
   * earlier). Default `['br', 'zstd', 'gzip']`, without `zstd` on a Node that lacks it (Node 20);
   * naming `zstd` there is a `WiringError`.
   */
  readonly encodings?: readonly Coding[];
  /** Buffered bodies shorter than this many bytes are sent as they are. Default 1024. Streams are always compressed. */
  readonly threshold?: number;
  /**
   * Buffered bodies shorter than this many bytes are compressed on the event loop (node:zlib's
   * sync API), larger ones on libuv's thread pool. Default: 64 KiB when the process may use one
   * core, 8 KiB with two, 4 KiB with more (a thread-pool round trip costs more than compressing a
   * small body); `0` always uses the thread pool. Streams always run off the event loop.
   */
  readonly syncBelow?: number;
  /** Levels: brotli quality 0–11 (default 4), gzip 1–9 (default 6), zstd 1–19 (default 3). */
  readonly levels?: { readonly br?: number; readonly gzip?: number; readonly zstd?: number };
  /**
   * Which media types are compressed (the `content-type` without parameters, lower case). Default:
   * `text/*` (event streams included), JSON and `+json`, NDJSON, XML and `+xml`, JavaScript,
   * GraphQL, `image/svg+xml`, `application/wasm`.
   */
  readonly contentTypes?: RegExp | ((mediaType: string) => boolean);
  /**
   * How the `etag` of an encoded body changes: `'weak'` (default: `"x"` → `W/"x"`, which
   * `If-None-Match`'s weak comparison still matches) or `'suffix'` (`"x"` → `"x-br"`, as
   * `@api/assets` names its copies).
   */
  readonly etag?: 'weak' | 'suffix';
}

/** Options with every default filled in. */
export interface ResolvedOptions {
  readonly encodings: readonly Coding[];
  readonly threshold: number;
  readonly syncBelow: number;
  readonly levels: { readonly br: number; readonly gzip: number; readonly zstd: number };
  readonly compressible: (mediaType: string) => boolean;
  readonly etag: 'weak' | 'suffix';
}

/** The media types compressed by default: text, and the structured text formats APIs send. */
export const COMPRESSIBLE =
  /^(?:text\/[\w.+-]+|application\/(?:json|x-ndjson|ndjson|xml|javascript|x-javascript|ecmascript|wasm)|[\w.-]+\/[\w.+-]+\+(?:json|xml))$/;

const CODINGS: readonly Coding[] = ['br', 'zstd', 'gzip'];
const RANGES: Record<Coding, readonly [number, number]> = { br: [0, 11], gzip: [1, 9], zstd: [1, 19] };
const bytes = 'a whole number of bytes';
const Options = v.object({
  // Lists and levels are checked below: their mistakes have their own words (a coding twice, a level out of range).
  encodings: v.optional(v.unknown()),
  threshold: v.optional(v.pipe(v.number(bytes), v.integer(bytes), v.minValue(0, bytes)), 1024),
  syncBelow: v.optional(v.pipe(v.number(bytes), v.integer(bytes), v.minValue(0, bytes))),
  levels: v.optional(v.unknown()),
  contentTypes: v.optional(
    v.union([v.instance(RegExp), v.function()], 'a RegExp or a function of the media type'),
    COMPRESSIBLE,
  ),
  etag: v.optional(v.picklist(['weak', 'suffix'], "'weak' or 'suffix'"), 'weak'),
});
const FIXES = {
  encodings: "e.g. encodings: ['br', 'gzip']",
  threshold: 'e.g. threshold: 1024',
  syncBelow: 'e.g. syncBelow: 8192, or 0 for always async',
  levels: 'e.g. levels: { br: 5, gzip: 6 }',
  contentTypes: 'e.g. contentTypes: /^(text\\/|application\\/json$)/',
  etag: "etag: 'weak' (default) or etag: 'suffix'",
};

/**
 * Checks and completes compression options; every mistake is a coded `WiringError` naming `where`.
 *
 * @param where - the call, e.g. `App.include(compress())`
 * @param given - what the app passed
 */
export function resolveOptions(where: string, given: unknown): ResolvedOptions {
  const o = checkOptions(where, Options, given, { fixes: FIXES });
  const types = o.contentTypes;
  const compressible: (mediaType: string) => boolean =
    types instanceof RegExp ? (type) => types.test(type) : (types as (mediaType: string) => boolean);
  return {
    encodings: resolveEncodings(where, o.encodings),
    threshold: o.threshold,
    syncBelow: o.syncBelow ?? defaultSyncBelow(availableParallelism()),
    levels: resolveLevels(where, o.levels),
    compressible,
    etag: o.etag,
  };
}

function resolveEncodings(where: string, given: unknown): readonly Coding[] {
  if (given === undefined) return CODINGS.filter((c) => c !== 'zstd' || ZSTD_AVAILABLE);
  if (!Array.isArray(given) || given.length === 0)
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      'encodings must be a non-empty list',
      "e.g. encodings: ['br', 'gzip']",
    );
  const seen = new Set<string>();
  for (const coding of given as unknown[]) {
    if (!CODINGS.includes(coding as Coding))
      throw wiringError(
        'API_WIRING_COMPRESS_ENCODING',
        where,
        `encodings names ${typeof coding === 'string' ? JSON.stringify(coding) : describeValue(coding)}, which is not offered`,
        "use 'br', 'zstd' or 'gzip'",
      );
    if (seen.has(coding as string))
      throw wiringError(
        'API_WIRING_DUPLICATE',
        where,
        `encodings names ${String(coding)} twice`,
        'list each coding once',
      );
    if (coding === 'zstd' && !ZSTD_AVAILABLE)
      throw wiringError(
        'API_WIRING_COMPRESS_ENCODING',
        where,
        `zstd is not available in this Node (${process.version}: node:zlib has no zstd before Node 22.15)`,
        'leave zstd out (the default offers it where Node has it), or run a newer Node',
      );
    seen.add(coding as string);
  }
  return given as Coding[];
}

function resolveLevels(where: string, given: unknown): ResolvedOptions['levels'] {
  const levels = { br: 4, gzip: 6, zstd: 3 };
  if (given === undefined) return levels;
  if (typeof given !== 'object' || given === null)
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `levels must be an object, got ${describeValue(given)}`,
      'e.g. levels: { br: 5, gzip: 6 }',
    );
  for (const [key, value] of Object.entries(given)) {
    const range = RANGES[key as Coding];
    if (range === undefined)
      throw wiringError(
        'API_WIRING_COMPRESS_ENCODING',
        where,
        `levels names "${key}"`,
        'use br, gzip or zstd',
      );
    if (typeof value !== 'number' || !Number.isInteger(value) || value < range[0] || value > range[1])
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `levels.${key} must be a whole number from ${range[0]} to ${range[1]}, got ${typeof value === 'number' ? value : describeValue(value)}`,
        `e.g. levels: { ${key}: ${levels[key as Coding]} }`,
      );
    levels[key as Coding] = value;
  }
  return levels;
}
