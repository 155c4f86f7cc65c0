import type { IncomingMessage } from 'node:http';
import { MalformedRequestError, PayloadTooLargeError } from '../errors';

function malformed(reason: string): MalformedRequestError {
  return new MalformedRequestError({ reason, issues: [{ path: '$', message: reason }] });
}

/**
 * Reads a request body into one Buffer, refusing more than `limit` bytes (413) — from the
 * declared `content-length` before reading anything, or as soon as the stream crosses it.
 * The time limit is node:http's `requestTimeout` (set by `serve()`), answered with a 408 Problem.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(new PayloadTooLargeError());
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error: Error | undefined): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      if (error) {
        // Stop buffering; Node discards the rest of the body once the response is sent.
        req.resume();
        reject(error);
      } else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish(new PayloadTooLargeError());
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish(undefined);
    // A client that disconnects mid-body surfaces as 'error' (ECONNRESET / aborted).
    const onError = (): void => finish(malformed('The request body could not be read'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
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
  if (text.trim().length === 0) throw malformed('The request body is empty; expected JSON');
  // Valid JSON nested deeper than maxDepth needs at least 2 × (maxDepth + 1) characters.
  if (text.length >= 2 * (maxDepth + 1) && jsonDepthExceeds(text, maxDepth))
    throw malformed(`JSON nesting is deeper than ${maxDepth} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw malformed('The request body is not valid JSON');
  }
  // One scan finds both "__proto__" and "prototype" (or an escape that could spell them, like
  // "__\u0070roto__"); the exact walk over the parsed, unescaped keys runs only then.
  if ((text.includes('proto') || text.includes('\\u')) && hasPrototypeKeys(value)) {
    throw malformed('JSON keys "__proto__" and "constructor.prototype" are not accepted');
  }
  return value;
}

/** True for `application/json` and any `application/*+json` (parameters ignored). */
export function isJsonMediaType(contentType: string): boolean {
  const semi = contentType.indexOf(';');
  const type = (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}
