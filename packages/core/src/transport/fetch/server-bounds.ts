/**
 * What the runtime's own HTTP server already refuses before `app.fetch` sees a request, decided
 * once when this module loads (the one per-runtime seam of the fetch transport).
 *
 * The header count (the 431 of `limits.maxHeaders`): counting a `Request`'s headers means building
 * them (Bun makes a `Headers` object for `request.headers`, ~5% of a `GET`; Deno copies the whole
 * list), for a check that cannot fail when the server's own cap is at or below the limit:
 * - Bun (1.4, `Bun.serve` and its `node:http`): a head of more than 198 lines is refused by Bun
 *   itself (`431`, empty body);
 * - Deno (2.x, `Deno.serve`): more than 128 lines is refused by Deno itself (`400`, empty body).
 * With `maxHeaders` at or above that cap (the default 200 is, on both), the count is skipped; below
 * it, every request is counted as everywhere else. Node and workerd: always counted.
 *
 * The one difference: a `Request` built in the process (not received by the server) with more
 * lines than `maxHeaders` is not refused on Bun or Deno when `maxHeaders` is at or above the cap.
 * The runtimes suite pins each server's cap (a runtime upgrade that raises it fails there first).
 */

/** Header lines Bun's server lets through (it answers 431 itself to more). */
export const BUN_HEADER_CAP = 198;
/** Header lines Deno's server lets through (it answers 400 itself to more). */
export const DENO_HEADER_CAP = 128;

/**
 * The most header lines the running runtime's server passes to `fetch`, or `Infinity` when it is
 * not known to bound them (Node, workerd).
 *
 * @param versions - `process.versions` (which runtime this is)
 */
export function serverHeaderCap(versions: Readonly<Record<string, string | undefined>>): number {
  if (versions.bun !== undefined) return BUN_HEADER_CAP;
  if (versions.deno !== undefined) return DENO_HEADER_CAP;
  return Infinity;
}

/** The cap of the runtime this process runs on. */
export const SERVER_HEADER_CAP = serverHeaderCap(typeof process === 'undefined' ? {} : process.versions);
