import { randomUUID } from 'node:crypto';

/** The longest `x-request-id` taken from a caller. */
export const MAX_REQUEST_ID_LENGTH = 128;

// Characters safe in a header, a log line and a URL: no spaces, quotes, commas (a repeated header
// arrives joined with ", "), semicolons or control characters.
const WELL_FORMED = /^[A-Za-z0-9\-_.:+/=@~]+$/;

/**
 * The request's id: the caller's `x-request-id` when it is well-formed (1–128 safe characters)
 * and sent once, else a fresh UUID. An over-long or malformed id is replaced, never echoed or
 * logged.
 *
 * @param rawHeaders - the request's header lines as sent (name, value, …): read directly, so
 *   node:http need not build `req.headers` for a route that reads no other header
 */
export function requestIdOf(rawHeaders: readonly string[]): string {
  let sent: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length !== 12 || name.toLowerCase() !== 'x-request-id') continue;
    if (sent !== undefined) return randomUUID(); // two ids: neither is the request's
    sent = rawHeaders[i + 1]!;
  }
  return sent !== undefined &&
    sent.length > 0 &&
    sent.length <= MAX_REQUEST_ID_LENGTH &&
    WELL_FORMED.test(sent)
    ? sent
    : randomUUID();
}
