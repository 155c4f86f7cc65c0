// One response, one framing: the headers that say where a message ends (or what the connection
// does next) are computed by core for every answer. App code, hooks and extensions never set them.

/** The framing headers (lower case). */
export const FRAMING_HEADERS: readonly string[] = [
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'trailer',
];
const FRAMING: ReadonlySet<string> = new Set(FRAMING_HEADERS);

/**
 * Whether `name` is a framing header core owns at `status`. `upgrade` is allowed on a 426 only,
 * where RFC 9110 §15.5.22 requires it (a WebSocket route's "use the upgrade" answer).
 *
 * @param name - A header name, any case.
 * @param status - The status of the answer it would go on (undefined: any status, e.g. a constant).
 * @example
 * isFramingHeader('Content-Length', 200); // true
 * isFramingHeader('upgrade', 426); // false
 */
export function isFramingHeader(name: string, status: number | undefined): boolean {
  // The six names have four lengths: most names are rejected without lowercasing.
  const length = name.length;
  if (length !== 7 && length !== 10 && length !== 14 && length !== 17) return false;
  const lower = name.toLowerCase();
  if (!FRAMING.has(lower)) return false;
  return !(lower === 'upgrade' && status === 426);
}

/**
 * The run-time refusal of a framing header: a `TypeError` the exception funnel renders as a logged
 * 500 (nothing of a framing the framework did not compute reaches the wire).
 *
 * @param name - The header name, as given.
 * @param source - Where it came from, e.g. `rawHeaders` or `a response-header hook`.
 */
export function framingError(name: string, source: string): TypeError {
  return new TypeError(
    `${source} sets "${name.toLowerCase()}", a framing header (${FRAMING_HEADERS.join(', ')}): ` +
      'the framework computes these for every response. Fix: remove it.',
  );
}

/**
 * Throws `framingError` for the first framing header in a flat header list.
 *
 * @param headers - name, value, name, value…
 * @param status - The answer's status.
 * @param source - Where the list came from, for the message.
 */
export function assertNoFraming(headers: readonly string[], status: number, source: string): void {
  for (let i = 0; i < headers.length; i += 2)
    if (isFramingHeader(headers[i]!, status)) throw framingError(headers[i]!, source);
}

/** Removes content-type / content-length / transfer-encoding pairs (a 204 or 304 has no body). */
export function dropBodyFraming(headers: string[]): void {
  for (let i = headers.length - 2; i >= 0; i -= 2) {
    const name = headers[i]!.toLowerCase();
    if (name === 'content-type' || name === 'content-length' || name === 'transfer-encoding')
      headers.splice(i, 2);
  }
}
