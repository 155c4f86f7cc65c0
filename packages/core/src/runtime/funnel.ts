import { BaseHTTPError, InternalServerError, type CompiledAdapter, type RenderedError } from '../errors';
import type { Exchange, HeaderList } from '../contract/exchange';
import type { Logger } from '../logging/logger';
import type { ExceptionHandler } from '../responses/exception-handler';
import { assertHookPairs } from '../http/owned-fields';
import { ExceptionResponse } from '../responses/exception-handler';
import type { UrlResolver } from '../responses/location';
import type { WriterExchange } from '../responses/writers';
import { writeUndeclaredResponse } from '../responses/undeclared';
import type { Plan } from './plan';
import type { RoutePlan } from '../contract/route-plan';
import { ResponseShapeError } from '../schema/response-shape-error';

/** The exchange as the funnel sees it (`CoreExchange` is one): its plan, and the flags an error answer sets. */
export interface FunnelExchange extends WriterExchange {
  readonly plan: RoutePlan | undefined;
  /** The answer also closes the connection (408, 413, 431). */
  closeAfterAnswer(): void;
  /** Called here: from now on hooks that fail are logged and skipped (the error keeps its status). */
  beginErrorAnswer(): void;
}

/** What the funnel is built from, at wiring. */
export interface FunnelParts {
  readonly handlers: ReadonlyMap<object, ExceptionHandler>;
  /** Compiled writers of handlers that declared `ExceptionResponse.of(...)` (typed headers, compiled body). */
  readonly handlerWriters: ReadonlyMap<
    ExceptionHandler,
    (value: ExceptionResponse<unknown, unknown>, ex: Exchange) => void
  >;
  readonly adapter: CompiledAdapter | undefined;
  readonly resolver: UrlResolver;
  readonly log: Logger;
}

/** Statuses whose answer also closes the connection (the request may not have been read). */
const CLOSING = new Set([408, 413, 431]);

/**
 * The one exception funnel: custom handler (nearest class) → Problem / adapter body → 500.
 * Every step of every route kind ends here when it throws.
 */
export class ErrorFunnel {
  readonly #parts: FunnelParts;
  readonly #handlerCache = new Map<object, ExceptionHandler | null>();

  constructor(parts: FunnelParts) {
    this.#parts = parts;
  }

  fail(ex: FunnelExchange, error: unknown, extra?: HeaderList): void {
    ex.beginErrorAnswer();
    if (ex.res.headersSent) {
      // A complete response (e.g. a 503 at the shutdown cap) makes a later failure moot.
      if (ex.res.writableEnded) return;
      ex.log.error(`${ex.method} ${ex.path} failed after the response started`, error);
      ex.res.destroy();
      return;
    }
    const handler = error instanceof Error ? this.#handlerFor(error) : undefined;
    if (handler === undefined) {
      this.#renderDefault(ex, error, extra);
      return;
    }
    let result: unknown;
    try {
      result = handler.handleException(error as Error);
    } catch (failure) {
      this.#handlerFailed(ex, error, failure);
      return;
    }
    if (result instanceof Promise) {
      result.then(
        (value: unknown) => this.#afterHandler(ex, error, value, handler, extra),
        (failure: unknown) => this.#handlerFailed(ex, error, failure),
      );
      return;
    }
    this.#afterHandler(ex, error, result, handler, extra);
  }

  #afterHandler(
    ex: FunnelExchange,
    error: unknown,
    result: unknown,
    handler: ExceptionHandler,
    extra: HeaderList | undefined,
  ): void {
    try {
      if (result === undefined) this.#renderDefault(ex, error, extra);
      else if (result instanceof ExceptionResponse) {
        const writer = this.#parts.handlerWriters.get(handler);
        if (writer) writer(result as ExceptionResponse<unknown, unknown>, ex);
        else writeUndeclaredResponse(result, ex, this.#parts.resolver);
      } else if (result instanceof BaseHTTPError) this.#renderDefault(ex, result, extra);
      else
        throw new TypeError(
          `exception handler for ${handler.exception.name} returned ` +
            'neither an ExceptionResponse, an HTTP error nor undefined',
        );
    } catch (failure) {
      this.#handlerFailed(ex, error, failure);
    }
  }

  #handlerFailed(ex: FunnelExchange, error: unknown, failure: unknown): void {
    ex.log.error(
      `${ex.method} ${ex.path}: the exception handler failed while handling ${describe(error)}`,
      failure,
    );
    if (!ex.res.headersSent) this.#send(ex, new InternalServerError().render(), undefined);
  }

  #renderDefault(ex: FunnelExchange, error: unknown, extra: HeaderList | undefined): void {
    let rendered: RenderedError;
    if (error instanceof BaseHTTPError) {
      rendered = error.render(this.#parts.adapter);
      const carried = error.responseHeaders;
      if (carried !== undefined) {
        extra = extra ? [...extra] : [];
        for (const [name, value] of carried) extra.push(name, value);
      }
    } else if (error instanceof ResponseShapeError) {
      ex.log.error(
        `${ex.method} ${ex.path}: the handler's value is not its declared response: ${error.message}`,
      );
      rendered = new InternalServerError().render(this.#parts.adapter);
    } else {
      ex.log.error(`${ex.method} ${ex.path} failed with an uncaught exception`, error);
      rendered = new InternalServerError().render(this.#parts.adapter);
    }
    this.#send(ex, rendered, extra);
  }

  #send(ex: FunnelExchange, rendered: RenderedError, extra: HeaderList | undefined): void {
    const status = rendered.status;
    const head: HeaderList = ['content-type', rendered.contentType];
    if (extra) for (const item of extra) head.push(item);
    const errorHeaders = ex.plan?.errorHeaders;
    if (errorHeaders) for (const hook of errorHeaders) this.#errorHeaders(ex, hook, status, head);
    if (CLOSING.has(status)) ex.closeAfterAnswer();
    try {
      ex.answer(status, head, rendered.body);
    } catch (failure) {
      // Node refused a header of this answer (a value outside Latin-1 from an error's headers):
      // the plain 500, with nothing the failing answer carried.
      ex.log.error(`${ex.method} ${ex.path}: the ${status} error answer could not be sent`, failure);
      if (ex.res.headersSent) return;
      const plain = new InternalServerError().render(this.#parts.adapter);
      ex.answer(plain.status, ['content-type', plain.contentType], plain.body);
    }
  }

  /**
   * A route's error-answer hook (a 401 challenge): a failure, a framing header, an owned field or a
   * second line of a singleton field is logged and skipped.
   */
  #errorHeaders(
    ex: FunnelExchange,
    hook: NonNullable<Plan['errorHeaders']>[number],
    status: number,
    head: HeaderList,
  ): void {
    try {
      const pairs = hook(status);
      if (pairs === undefined) return;
      assertHookPairs(pairs, status, head, 'an error-header hook');
      for (const [name, value] of pairs) head.push(name, value);
    } catch (failure) {
      ex.log.error(
        `${ex.method} ${ex.path}: an error-header hook failed on the ${status} answer (its headers are left out)`,
        failure,
      );
    }
  }

  #handlerFor(error: Error): ExceptionHandler | undefined {
    const handlers = this.#parts.handlers;
    if (handlers.size === 0) return undefined;
    const ctor = error.constructor;
    const cached = this.#handlerCache.get(ctor);
    if (cached !== undefined) return cached ?? undefined;
    let found: ExceptionHandler | undefined;
    for (
      let c: object | null = ctor;
      c && c !== Object && c !== Function.prototype;
      c = Object.getPrototypeOf(c) as object | null
    ) {
      found = handlers.get(c);
      if (found) break;
    }
    this.#handlerCache.set(ctor, found ?? null);
    return found;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.constructor.name : typeof error;
}
