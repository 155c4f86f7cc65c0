import { WiringError } from '@api/core/extension';
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

const KEYS = new Set(['encodings', 'threshold', 'syncBelow', 'levels', 'contentTypes', 'etag']);
const CODINGS: readonly Coding[] = ['br', 'zstd', 'gzip'];
const RANGES: Record<Coding, readonly [number, number]> = { br: [0, 11], gzip: [1, 9], zstd: [1, 19] };

/**
 * Checks and completes compression options; every mistake is a `WiringError` naming `where`.
 *
 * @param where - the call, e.g. `App.include(compress())`
 * @param given - what the app passed
 */
export function resolveOptions(where: string, given: unknown): ResolvedOptions {
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    fail(
      where,
      `the options must be an object, got ${describe(given)}`,
      'pass { threshold, levels, … } or nothing',
    );
  const o = given as Record<string, unknown>;
  for (const key of Object.keys(o))
    if (!KEYS.has(key)) fail(where, `unknown option "${key}"`, `use only ${[...KEYS].join(', ')}`);
  const threshold = o.threshold ?? 1024;
  if (typeof threshold !== 'number' || !Number.isInteger(threshold) || threshold < 0)
    fail(
      where,
      `threshold must be a whole number of bytes, got ${describe(threshold)}`,
      'e.g. threshold: 1024',
    );
  const syncBelow = o.syncBelow ?? defaultSyncBelow(availableParallelism());
  if (typeof syncBelow !== 'number' || !Number.isInteger(syncBelow) || syncBelow < 0)
    fail(
      where,
      `syncBelow must be a whole number of bytes, got ${describe(syncBelow)}`,
      'e.g. syncBelow: 8192, or 0 for always async',
    );
  const encodings = resolveEncodings(where, o.encodings);
  const levels = resolveLevels(where, o.levels);
  const etag = o.etag ?? 'weak';
  if (etag !== 'weak' && etag !== 'suffix')
    fail(
      where,
      `etag must be 'weak' or 'suffix', got ${describe(etag)}`,
      "etag: 'weak' (default) or etag: 'suffix'",
    );
  const types = o.contentTypes ?? COMPRESSIBLE;
  let compressible: (mediaType: string) => boolean;
  if (types instanceof RegExp) compressible = (type) => types.test(type);
  else if (typeof types === 'function') compressible = types as (mediaType: string) => boolean;
  else
    fail(
      where,
      `contentTypes must be a RegExp or a function of the media type, got ${describe(types)}`,
      'e.g. contentTypes: /^(text\\/|application\\/json$)/',
    );
  return { encodings, threshold, syncBelow, levels, compressible, etag };
}

function resolveEncodings(where: string, given: unknown): readonly Coding[] {
  if (given === undefined) return CODINGS.filter((c) => c !== 'zstd' || ZSTD_AVAILABLE);
  if (!Array.isArray(given) || given.length === 0)
    fail(where, 'encodings must be a non-empty list', "e.g. encodings: ['br', 'gzip']");
  const seen = new Set<string>();
  for (const coding of given as unknown[]) {
    if (!CODINGS.includes(coding as Coding))
      fail(where, `encodings names ${describe(coding)}, which is not offered`, "use 'br', 'zstd' or 'gzip'");
    if (seen.has(coding as string))
      fail(where, `encodings names ${String(coding)} twice`, 'list each coding once');
    if (coding === 'zstd' && !ZSTD_AVAILABLE)
      fail(
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
    fail(where, `levels must be an object, got ${describe(given)}`, 'e.g. levels: { br: 5, gzip: 6 }');
  for (const [key, value] of Object.entries(given)) {
    const range = RANGES[key as Coding];
    if (range === undefined) fail(where, `levels names "${key}"`, 'use br, gzip or zstd');
    if (typeof value !== 'number' || !Number.isInteger(value) || value < range[0] || value > range[1])
      fail(
        where,
        `levels.${key} must be a whole number from ${range[0]} to ${range[1]}, got ${describe(value)}`,
        `e.g. levels: { ${key}: ${levels[key as Coding]} }`,
      );
    levels[key as Coding] = value;
  }
  return levels;
}

function fail(where: string, problem: string, fix: string): never {
  throw new WiringError(`${where}: ${problem}. Fix: ${fix}.`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object') return `an instance of ${value.constructor?.name ?? 'Object'}`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return value.toString();
  if (value === undefined) return 'undefined';
  return JSON.stringify(typeof value === 'bigint' ? `${value}n` : value);
}
