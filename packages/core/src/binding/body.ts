import type { IncomingHttpHeaders } from 'node:http';
import type { ExchangeRequest } from '../contract/exchange';
import { MalformedRequestError, PayloadTooLargeError } from '../errors';

function malformed(reason: string): MalformedRequestError {
  return new MalformedRequestError({ reason, issues: [{ path: '$', message: reason }] });
}

/** The 413 for a JSON or raw body over `maxBodyBytes`. */
export function bodyTooLarge(bytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError({ limit: 'maxBodyBytes', bytes });
}

/** The 400 for a body whose client left (or whose stream broke) before its end. */
export function connectionClosedMidBody(): MalformedRequestError {
  return malformed('The connection closed before the request body was read');
}

/** True when the request declares a body over `limit` bytes (refused 413 before a byte is read). */
export function declaresTooMuch(req: ExchangeRequest, limit: number): boolean {
  const declared = req.headers['content-length'];
  return declared !== undefined && Number(declared) > limit;
}

/**
 * Who waits on a `Later` without a closure: an object whose `settled` is called (the runner's
 * state of one run, a mapped `Later`). One per request on a body route, where a closure and its
 * context per wait cost ~80 bytes each.
 */
export interface Waiter {
  settled(ok: boolean, value: unknown): void;
}

type Callback = (ok: boolean, value: unknown) => void;

/**
 * A value core's body binders deliver later, to a waiter. The runner resumes from that call in
 * the same tick as the body's last chunk, where a Promise would cost two allocations and a
 * microtask hop per request. Only core's own binders return one, and only to core's runner:
 * nothing outside core ever sees a `Later`.
 */
export class Later<T> {
  #state: 'pending' | 'ok' | 'failed' = 'pending';
  #value: unknown = undefined;
  #waiter: Waiter | Callback | undefined = undefined;
  #more: Array<Waiter | Callback> | undefined = undefined;

  /** A `Later` already failed with `error`. */
  static failed<T>(error: unknown): Later<T> {
    const later = new Later<T>();
    later.fail(error);
    return later;
  }

  resolve(value: T): void {
    this.#settle('ok', value);
  }

  fail(error: unknown): void {
    this.#settle('failed', error);
  }

  /** Calls `waiter` (or its `settled`) once settled: at once when it already is, else from the settling call. */
  onSettled(waiter: Waiter | Callback): void {
    if (this.#state !== 'pending') call(waiter, this.#state === 'ok', this.#value);
    else if (this.#waiter === undefined) this.#waiter = waiter;
    else (this.#more ??= []).push(waiter);
  }

  /**
   * A `Later` of `map(value, into)`; a throw from `map` fails it, and so does `into.fail(error)`
   * (`into` is the returned `Later`; `map`'s value is then ignored). Failing `into` is how core's
   * body binders refuse a body: a JavaScript `throw` makes V8 build a message with a captured
   * stack trace (Node asks for one on every throw, caught or not), ~10% of a 422's instructions.
   */
  map<U>(map: (value: T, into: Later<U>) => U): Later<U> {
    const next = new Mapped(map);
    this.onSettled(next);
    return next;
  }

  #settle(state: 'ok' | 'failed', value: unknown): void {
    if (this.#state !== 'pending') return;
    this.#state = state;
    this.#value = value;
    const waiter = this.#waiter;
    const more = this.#more;
    this.#waiter = undefined;
    this.#more = undefined;
    if (waiter !== undefined) call(waiter, state === 'ok', value);
    if (more !== undefined) for (const w of more) call(w, state === 'ok', value);
  }
}

function call(waiter: Waiter | Callback, ok: boolean, value: unknown): void {
  if (typeof waiter === 'function') waiter(ok, value);
  else waiter.settled(ok, value);
}

/** `later.map(fn)`: one object that is both the source's waiter and the mapped `Later`. */
class Mapped<T, U> extends Later<U> implements Waiter {
  readonly #map: (value: T, into: Later<U>) => U;

  constructor(map: (value: T, into: Later<U>) => U) {
    super();
    this.#map = map;
  }

  settled(ok: boolean, value: unknown): void {
    if (!ok) return this.fail(value);
    let mapped: U;
    try {
      mapped = this.#map(value as T, this);
    } catch (error) {
      return this.fail(error);
    }
    // A no-op when `map` failed `into` (a settled `Later` stays as it is).
    this.resolve(mapped);
  }
}

/** What an `Uploads` list holds: each item keeps its own place in it (-1 when not listed). */
export interface Upload {
  readingAt: number;
}

/**
 * The requests still reading their body (shutdown answers them 503 at its cap). A list whose
 * items keep their own place, so listing and unlisting allocate nothing and cost a few
 * instructions; a `Set` spent ~140 ns and ~140 bytes on each body request (a fresh object's
 * identity hash, then a rehash as the set shrank back).
 */
export class Uploads<T extends Upload = Upload> {
  readonly #items: T[] = [];

  get size(): number {
    return this.#items.length;
  }

  add(item: T): void {
    if (item.readingAt >= 0) return;
    item.readingAt = this.#items.length;
    this.#items.push(item);
  }

  /** Unlists `item` (its place goes to the last item). */
  delete(item: T): void {
    const items = this.#items;
    const at = item.readingAt;
    if (at < 0 || items[at] !== item) return;
    item.readingAt = -1;
    const last = items.pop()!;
    if (last === item) return;
    items[at] = last;
    last.readingAt = at;
  }

  /** Unlists every item and returns them (a copy: answering one may unlist others). */
  takeAll(): T[] {
    const all = this.#items.splice(0);
    for (const item of all) item.readingAt = -1;
    return all;
  }
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
    if (!this.#done) this.#finish(connectionClosedMidBody());
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
  return parseJsonText(body.toString('utf8'), maxDepth);
}

/** `parseJsonBody` of a body already decoded (`RequestBody.wholeText`). */
export function parseJsonText(text: string, maxDepth: number): unknown {
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
