// The finished route catalogue: every route as extensions read it once wiring is done, with the
// app-wide error rendering (adapter, exception handlers) documents need beside the routes.
import type { ErrorBodyAdapter } from '../errors/adapter';
import type { ExceptionHandler } from '../responses/exception-handler';
import type { RouteInfo } from '../contract/route-info';

/** The finished route catalogue. */
export interface RouteCatalogue {
  readonly routes: readonly RouteInfo[];
  /** The catalogue entry of a mounted operation of a class, if any. */
  find(owner: abstract new (...args: never[]) => object, operation: string): RouteInfo | undefined;
  /** The app's error adapter (`includeErrorAdapter`), if one is registered. */
  readonly errorAdapter: ErrorBodyAdapter | undefined;
  /** The app's custom exception handlers (`includeExceptionHandler`), with their declared `returns`. */
  readonly exceptionHandlers: readonly ExceptionHandler[];
}
