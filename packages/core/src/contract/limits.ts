import { describeValue, wiringError } from './wiring-error';

/**
 * Bounds applied while a multipart body streams in; each refusal happens as soon as it is certain.
 *
 * @example
 * const limits: MultipartLimits = { ...defaultMultipartLimits, maxFileSize: 50 * 1024 * 1024 };
 */
export interface MultipartLimits {
  /** Largest file part (a part with a `filename`), in bytes → `too-large`. */
  maxFileSize: number;
  /** Most non-file parts → `too-many`. */
  maxFields: number;
  /** Most parts of any kind → `too-many`. */
  maxParts: number;
  /** Largest non-file part, in bytes → `too-large`. */
  maxFieldSize: number;
  /** Largest header block of one part (and largest preamble/epilogue), in bytes → `malformed`. */
  maxHeaderSize: number;
  /** Largest whole body, in bytes → `too-large` (bounds memory across many parts; spooled files aside). */
  maxTotalSize: number;
  /**
   * Most bytes one request may spool to temporary files (`FileFormPart.spooled()` parts, each and
   * all together) → `too-large`.
   */
  maxSpooledBytes: number;
}

/**
 * The default multipart limits: 10 MiB per file, 100 fields, 1000 parts, 1 MiB per field,
 * 16 KiB per part header block, 20 MiB in all in memory, 1 GiB spooled to temporary files.
 *
 * @example
 * await parseMultipart(req, boundary, { ...defaultMultipartLimits, maxFields: 10 });
 */
export const defaultMultipartLimits: MultipartLimits = Object.freeze({
  maxFileSize: 10 * 1024 * 1024,
  maxFields: 100,
  maxParts: 1000,
  maxFieldSize: 1024 * 1024,
  maxHeaderSize: 16 * 1024,
  maxTotalSize: 20 * 1024 * 1024,
  maxSpooledBytes: 1024 * 1024 * 1024,
});

/** Request limits: every refusal is a Problem body, never a dropped connection or a 500. */
export interface Limits {
  /** JSON / raw body bytes (413 over it). Default 1 MiB. */
  readonly maxBodyBytes: number;
  /** JSON nesting depth (400 over it), checked without recursion. Default 64. */
  readonly maxJsonDepth: number;
  /** Request header count (431 over it). Default 200. */
  readonly maxHeaders: number;
  /** Time to receive the request head, ms. Default 10 s; never 0. */
  readonly headersTimeoutMs: number;
  /** Time to receive the whole request, ms. Default 30 s; never 0. */
  readonly requestTimeoutMs: number;
  /** Graceful shutdown hard cap, ms. Default 10 s. */
  readonly shutdownTimeoutMs: number;
  /**
   * Lingering close: after a refusal decided before the request body was read (401, 404, 413 …),
   * the server half-closes and reads (discarding) at most this many more body bytes, so the client
   * sees the answer rather than a reset. Default 1 MiB.
   */
  readonly maxLingerBytes: number;
  /** Lingering close: the longest the server keeps reading after such a refusal, ms. Default 2 s. */
  readonly lingerTimeoutMs: number;
  /** Multipart limits: 10 MiB per file, 100 fields, 1000 parts, 20 MiB in all. */
  readonly multipart: MultipartLimits;
  /**
   * The deadline of an operation, ms: the time from routing to the head of its answer. Past it the
   * request's `signal` aborts, the client gets a `503` Problem, and the handler's late result is
   * dropped (logged once). A stream whose head went out is not cut. Default: none (no timer runs);
   * at most 2147483647 (node's longest timer). Set app-wide or per mount.
   */
  readonly deadlineMs?: number | undefined;
}

/** Limits a mount may override for its routes. */
export type MountLimits = Partial<Pick<Limits, 'maxBodyBytes' | 'maxJsonDepth' | 'deadlineMs'>> & {
  readonly multipart?: Partial<MultipartLimits>;
};

/** Limits an app may override (`new App({ limits })`). */
export type LimitsOptions = Partial<Omit<Limits, 'multipart'>> & {
  readonly multipart?: Partial<MultipartLimits>;
};

export const defaultLimits: Limits = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  maxJsonDepth: 64,
  maxHeaders: 200,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  shutdownTimeoutMs: 10_000,
  maxLingerBytes: 1024 * 1024,
  lingerTimeoutMs: 2_000,
  multipart: defaultMultipartLimits,
});

function positive(where: string, name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw wiringError(
      'API_WIRING_LIMIT',
      where,
      `limit "${name}" must be a positive number ` +
        `(got ${typeof value === 'number' ? value : describeValue(value)}); limits are never 0 or unlimited`,
      `e.g. ${name}: ${exampleOf(name)}, or leave it out for the default`,
    );
  return value;
}

/** A deadline: a positive whole number of ms a timer can hold. */
function deadline(where: string, value: unknown): number {
  positive(where, 'deadlineMs', value);
  if (!Number.isInteger(value) || (value as number) > MAX_TIMER_MS)
    throw wiringError(
      'API_WIRING_LIMIT',
      where,
      `limit "deadlineMs" must be a whole number of milliseconds up to ${MAX_TIMER_MS}, got ${value as number}`,
      'e.g. deadlineMs: 5000 (five seconds to the head of each answer), or leave it out for none',
    );
  return value as number;
}

function exampleOf(name: string): number {
  const key = name.startsWith('multipart.') ? name.slice('multipart.'.length) : name;
  const value =
    (defaultLimits as unknown as Record<string, unknown>)[key] ??
    (defaultMultipartLimits as unknown as Record<string, unknown>)[key];
  return typeof value === 'number' ? value : key === 'deadlineMs' ? 5000 : 1;
}

/** The limits a mount may override (`{ limits }` on `includeResource`/`includeEndpoint`). */
export const MOUNT_LIMIT_KEYS: readonly string[] = [
  'maxBodyBytes',
  'maxJsonDepth',
  'multipart',
  'deadlineMs',
];

/** Every limit an app may set (`deadlineMs` has no default, so it is not a key of `defaultLimits`). */
const APP_LIMIT_KEYS: readonly string[] = [...Object.keys(defaultLimits), 'deadlineMs'];

/** node's longest timer (2^31 - 1 ms): a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Merges overrides onto a base, rejecting zero, negative and non-finite values and unknown keys
 * (`keys` lists the ones allowed here; default: every app limit) with a `WiringError`.
 */
export function mergeLimits(
  where: string,
  base: Limits,
  over: LimitsOptions | MountLimits | undefined,
  keys: readonly string[] = APP_LIMIT_KEYS,
): Limits {
  if (over === undefined) return base;
  if (typeof over !== 'object' || over === null || Array.isArray(over))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `limits must be an object of limit overrides, got ${describeValue(over)}`,
      'e.g. limits: { maxBodyBytes: 1048576 }',
    );
  const out: Record<string, unknown> = { ...base, multipart: { ...base.multipart } };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    if (!keys.includes(key))
      throw wiringError(
        'API_WIRING_UNKNOWN_OPTION',
        where,
        `unknown limit "${key}"`,
        `use only ${keys.join(', ')}`,
      );
    if (key === 'multipart') {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw wiringError(
          'API_WIRING_LIMIT',
          where,
          `limit "multipart" must be an object of multipart limits, got ${describeValue(value)}`,
          'e.g. multipart: { maxFileSize: 10485760 }',
        );
      for (const [mk, mv] of Object.entries(value as object)) {
        if (mv === undefined) continue;
        if (!(mk in base.multipart))
          throw wiringError(
            'API_WIRING_UNKNOWN_OPTION',
            where,
            `unknown limit "multipart.${mk}"`,
            `use only ${Object.keys(base.multipart).join(', ')}`,
          );
        (out.multipart as Record<string, number>)[mk] = positive(where, `multipart.${mk}`, mv);
      }
    } else if (key === 'deadlineMs') out[key] = deadline(where, value);
    else out[key] = positive(where, key, value);
  }
  return out as unknown as Limits;
}
