/** Package-internal symbols: how the modules of @api/ws reach each other's private parts. */

/** The ws socket and lifecycle hooks behind a typed `WebSocket` (used by `Channel`). */
export const kInternals = Symbol('@api/ws.internals');
/** What `WebSocketEndpoint(...)` records on its class (path, framings). */
export const kEndpoint = Symbol('@api/ws.endpoint');
/** Marks a handler declared with `this.handler(...)`. */
export const kHandler = Symbol('@api/ws.handler');
