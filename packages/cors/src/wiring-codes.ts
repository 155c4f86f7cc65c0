// @api/cors's own WiringError codes, added to core's registry (each documented in docs/errors.md,
// section "@api/cors"; core's codes test keeps the two in step). The other mistakes a policy can
// hold are of kinds core names: a method (API_WIRING_HTTP_METHOD), a header name
// (API_WIRING_INVALID_HEADER), a value of the wrong type (API_WIRING_INVALID_ARGUMENT).
import type {} from '@api/core/extension';

declare module '@api/core/extension' {
  interface WiringErrorCodes {
    /** `allowCredentials: true` with `allowOrigins: '*'`. */
    API_WIRING_CORS_CREDENTIALS: true;
    /** An `allowOrigins` entry that is not an exact origin (the "null" origin, a path, no scheme), or an empty list. */
    API_WIRING_CORS_ORIGIN: true;
  }
}
