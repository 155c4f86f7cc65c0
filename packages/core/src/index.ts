// @api/core — the public surface. Curated: nothing internal is re-exported wholesale.

// App, factory and lifecycle
export { BaseApp } from './app/base-app';
export type { AppOptions, MountArgs, MountOptions } from './app/app-options';
export type { MountRequirement, MountRequirementRegistry, MountRequirements } from './app/mount-requirements';
export type { WiringTypeError } from './contract/type-errors';
export {
  BaseFactory,
  ExitStack,
  ExitStacks,
  type Closeable,
  type FactoryClass,
} from './lifecycle/exit-stack';
export type { ShutdownOptions } from './lifecycle/shutdown';
export { consoleLogger, type StructuredLogger } from './logging/logger';
export { defaultLimits, type Limits, type LimitsOptions, type MountLimits } from './contract/limits';
export type { HealthOptions, LoadSheddingOptions, TrustProxy } from './contract/serving-options';
export {
  defineExceptionHandler,
  type ExceptionHandler,
  type ExceptionHandlerResult,
  type ExceptionHandlerReturn,
  type ExceptionHandlerDefinition,
  type DeclaredExceptionHandler,
  type DeclaredExceptionResult,
  type ProblemBody,
} from './responses/exception-handler';
export { serve, type RunningServer, type ServeOptions } from './transport/node/serve';
export { mountFetch, type FetchHandler, type MountFetchOptions } from './foreign/mount-fetch';

// Models and routes
export { Struct, structInfo, type StructInfo, type StructMeta, type StructSchema } from './schema/struct';
export { named, type NamedMeta } from './schema/standard';
export type { AnyObjectSchema } from './contract/object-schema';
export type {
  AnySchema,
  SchemaInput,
  SchemaOutput,
  SchemaReturn,
  StandardObjectSchema,
  StandardSchemaV1,
} from './contract/standard-schema';
export type { LogFields, Logger } from './logging/logger';
export type { RouteInfo } from './contract/route-info';
export type { RouteCatalogue } from './wiring/route-catalogue';
export {
  Endpoint,
  Resource,
  RESOURCE_OPERATIONS,
  ENDPOINT_OPERATIONS,
  type EndpointClass,
  type EndpointOperations,
  type ExactOperation,
  type Handler,
  type HandlerInput,
  type HandlerOutput,
  type ObjectSchemaLike,
  type Operation,
  type OperationSpec,
  type PathSlots,
  type ResourceClass,
  type ResourceOperations,
  type Returns,
  type CoreOperationSpec,
  type ExtensionSources,
  type RouteClassOptions,
  type RouteClassFacts,
  type SourceName,
} from './route-class/route-class';
export {
  Tag,
  type EndpointMeta,
  type ErrorClass,
  type OperationMeta,
  type ResourceMeta,
  type ResponseDoc,
  type RouteMeta,
} from './contract/meta';

// Binding
export { RawHeadersView } from './binding/raw-headers';
export {
  FileFormPart,
  FormPart,
  type FileFormPartValue,
  type FormPartValue,
  type SpooledFileFormPartValue,
} from './binding/form';

// Responses
export {
  Accepted,
  Bytes,
  BytesResponse,
  Created,
  JSONResponse,
  NoContent,
  Text,
  type RawHeaders,
  type ResponseFields,
  type ResponseSpec,
} from './responses/response';
export { ExceptionResponse } from './responses/exception-handler';
export { Link, Location, type LinkParams, type PathValues } from './responses/location';
export {
  SetCookie,
  CookieError,
  parseCookieHeader,
  type SameSite,
  type SetCookieOptions,
} from './cookies/set-cookie';

// Errors
export {
  WiringError,
  type WiringErrorCode,
  type WiringErrorCodes,
  type WiringErrorParts,
} from './contract/wiring-error';
export {
  AuthenticationRequiredError,
  BaseHTTPError,
  ConflictError,
  DataclassHTTPError,
  AcceptedMediaTypes,
  DeadlineExceededError,
  ErrorReason,
  PayloadLimit,
  ForbiddenError,
  GoneError,
  HTTPError,
  InternalServerError,
  MalformedRequestError,
  MethodNotAllowedError,
  NotFoundError,
  OverloadedError,
  PayloadTooLargeError,
  RequestHeaderFieldsTooLargeError,
  RequestTimeoutError,
  ServiceUnavailableError,
  StructHTTPError,
  TooManyRequestsError,
  UnsupportedMediaTypeError,
  URITooLongError,
  ValidationFailedError,
  type DataclassHTTPErrorClass,
  type DataclassHTTPErrorOptions,
  type ErrorBodyAdapter,
  type HTTPErrorClass,
  type HTTPErrorOptions,
  type ProblemView,
  type StandardStructHTTPErrorClass,
  type StandardStructHTTPErrorOptions,
  type StructHTTPErrorClass,
  type StructHTTPErrorOptions,
} from './errors';
export type { ErrorReasonValue, ReasonIssue } from './schema/issues';

// Middleware
export {
  defineMiddleware,
  type Middleware,
  type Request,
  type ResponseHeadersHook,
} from './middleware/middleware';

// The wiring extension point (for plugin authors) lives on `@api/core/extension`.
