import { WiringError } from './wiring-error';

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
}

/** Fails wiring unless `status` is an error status (400–599). */
export function checkStatus(where: string, status: number): void {
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    throw new WiringError(
      `${where}: status ${status} is not an error status. Fix: use an integer from 400 to 599.`,
    );
  }
}
