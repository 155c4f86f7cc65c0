import { randomUUID } from 'node:crypto';

/** The longest `x-request-id` taken from a caller. */
export const MAX_REQUEST_ID_LENGTH = 128;

// Characters safe in a header, a log line and a URL: no spaces, quotes, commas (a repeated header
// arrives joined with ", "), semicolons or control characters.
const WELL_FORMED = /^[A-Za-z0-9\-_.:+/=@~]+$/;

/**
 * The request's id: the caller's `x-request-id` when it is well-formed (1–128 safe characters),
 * else a fresh UUID. An over-long or malformed id is replaced, never echoed or logged.
 *
 * @param sent - the `x-request-id` header as node:http parsed it
 */
export function requestIdOf(sent: string | string[] | undefined): string {
  return typeof sent === 'string' &&
    sent.length > 0 &&
    sent.length <= MAX_REQUEST_ID_LENGTH &&
    WELL_FORMED.test(sent)
    ? sent
    : randomUUID();
}
