import { describeValue, wiringError } from '../contract/wiring-error';
import { isFramingHeader } from '../http/framing';
import type { kHTTPError } from '../contract/symbols';

/** A rendered error body, ready for the wire. */
export interface RenderedError {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** The Problem view an `ErrorBodyAdapter` composes from. */
export interface ProblemView {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  /** The title, or the rendered detail for parameterized errors. */
  toString(): string;
}

/** An adapter prepared at wiring: renders a Problem-family error as the app's own body. */
export interface CompiledAdapter {
  render(error: ProblemView): RenderedError | undefined;
}

/**
 * An `Error` whose construction skips stack capture: HTTP errors are answers, not bugs, and
 * capturing a stack costs more than the rest of a 404 (they are never logged as failures).
 */
const StacklessError = function StacklessError(this: unknown, message?: string): Error {
  // An object on Error's prototype chain (instanceof Error holds, `message`/`name` work), built
  // without the engine's stack capture.
  const error = Object.create((new.target ?? StacklessError).prototype as object) as Error;
  if (message !== undefined)
    Object.defineProperty(error, 'message', { value: message, writable: true, configurable: true });
  return error;
} as unknown as new (message?: string) => Error;
StacklessError.prototype = Object.create(Error.prototype, {
  constructor: { value: StacklessError, writable: true, configurable: true },
}) as Error;

/**
 * The abstract root of every framework error. Every concrete error declares its status.
 * Never subclass the root directly: use `HTTPError.define`, `DataclassHTTPError.define` or
 * `StructHTTPError.define`.
 */
export abstract class BaseHTTPError extends StacklessError {
  /** The HTTP status; declared once on the class. */
  static readonly status: number = 500;

  get status(): number {
    return (this.constructor as typeof BaseHTTPError).status;
  }

  /** Renders this occurrence's wire body (the adapter applies to the Problem family only). */
  abstract render(adapter?: CompiledAdapter): RenderedError;

  /** Brand (type only): what `ErrorClass` recognises. */
  declare readonly [kHTTPError]: true;

  /** Response headers this occurrence carries (set with `withHeaders`). */
  declare readonly responseHeaders: ReadonlyArray<readonly [string, string]> | undefined;

  /**
   * Adds response headers to this occurrence's answer (a `retry-after` on a 503 or 429). Values
   * with CR, LF or NUL, framing headers and `content-type` (the rendered body's) are refused here.
   *
   * @example
   * throw new TooManyRequestsError().withHeaders({ 'retry-after': '30' });
   */
  withHeaders(headers: Readonly<Record<string, string>>): this {
    const pairs: [string, string][] = [];
    if (typeof headers !== 'object' || headers === null)
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        `${this.constructor.name}.withHeaders`,
        `expected an object of header name → value, got ${describeValue(headers)}`,
        "e.g. withHeaders({ 'retry-after': '30' })",
      );
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value !== 'string' || /[\r\n\0]/.test(value) || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name))
        throw wiringError(
          'API_WIRING_INVALID_HEADER',
          `${this.constructor.name}.withHeaders`,
          `header "${name}" cannot be sent`,
          'a token name and a string value without CR, LF or NUL',
        );
      if (isFramingHeader(name, this.status))
        throw wiringError(
          'API_WIRING_FRAMING_HEADER',
          `${this.constructor.name}.withHeaders`,
          `"${name.toLowerCase()}" is a framing header the framework computes for every response`,
          'remove it',
        );
      // The error answer's body is its rendering: its media type is the renderer's, sent once.
      if (name.toLowerCase() === 'content-type')
        throw wiringError(
          'API_WIRING_OWNED_HEADER',
          `${this.constructor.name}.withHeaders`,
          '"content-type" is a field the error answer sends itself (the media type of its rendered body)',
          'remove it; an error adapter decides how errors render',
        );
      pairs.push([name.toLowerCase(), value]);
    }
    (this as { responseHeaders: ReadonlyArray<readonly [string, string]> }).responseHeaders = pairs;
    return this;
  }
}

/** The option keys of `HTTPError.define`. */
export const HTTP_ERROR_KEYS: readonly string[] = ['type', 'title', 'status', 'docs'];

/**
 * Checks the class options of a Problem error at definition: an object with a non-empty `type` and
 * `title`, an error `status`, an optional string `docs`, and no unknown key (a typo would silently
 * drop what it meant to set). Every mistake is a `WiringError` naming `factory` and the fix.
 */
export function checkErrorOptions(factory: string, options: unknown, keys: readonly string[]): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      factory,
      `expected an options object, got ${describeValue(options)}`,
      `pass { ${keys.join(', ')} }`,
    );
  const o = options as Record<string, unknown>;
  const where = `${factory}({ type: ${typeof o.type === 'string' ? `'${o.type}'` : '?'} })`;
  for (const key of Object.keys(o))
    if (!keys.includes(key))
      throw wiringError(
        'API_WIRING_UNKNOWN_OPTION',
        where,
        `unknown option "${key}"`,
        `use only ${keys.join(', ')}`,
      );
  for (const key of ['type', 'title'])
    if (typeof o[key] !== 'string' || o[key] === '')
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `"${key}" must be a non-empty string, got ${describeValue(o[key])}`,
        `e.g. ${key === 'type' ? "type: 'widget-not-found'" : "title: 'Widget not found'"}`,
      );
  if (o.docs !== undefined && typeof o.docs !== 'string')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `"docs" must be a URL string, got ${describeValue(o.docs)}`,
      "docs: 'https://docs.example/errors/…', or leave it out",
    );
  checkStatus(where, o.status as number);
}

/** Fails wiring unless `status` is an error status (400–599). */
export function checkStatus(where: string, status: number): void {
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    throw wiringError(
      'API_WIRING_STATUS',
      where,
      `status ${typeof status === 'number' ? status : describeValue(status)} is not an error status`,
      'use an integer from 400 to 599',
    );
  }
}
