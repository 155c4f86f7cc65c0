// The stable codes of WiringErrors: one per kind of startup mistake, never per call site. The
// table with a line of meaning each is docs/errors.md (a test keeps the two in step).

/**
 * What kind of startup mistake a `WiringError` reports. `API_WIRING` alone is the generic code of
 * an error built from a plain message (extensions) or `wiring.fail` without a code.
 */
export type WiringErrorCode =
  | 'API_WIRING'
  | 'API_WIRING_APP_STATE'
  | 'API_WIRING_CONTRIBUTION_CONFLICT'
  | 'API_WIRING_COOKIE'
  | 'API_WIRING_DUPLICATE'
  | 'API_WIRING_DUPLICATE_ROUTE'
  | 'API_WIRING_ENV'
  | 'API_WIRING_ERROR_FIELD'
  | 'API_WIRING_ERROR_TEMPLATE'
  | 'API_WIRING_FRAMING_HEADER'
  | 'API_WIRING_HTTP_METHOD'
  | 'API_WIRING_INTERCEPT_UNREACHABLE'
  | 'API_WIRING_INVALID_ARGUMENT'
  | 'API_WIRING_INVALID_HEADER'
  | 'API_WIRING_INVALID_PATH'
  | 'API_WIRING_LIMIT'
  | 'API_WIRING_MIDDLEWARE'
  | 'API_WIRING_MOUNT_OPTION'
  | 'API_WIRING_MOUNT_WRONG_CLASS'
  | 'API_WIRING_NOT_AN_ERROR_CLASS'
  | 'API_WIRING_NOT_AN_OPERATION'
  | 'API_WIRING_NOT_A_SCHEMA'
  | 'API_WIRING_NOT_CLOSEABLE'
  | 'API_WIRING_NO_FACTORY'
  | 'API_WIRING_NO_OPERATION'
  | 'API_WIRING_PATH_BINDING'
  | 'API_WIRING_PATH_SHAPE'
  | 'API_WIRING_PREFIX_OVERLAP'
  | 'API_WIRING_REQUEST_BODY'
  | 'API_WIRING_RETURNS'
  | 'API_WIRING_SETUP_FAILED'
  | 'API_WIRING_SLOT_NAME'
  | 'API_WIRING_SOURCE'
  | 'API_WIRING_STATUS'
  | 'API_WIRING_UNKNOWN_OPTION';
