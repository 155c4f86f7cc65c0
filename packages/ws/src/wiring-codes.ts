// @api/ws's own WiringError codes, added to core's registry (each documented in docs/errors.md,
// section "@api/ws"; core's codes test keeps the two in step). Mistakes of kinds core names carry
// core's codes (a path binding, a declared user, a limit, an unknown option, …).
import type {} from '@api/core/extension';

declare module '@api/core/extension' {
  interface WiringErrorCodes {
    /** An `inbound`/`outbound` declaration that is not a framing: untagged Structs, mixed kinds, a variant not on "type". */
    API_WIRING_WS_FRAMING: true;
    /** A WebSocketEndpoint class without a `handle = this.handler(…)`. */
    API_WIRING_WS_HANDLER: true;
    /** An `allowedOrigins` entry that is not an exact origin ("null", "*", a path), or the option where no Origin check runs. */
    API_WIRING_WS_ORIGIN: true;
    /** A `protocols` list that is empty or holds something that is not a subprotocol name (a token). */
    API_WIRING_WS_PROTOCOL: true;
  }
}
