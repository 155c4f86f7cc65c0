// The stable codes of WiringErrors: one per kind of startup mistake, never per call site. The
// table with a line of meaning each is docs/errors.md (a test keeps the two in step, for core and
// for every package's own codes).

/**
 * The registry of WiringError codes: each key is a code. Core lists its own here; a package adds
 * its codes, prefixed by its name, by declaration merging (one per kind of mistake), and documents
 * each in docs/errors.md:
 *
 * @example
 * declare module '@api/core/extension' {
 *   interface WiringErrorCodes {
 *     API_WIRING_CORS_ORIGIN: true;
 *   }
 * }
 */
export interface WiringErrorCodes {
  /** The generic code of an error built from a plain message (extensions) or `wiring.fail` without a code. */
  API_WIRING: true;
  API_WIRING_APP_STATE: true;
  API_WIRING_CONTRIBUTION_CONFLICT: true;
  API_WIRING_COOKIE: true;
  API_WIRING_DUPLICATE: true;
  API_WIRING_DUPLICATE_ROUTE: true;
  API_WIRING_ENV: true;
  API_WIRING_ERROR_FIELD: true;
  API_WIRING_ERROR_TEMPLATE: true;
  API_WIRING_FRAMING_HEADER: true;
  API_WIRING_HTTP_METHOD: true;
  API_WIRING_INTERCEPT_UNREACHABLE: true;
  API_WIRING_INVALID_ARGUMENT: true;
  API_WIRING_INVALID_HEADER: true;
  API_WIRING_INVALID_PATH: true;
  API_WIRING_LIMIT: true;
  API_WIRING_MIDDLEWARE: true;
  API_WIRING_MOUNT_OPTION: true;
  API_WIRING_MOUNT_WRONG_CLASS: true;
  API_WIRING_NOT_AN_ERROR_CLASS: true;
  API_WIRING_NOT_AN_OPERATION: true;
  API_WIRING_NOT_A_SCHEMA: true;
  API_WIRING_NOT_CLOSEABLE: true;
  API_WIRING_NO_FACTORY: true;
  API_WIRING_NO_OPERATION: true;
  API_WIRING_OWNED_HEADER: true;
  API_WIRING_PATH_BINDING: true;
  API_WIRING_PATH_SHAPE: true;
  API_WIRING_PREFIX_OVERLAP: true;
  API_WIRING_REQUEST_BODY: true;
  API_WIRING_RETURNS: true;
  API_WIRING_SETUP_FAILED: true;
  API_WIRING_SLOT_NAME: true;
  API_WIRING_SOURCE: true;
  API_WIRING_STATUS: true;
  API_WIRING_UNKNOWN_OPTION: true;
}

/**
 * What kind of startup mistake a `WiringError` reports: a key of `WiringErrorCodes` (core's codes
 * and those of the packages in the program). `API_WIRING` alone is the generic code of an error
 * built from a plain message (extensions) or `wiring.fail` without a code.
 */
export type WiringErrorCode = Extract<keyof WiringErrorCodes, string>;
