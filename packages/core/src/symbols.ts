/** Internal symbols shared across core modules (and, where exported, the extension API). */
export const kStruct = Symbol.for('@api/core.struct');
export const kOperation = Symbol.for('@api/core.operation');
export const kRouteClass = Symbol.for('@api/core.routeClass');
export const kResponseKind = Symbol.for('@api/core.responseKind');
export const kMountOption = Symbol.for('@api/core.mountOption');
export const kSourceMarker = Symbol.for('@api/core.sourceMarker');
