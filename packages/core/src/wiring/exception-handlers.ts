import { WiringError } from '../errors/wiring-error';
import type { Exchange } from '../extension/types';
import type { ExceptionHandler } from '../app/exception-handler';
import { ExceptionResponse, responseInfo } from '../responses/response';
import { exceptionResponseWriter } from '../responses/writers';

/** Checks one exception handler at registration; every mistake names the handler's class and the fix. */
export function checkExceptionHandler(
  where: string,
  handler: ExceptionHandler,
  registered: ReadonlyMap<object, ExceptionHandler>,
): void {
  if (typeof handler?.exception !== 'function' || typeof handler.handleException !== 'function') {
    throw new WiringError(
      `${where}: a handler needs "exception" (a class) and "handleException". Fix: use defineExceptionHandler({ exception, handleException }).`,
    );
  }
  if (registered.has(handler.exception)) {
    throw new WiringError(
      `${where}: two handlers for ${handler.exception.name}. Fix: keep one; a base class and a subclass may each have their own.`,
    );
  }
  for (const entry of handler.returns ?? []) {
    const info = responseInfo(entry);
    const ok = info ? info.cls === ExceptionResponse : isErrorClass(entry);
    if (!ok)
      throw new WiringError(
        `${where}: handler for ${handler.exception.name} declares a result that is neither ExceptionResponse.of(...) nor an HTTP error class. Fix: declare returns: [ExceptionResponse.of(Body), SomeHTTPError].`,
      );
  }
}

function isErrorClass(entry: unknown): boolean {
  return typeof entry === 'function' && 'status' in entry && ('type' in entry || 'bodySchema' in entry);
}

/** Compiled writers for handlers that declared `ExceptionResponse.of(...)` (typed headers, compiled body). */
export function compileHandlerWriters(
  handlers: Iterable<ExceptionHandler>,
): Map<ExceptionHandler, (value: ExceptionResponse<unknown, unknown>, ex: Exchange) => void> {
  const writers = new Map<
    ExceptionHandler,
    (value: ExceptionResponse<unknown, unknown>, ex: Exchange) => void
  >();
  for (const handler of handlers) {
    const declared = (handler.returns ?? []).map(responseInfo).find((i) => i !== undefined);
    if (declared) writers.set(handler, exceptionResponseWriter(declared));
  }
  return writers;
}
