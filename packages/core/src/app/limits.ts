import { defaultMultipartLimits, type MultipartLimits } from '../multipart';

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
  /** Multipart limits: 10 MiB per file, 100 fields, 1000 parts, 20 MiB in all. */
  readonly multipart: MultipartLimits;
}

/** Limits a mount may override for its routes. */
export type MountLimits = Partial<Pick<Limits, 'maxBodyBytes' | 'maxJsonDepth'>> & {
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
  multipart: defaultMultipartLimits,
});

function positive(where: string, name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new TypeError(
      `${where}: limit "${name}" must be a positive number (got ${value}); limits are never 0 or unlimited`,
    );
  return value;
}

/** Merges overrides onto a base, rejecting zero, negative and non-finite values. */
export function mergeLimits(
  where: string,
  base: Limits,
  over: LimitsOptions | MountLimits | undefined,
): Limits {
  if (!over) return base;
  const out: Record<string, unknown> = { ...base, multipart: { ...base.multipart } };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    if (key === 'multipart') {
      for (const [mk, mv] of Object.entries(value as object)) {
        if (mv !== undefined)
          (out.multipart as Record<string, number>)[mk] = positive(where, `multipart.${mk}`, mv as number);
      }
    } else if (!(key in base)) {
      throw new TypeError(`${where}: unknown limit "${key}"`);
    } else out[key] = positive(where, key, value as number);
  }
  return out as unknown as Limits;
}
