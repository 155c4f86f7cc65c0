/** Internal symbols shared across core modules (and, where exported, the extension API). */
export const kStruct = Symbol('@api/core.struct');
export const kOperation = Symbol('@api/core.operation');
export const kRouteClass = Symbol('@api/core.routeClass');
export const kResponseKind = Symbol('@api/core.responseKind');
export const kRouteName = Symbol('@api/core.routeName');
/** Type-only brand of `BaseHTTPError` instances (never set at run time): keeps `ErrorClass` nominal. */
export const kHTTPError = Symbol('@api/core.httpError');
