import { RequestHeaderFieldsTooLargeError, URITooLongError, type BaseHTTPError } from '../errors';

// What both transports share: the limits of a request's size checked before routing (node:http's
// parser and a fetch runtime's server leave them to the app), and the answer of an app that failed
// to start. node:http's own checks (Host, transfer-encoding) are in node/handle.ts.

/** The longest request target served (longer: 414), on both transports. */
export const MAX_TARGET = 8 * 1024;

/** The body of the 503 an app that failed to start answers with, on both transports. */
export const NOT_STARTED_BODY = '{"type":"service-unavailable","title":"Service unavailable","status":503}';

/**
 * The checks of a request's size every transport makes: header count (431), target length (414).
 *
 * @param rawHeaders - The request's raw headers (name, value, name, value, …).
 * @param targetLength - The length of the request target.
 * @param maxHeaders - `limits.maxHeaders`.
 */
export function refuseSize(
  rawHeaders: readonly string[],
  targetLength: number,
  maxHeaders: number,
): BaseHTTPError | undefined {
  if (rawHeaders.length > maxHeaders * 2) return new RequestHeaderFieldsTooLargeError();
  if (targetLength > MAX_TARGET) return new URITooLongError();
  return undefined;
}
