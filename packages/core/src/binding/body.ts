import type { IncomingHttpHeaders } from 'node:http';
import type { ExchangeRequest } from '../contract/exchange';
import { MalformedRequestError, PayloadTooLargeError } from '../errors';
import { Later } from '../contract/later';

function malformed(reason: string): MalformedRequestError {
  return new MalformedRequestError({ reason, issues: [{ path: '$', message: reason }] });
}

/** The 413 for a JSON or raw body over `maxBodyBytes`. */
export function bodyTooLarge(bytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError({ limit: 'maxBodyBytes', bytes });
}

/** True when the request declares a body over `limit` bytes (refused 413 before a byte is read). */
export function declaresTooMuch(req: ExchangeRequest, limit: number): boolean {
  const declared = req.headers['content-length'];
  return declared !== undefined && Number(declared) > limit;
}

/**
 * Reads a request body into one Buffer, refusing more than `limit` bytes (413) as soon as the
 * stream crosses it (`declaresTooMuch` refuses by `content-length` before reading anything).
 * The time limit is node:http's `requestTimeout` (set by `serve()`), answered with a 408 Problem.
 *
 * One object per read: the `Later` itself, its state as fields and three listeners; one chunk (the
 * usual small body) is kept without an array.
 */
export class BodyRead extends Later<Buffer> {
  readonly #req: ExchangeRequest;
  readonly #limit: number;
  #first: Buffer | undefined = undefined;
  #rest: Buffer[] | undefined = undefined;
  #size = 0;
  #done = false;

  // Three listeners, never removed on success: the request object is dropped with its response,
  // and a late 'close' finds the read done. Node emits 'error' on a reset only to error listeners,
  // and 'close' always follows it, so 'close' alone tells a disconnect mid-body.
  readonly #onData = (chunk: Buffer): void => {
    const size = (this.#size += chunk.length);
    if (size > this.#limit) this.#finish(bodyTooLarge(this.#limit));
    else if (this.#first === undefined) this.#first = chunk;
    else (this.#rest ??= [this.#first]).push(chunk);
  };
  readonly #onEnd = (): void => this.#finish(undefined);
  // The error is built only for a read still going: 'close' follows every request.
  readonly #onClose = (): void => {
    if (!this.#done) this.#finish(malformed('The connection closed before the request body was read'));
  };

  constructor(req: ExchangeRequest, limit: number) {
    super();
    this.#req = req;
    this.#limit = limit;
    req.on('data', this.#onData);
    req.on('end', this.#onEnd);
    req.on('close', this.#onClose);
  }

  /** Called once when the read ends, well or not, before its waiters run. */
  protected finished(): void {}

  #finish(error: Error | undefined): void {
    if (this.#done) return;
    this.#done = true;
    this.finished();
    if (error) {
      // Stop buffering; Node discards the rest of the body once the response is sent.
      this.#req.off('data', this.#onData);
      this.#req.resume();
      this.fail(error);
      return;
    }
    const rest = this.#rest;
    this.resolve(rest !== undefined ? Buffer.concat(rest, this.#size) : (this.#first ?? EMPTY));
  }
}

const EMPTY = Buffer.alloc(0);

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
