import type { IncomingMessage } from 'node:http';
import {
  MalformedRequestError,
  RequestHeaderFieldsTooLargeError,
  URITooLongError,
  type BaseHTTPError,
} from '../errors';

// Wire checks on a request, before routing, shared by both transports (node:http's parser and a
// fetch runtime's server leave these to the app), and the answer of an app that failed to start.

/** The longest request target served (longer: 414), on both transports. */
export const MAX_TARGET = 8 * 1024;

/** The body of the 503 an app that failed to start answers with, on both transports. */
export const NOT_STARTED_BODY = '{"type":"service-unavailable","title":"Service unavailable","status":503}';

export const BAD_TARGET = 'The request target is not a valid absolute URI (userinfo or an empty host)';

export function badRequest(reason: string): MalformedRequestError {
  return new MalformedRequestError({ reason, issues: [{ path: 'request', message: reason }] });
}

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

/**
 * Wire checks node:http leaves to the app, before routing: the size checks (431, 414), exactly
 * one Host on HTTP/1.1 (400), and a transfer-encoding that is exactly `chunked` (400).
 */
export function refuseNodeRequest(
  req: IncomingMessage,
  url: string,
  maxHeaders: number,
): BaseHTTPError | undefined {
  const raw = req.rawHeaders;
  const size = refuseSize(raw, url.length, maxHeaders);
  if (size !== undefined) return size;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // Exact spellings first: lowercasing every 4-letter name costs more than the comparisons.
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) hosts++;
  }
  if (hosts > 1) return badRequest('The request has more than one Host header');
  if (hosts === 0 && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1)
    return badRequest('The request has no Host header (required by HTTP/1.1)');
  const te = req.headers['transfer-encoding'];
  if (te !== undefined && te.toLowerCase() !== 'chunked')
    return badRequest('transfer-encoding must be exactly "chunked"');
  return undefined;
}
