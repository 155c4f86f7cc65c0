import type { IncomingMessage } from 'node:http';
import {
  MalformedRequestError,
  RequestHeaderFieldsTooLargeError,
  URITooLongError,
  type BaseHTTPError,
} from '../errors';

// Wire checks on a node:http request, before routing (the fetch transport's server makes its own).

/** The longest request target served (longer: 414). */
const MAX_TARGET = 8 * 1024;

export const BAD_TARGET = 'The request target is not a valid absolute URI (userinfo or an empty host)';

export function badRequest(reason: string): MalformedRequestError {
  return new MalformedRequestError({ reason, issues: [{ path: 'request', message: reason }] });
}

/**
 * Wire checks node:http leaves to the app, before routing: header count (431), target length (414),
 * exactly one Host on HTTP/1.1 (400), and a transfer-encoding that is exactly `chunked` (400).
 */
export function refuseRequest(
  req: IncomingMessage,
  url: string,
  maxHeaders: number,
): BaseHTTPError | undefined {
  const raw = req.rawHeaders;
  if (raw.length > maxHeaders * 2) return new RequestHeaderFieldsTooLargeError();
  if (url.length > MAX_TARGET) return new URITooLongError();
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
