import { StructHTTPError } from '../errors';
import { wiringError } from '../contract/wiring-error';
import type { Exchange } from '../contract/exchange';
import { checkHandlerShape, isErrorClass, type ExceptionHandler } from '../responses/exception-handler';
import { responseFacts } from '../responses/response';
import type { ExceptionResponse } from '../responses/exception-handler';
import {
  encodeUndeclaredException,
  exceptionResponseEncoder,
  type EncodedException,
} from '../responses/undeclared';
import { ResponseShapeError } from '../schema/response-shape-error';

/** Checks one exception handler at registration; every mistake names the handler's class and the fix. */
export function checkExceptionHandler(
  where: string,
  handler: ExceptionHandler,
  registered: ReadonlyMap<object, ExceptionHandler>,
): void {
  checkHandlerShape(where, handler, false);
  if (registered.has(handler.exception)) {
    throw wiringError(
      'API_WIRING_DUPLICATE',
      where,
      `two handlers for ${handler.exception.name}`,
      'keep one; a base class and a subclass may each have their own',
    );
  }
}

/** One declared result that can encode an `ExceptionResponse`. */
interface Candidate {
  /** The status it answers; undefined: any error status (an unpinned `ExceptionResponse.of`). */
  readonly status: number | undefined;
  /** Declared as `ExceptionResponse.of` (preferred over an error class at the same status). */
  readonly declared: boolean;
  readonly encode: (value: ExceptionResponse<unknown, unknown>) => EncodedException;
}

type HandlerWriter = (value: ExceptionResponse<unknown, unknown>, ex: Exchange) => void;

/**
 * Compiled writers of handlers that declare results with a body schema: `ExceptionResponse.of(...)`
 * (typed headers, compiled body) and Struct error classes. A returned `ExceptionResponse` is encoded
 * by the first declared result that fits, tried in this order: `of` results pinned to its status,
 * Struct error classes of its status, unpinned `of` results, then plain `JSON.stringify` (Problem
 * error classes of its status, or nothing declared for it). A body that fits none of the schemas
 * tried is the first one's `ResponseShapeError` (the funnel answers 500 and logs it).
 */
export function compileHandlerWriters(
  handlers: Iterable<ExceptionHandler>,
): Map<ExceptionHandler, HandlerWriter> {
  const writers = new Map<ExceptionHandler, HandlerWriter>();
  for (const handler of handlers) {
    const candidates: Candidate[] = [];
    const problemStatuses = new Set<number>();
    for (const entry of handler.returns ?? []) {
      const info = responseFacts(entry);
      if (info)
        candidates.push({
          status: info.status,
          declared: true,
          encode: exceptionResponseEncoder(
            info.schema,
            info.headers,
            `the exception handler for ${handler.exception.name}`,
          ),
        });
      else if (typeof entry === 'function' && entry.prototype instanceof StructHTTPError) {
        const cls = entry as unknown as typeof StructHTTPError;
        candidates.push({
          status: cls.status,
          declared: false,
          encode: exceptionResponseEncoder(cls.bodySchema, undefined),
        });
      } else if (isErrorClass(entry)) problemStatuses.add(entry.status);
    }
    if (candidates.length > 0) writers.set(handler, dispatch(candidates, problemStatuses));
  }
  return writers;
}

function dispatch(candidates: readonly Candidate[], problemStatuses: ReadonlySet<number>): HandlerWriter {
  const byStatus = new Map<number, Candidate[]>();
  const order = (c: Candidate): number => (c.declared ? 0 : 1);
  for (const c of [...candidates].sort((a, b) => order(a) - order(b))) {
    if (c.status === undefined) continue;
    const list = byStatus.get(c.status) ?? [];
    list.push(c);
    byStatus.set(c.status, list);
  }
  const anyStatus = candidates.filter((c) => c.status === undefined);
  return (value, ex) => {
    const tries = [...(byStatus.get(value.statusCode) ?? []), ...anyStatus];
    let first: ResponseShapeError | undefined;
    for (const candidate of tries) {
      try {
        const encoded = candidate.encode(value);
        ex.send(value.statusCode, encoded.headers, encoded.body);
        return;
      } catch (failure) {
        if (!(failure instanceof ResponseShapeError)) throw failure;
        first ??= failure;
      }
    }
    // A body no schema fits is a 500, unless a Problem error class declares its status.
    if (first !== undefined && !problemStatuses.has(value.statusCode)) throw first;
    const encoded = encodeUndeclaredException(value);
    ex.send(value.statusCode, encoded.headers, encoded.body);
  };
}
