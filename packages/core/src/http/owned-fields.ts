// Response fields besides framing that core governs: the ones a response describes itself (a hook
// never sets them), and the ones a response carries at most once (RFC 9110 singletons). Framing
// (content-length, transfer-encoding, …) is framing.ts.
import { framingError, isFramingHeader } from './framing';

/**
 * Fields the response itself describes (lower case): its body's media type, coding and range
 * (RFC 9110 §8.3, §8.4, §14.4), the representation it names (§8.7), its validators (§8.8) and the
 * target of a redirect or creation (§10.2.2). The response's declaration or value sets them; a
 * header hook runs for every answer of a route (errors and 404s too) and knows none of them, so it
 * may not set them: it would double or contradict what the response sends.
 */
export const OWNED_HEADERS: readonly string[] = [
  'content-type',
  'content-encoding',
  'content-range',
  'content-location',
  'location',
  'etag',
  'last-modified',
];
const OWNED: ReadonlySet<string> = new Set(OWNED_HEADERS);

/**
 * Fields an answer carries at most once (lower case): RFC 9110 / 9111 fields whose grammar is one
 * value, not a list (`content-type`, `location`, `etag`, `last-modified`, `date`, `server`,
 * `retry-after`, `age`, `expires`, …), `content-disposition` (RFC 6266), `strict-transport-security`
 * (RFC 6797) and the single-value CORS fields (Fetch). Two lines of one of them are read as one
 * comma-joined value (`application/json, text/plain`), which means nothing. List fields
 * (`set-cookie`, `vary`, `link`, `cache-control`, `www-authenticate`, …) may repeat.
 */
export const SINGLETON_HEADERS: readonly string[] = [
  'content-type',
  'content-range',
  'content-location',
  'content-disposition',
  'location',
  'etag',
  'last-modified',
  'date',
  'server',
  'retry-after',
  'age',
  'expires',
  'strict-transport-security',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-max-age',
];
const SINGLETON: ReadonlySet<string> = new Set(SINGLETON_HEADERS);
// Lengths the two lists use: most names are rejected on their length, without lowercasing.
const OWNED_LENGTHS: ReadonlySet<number> = new Set(OWNED_HEADERS.map((n) => n.length));
const SINGLETON_LENGTHS: ReadonlySet<number> = new Set(SINGLETON_HEADERS.map((n) => n.length));
const EITHER_LENGTHS: ReadonlySet<number> = new Set([...OWNED_LENGTHS, ...SINGLETON_LENGTHS]);

/**
 * Whether `name` is a field the response owns (`OWNED_HEADERS`): a header hook may not set it.
 *
 * @param name - A header name, any case.
 * @example
 * isOwnedHeader('Content-Type'); // true
 * isOwnedHeader('x-trace-id'); // false
 */
export function isOwnedHeader(name: string): boolean {
  return OWNED_LENGTHS.has(name.length) && OWNED.has(name.toLowerCase());
}

/**
 * Whether `name` is a field an answer carries at most once (`SINGLETON_HEADERS`).
 *
 * @param name - A header name, any case.
 * @example
 * isSingletonHeader('ETag'); // true
 * isSingletonHeader('vary'); // false (a list field)
 */
export function isSingletonHeader(name: string): boolean {
  return SINGLETON_LENGTHS.has(name.length) && SINGLETON.has(name.toLowerCase());
}

/**
 * Whether a flat header list (name, value, name, value…) already holds `lower` (a lower-case name),
 * whatever case it was written in.
 *
 * @param list - name, value, name, value…
 * @param lower - The field name, lower case.
 */
export function holds(list: readonly string[], lower: string): boolean {
  for (let i = 0; i < list.length; i += 2) {
    const name = list[i]!;
    if (name === lower || (name.length === lower.length && name.toLowerCase() === lower)) return true;
  }
  return false;
}

/**
 * The run-time refusal of an owned field set by a header hook: a `TypeError` that fails the answer
 * closed (a logged 500), as a framing header does.
 *
 * @param name - The header name, as given.
 * @param source - Where it came from, e.g. `a response-header hook`.
 */
export function ownedHeaderError(name: string, source: string): TypeError {
  const lower = name.toLowerCase();
  return new TypeError(
    `${source} sets "${lower}", a field the response itself sends (${OWNED_HEADERS.join(', ')}). ` +
      `Fix: ${ownedHeaderFix(lower)}.`,
  );
}

/**
 * What to do instead of setting an owned field from a hook, for a `WiringError`'s fix.
 *
 * @param lower - The field name, lower case.
 */
export function ownedHeaderFix(lower: string): string {
  if (lower === 'content-type')
    return "remove it; the content type is the response declaration's (e.g. Text, BytesResponse.of({ contentType }))";
  if (lower === 'location') return 'remove it; give the response a location (Location.fromPath(…))';
  return 'remove it; set it on the response that describes the body (its headers or rawHeaders)';
}

/**
 * Appends `name: value` to a response's own header list, refusing a second line of a singleton
 * field (a `TypeError`: the answer fails closed as a logged 500 instead of carrying two values).
 *
 * @param out - The header list being built (name, value, …).
 * @param name - The header name, as given.
 * @param value - Its value (already checked).
 * @param source - Where it came from, for the message, e.g. `the response's rawHeaders`.
 */
export function pushOnce(out: string[], name: string, value: string, source: string): void {
  if (isSingletonHeader(name)) assertAbsent(out, name.toLowerCase(), source);
  out.push(name, value);
}

/**
 * Throws when `out` already holds the singleton field `lower` (see `pushOnce`).
 *
 * @param out - The header list being built.
 * @param lower - The field name, lower case.
 * @param source - What is adding it, for the message.
 */
export function assertAbsent(out: readonly string[], lower: string, source: string): void {
  if (holds(out, lower)) throw repeatedError(lower, source);
}

/** A second line of the singleton field `lower`. */
function repeatedError(lower: string, source: string): TypeError {
  const fix = lower === 'content-type' ? ownedHeaderFix(lower) : 'set it in one place only';
  return new TypeError(
    `${source} adds "${lower}", which the answer already carries; it is sent once ` +
      `(two lines are read as one comma-joined value). Fix: ${fix}.`,
  );
}

/**
 * Checks the pairs a header hook computed for one answer, before any of them is added: a framing
 * header, an owned field (`OWNED_HEADERS`), or a singleton field the head already holds (or the
 * hook gives twice) throws a `TypeError`, so the answer fails closed as for a framing header. A
 * name in neither list costs one length lookup.
 *
 * @param pairs - The hook's `[name, value]` pairs.
 * @param status - The answer's status (`upgrade` is allowed on a 426).
 * @param head - The answer's header list so far (name, value, …).
 * @param source - The hook, for the message, e.g. `a response-header hook`.
 */
export function assertHookPairs(
  pairs: ReadonlyArray<readonly [string, string]>,
  status: number,
  head: readonly string[],
  source: string,
): void {
  for (let i = 0; i < pairs.length; i++) {
    const name = pairs[i]![0];
    if (isFramingHeader(name, status)) throw framingError(name, source);
    if (!EITHER_LENGTHS.has(name.length)) continue;
    const lower = name.toLowerCase();
    if (OWNED.has(lower)) throw ownedHeaderError(name, source);
    if (!SINGLETON.has(lower)) continue;
    assertAbsent(head, lower, source);
    for (let j = 0; j < i; j++) if (pairs[j]![0].toLowerCase() === lower) throw repeatedError(lower, source);
  }
}

/**
 * Appends a route's constant hook headers (name, value, …; lower-case names) to an answer's head,
 * except those among `once` (the constant names that are fields sent once) the head already holds:
 * the answer's own line stays, and the clash is returned as a `TypeError` (undefined: none).
 *
 * @param head - The answer's header list so far.
 * @param constant - The route's constant headers.
 * @param once - Their names that are singleton fields (decided at wiring).
 */
export function pushConstantsOnce(
  head: string[],
  constant: readonly string[],
  once: readonly string[],
): TypeError | undefined {
  let held: string[] | undefined;
  for (const name of once) if (holds(head, name)) (held ??= []).push(name);
  if (held === undefined) {
    for (let i = 0; i < constant.length; i++) head.push(constant[i]!);
    return undefined;
  }
  for (let i = 0; i < constant.length; i += 2)
    if (!held.includes(constant[i]!)) head.push(constant[i]!, constant[i + 1]!);
  return new TypeError(
    `a constant response header hook adds "${held[0]}", which the answer already carries ` +
      "(its rawHeaders, or an error's withHeaders); it is sent once. Fix: set it in one place only.",
  );
}
