// @api/auth's own WiringError codes, added to core's registry (each documented in docs/errors.md,
// section "@api/auth"; core's codes test keeps the two in step). Most of its mistakes are of kinds
// core names: a user that disagrees with the authenticator (API_WIRING_SOURCE), a challenge that
// is no header value (API_WIRING_INVALID_HEADER), `raises` (API_WIRING_NOT_AN_ERROR_CLASS), …
import type {} from '@api/core/extension';

declare module '@api/core/extension' {
  interface WiringErrorCodes {
    /** `realm` on an authenticator that sends no Basic challenge. */
    API_WIRING_AUTH_REALM: true;
  }
}
