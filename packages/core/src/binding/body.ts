import type { IncomingHttpHeaders } from 'node:http';
import type { ExchangeRequest } from '../runtime/exchange-api';
import { MalformedRequestError, PayloadTooLargeError } from '../errors';
import { Later } from './later';

function malformed(reason: string): MalformedRequestError {
  return new MalformedRequestError({ reason, issues: [{ path: '$', message: reason }] });
}

/**
 * Reads a request body into one Buffer, refusing more than `limit` bytes (413) — from the
 * declared `content-length` before reading anything, or as soon as the stream crosses it.
 * The time limit is node:http's `requestTimeout` (set by `serve()`), answered with a 408 Problem.
 */
export function readBody(req: ExchangeRequest, limit: number, settled?: () => void): Later<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Later.failed(new PayloadTooLargeError());
  const later = new Later<Buffer>();
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  // Three listeners, never removed on success: the request object is dropped with its response,
  // and a late 'close' finds `done` set. Node emits 'error' on a reset only to error listeners,
  // and 'close' always follows it, so 'close' alone tells a disconnect mid-body.
  const finish = (error: Error | undefined): void => {
    if (done) return;
    done = true;
    settled?.();
    if (error) {
      // Stop buffering; Node discards the rest of the body once the response is sent.
      req.off('data', onData);
      req.resume();
      later.fail(error);
    } else later.resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
  };
  const onData = (chunk: Buffer): void => {
    size += chunk.length;
    if (size > limit) finish(new PayloadTooLargeError());
    else chunks.push(chunk);
  };
  req.on('data', onData);
  req.on('end', () => finish(undefined));
  req.on('close', () => finish(malformed('The connection closed before the request body was read')));
  return later;
}

/**
 * Checks JSON text for nesting deeper than `maxDepth` in one linear pass, without recursion,
 * before `JSON.parse` (whose own recursion a hostile body could exhaust).
 */
export function jsonDepthExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped char
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > maxDepth) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** Finds a `__proto__` key or a `constructor.prototype` path anywhere in a parsed value (iteratively). */
export function hasPrototypeKeys(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') continue;
    if (Array.isArray(item)) {
      for (const child of item) stack.push(child);
      continue;
    }
    const obj = item as Record<string, unknown>;
    if (Object.hasOwn(obj, '__proto__')) return true;
    const ctor = Object.hasOwn(obj, 'constructor') ? obj.constructor : undefined;
    if (ctor !== null && typeof ctor === 'object' && Object.hasOwn(ctor, 'prototype')) return true;
    for (const key in obj) stack.push(obj[key]);
  }
  return false;
}

/** Parses a JSON body with the safety checks: depth, prototype keys, syntax (each a 400). */
export function parseJsonBody(body: Buffer, maxDepth: number): unknown {
  const text = body.toString('utf8');
  // Valid JSON nested deeper than maxDepth needs at least 2 × (maxDepth + 1) characters.
  if (text.length >= 2 * (maxDepth + 1) && jsonDepthExceeds(text, maxDepth))
    throw malformed(`JSON nesting is deeper than ${maxDepth} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (text.trim().length === 0) throw malformed('The request body is empty; expected JSON');
    throw malformed('The request body is not valid JSON');
  }
  // One scan finds both "__proto__" and "prototype" (or an escape that could spell them, like
  // "__\u0070roto__"); the exact walk over the parsed, unescaped keys runs only then.
  if ((text.includes('proto') || text.includes('\\u')) && hasPrototypeKeys(value)) {
    throw malformed('JSON keys "__proto__" and "constructor.prototype" are not accepted');
  }
  return value;
}

/**
 * True when a request body arrives as sent: no `content-encoding` (we never inflate request bodies),
 * and a `charset` parameter, if any, of utf-8 or us-ascii.
 */
export function isPlainUtf8Body(headers: IncomingHttpHeaders): boolean {
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return false;
  const type = headers['content-type'];
  if (type === undefined) return true;
  const at = type.toLowerCase().indexOf('charset=');
  if (at < 0) return true;
  let charset = type
    .slice(at + 8)
    .split(';', 1)[0]!
    .trim()
    .toLowerCase();
  if (charset.startsWith('"') && charset.endsWith('"')) charset = charset.slice(1, -1);
  return charset === 'utf-8' || charset === 'utf8' || charset === 'us-ascii';
}

/** True for `application/json` and any `application/*+json` (parameters ignored). */
export function isJsonMediaType(contentType: string): boolean {
  const semi = contentType.indexOf(';');
  const type = (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}
