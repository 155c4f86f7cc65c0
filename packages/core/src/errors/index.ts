// The error families: one file each. Import from here.
export {
  BaseHTTPError,
  checkStatus,
  type CompiledAdapter,
  type ProblemView,
  type RenderedError,
} from './base-http-error';
export { HTTPError, type HTTPErrorClass, type HTTPErrorOptions } from './http-error';
export {
  DataclassHTTPError,
  type DataclassHTTPErrorClass,
  type DataclassHTTPErrorOptions,
} from './dataclass-http-error';
export {
  StructHTTPError,
  type StandardStructHTTPErrorClass,
  type StandardStructHTTPErrorOptions,
  type StructHTTPErrorClass,
  type StructHTTPErrorOptions,
} from './struct-http-error';
export { compileAdapter, type ErrorBodyAdapter } from './adapter';
export { renderTemplate, templateFields } from './templates';
export {
  AuthenticationRequiredError,
  ConflictError,
  AcceptedMediaTypes,
  DeadlineExceededError,
  ErrorReason,
  PayloadLimit,
  ForbiddenError,
  GoneError,
  InternalServerError,
  MalformedRequestError,
  MethodNotAllowedError,
  NotFoundError,
  OverloadedError,
  PayloadTooLargeError,
  RequestHeaderFieldsTooLargeError,
  RequestTimeoutError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnsupportedMediaTypeError,
  URITooLongError,
  ValidationFailedError,
} from './builtin';
export { WiringError, type WiringErrorCode, type WiringErrorParts } from '../contract/wiring-error';
