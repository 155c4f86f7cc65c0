// @api/core/extension — the wiring extension point: custom and upgrade routes, response writers,
// binding sources, mount options, contributors, lifecycle phases (before-close, drain) and the
// route catalogue. Every built-in package (auth, cors, streaming, ws, tasks, assets, openapi) plugs
// into core through this module only; so can a third-party plugin. Guide: docs/extensions.md.
export { defineExtension, type Extension } from './wiring/define-extension';
export type { Wiring } from './wiring/extension-api';
export type { InvokeAnswer, InvokeRequest } from './contract/invoke';
export { mountOption, type MountContext, type MountOptionValue } from './wiring/mount-option';
export type {
  AfterSourcesStep,
  AppIntercept,
  BeforeStep,
  CustomRoute,
  PrefixRoute,
  RouteContribution,
  RouteContributor,
  SourceProvider,
  SourceResolver,
  UpgradeRoute,
} from './contract/contribution';
export type {
  AroundHook,
  ConnectionClose,
  Exchange,
  ExchangeRequest,
  HeaderList,
  RequestBody,
  RequestHead,
  ResponseTarget,
  TakenOver,
  Transport,
} from './contract/exchange';
export type { RouteInfo, RouteKind, RouteLookup } from './contract/route-info';
export type { RouteCatalogue } from './wiring/route-catalogue';
export type {
  BodyEncoder,
  BodyTransform,
  FinalHead,
  ResponseBody,
  StreamEncoder,
} from './contract/body-transform';
export type { LogFields, Logger } from './logging/logger';
export {
  defineResponseKind,
  type CustomResponseCompiler,
  type CustomWriter,
  type ResponseCompileContext,
  type ResponseSink,
  responseInfo,
  type ResponseKindInfo,
} from './responses/extension-kind';
export {
  BufferedResponse,
  type HeaderSchema,
  type HeadersArg,
  type HeadersOf,
  type ResponseSpec,
} from './responses/response';
export { compileSerializer, type Serializer } from './schema/serializer';
export { discriminatorOf, type Discriminator } from './schema/tagged-union';
export { toErrorReason } from './schema/issues';
export { parseTemplate } from './routing/router';
export { structInfo, type StructInfo } from './schema/struct';
export {
  isAnySchema,
  isStandardSchema,
  resolveRef,
  standardFields,
  standardJsonSchema,
  type ForeignSchema,
  type StandardField,
} from './schema/standard';
export { standardCheck, type StandardCheck } from './binding/standard-binders';
export { standardReason } from './schema/standard-issues';
export type { ObjectSchemaLike, OperationSpec, ExtensionSources } from './route-class/route-class';
export type { AnyObjectSchema } from './contract/object-schema';
export type {
  AnySchema,
  SchemaInput,
  SchemaOutput,
  SchemaReturn,
  StandardObjectSchema,
  StandardSchemaV1,
} from './contract/standard-schema';
export { nameRouteClass, routeClassName } from './contract/route-name';
export type { MountOptions } from './app/app-options';
export type { Middleware } from './middleware/middleware';
export type { Limits } from './contract/limits';
export type { HealthOptions, LoadSheddingOptions, TrustProxy } from './contract/serving-options';
export type { ErrorBodyAdapter, ProblemView, RenderedError } from './errors';
export {
  describeValue,
  WiringError,
  wiringError,
  type WiringErrorCode,
  type WiringErrorParts,
} from './contract/wiring-error';
export { formFieldKind, formPartInfo, type FormPartInfo, type FormPartKind } from './binding/form';
export { hasHeader, toHeaderName } from './http';
export { negotiateContentCoding } from './http/accept-encoding';
export { isOptional, objectEntries, unwrap, type SchemaNode } from './schema/introspect';
export type { ExceptionHandler } from './responses/exception-handler';
export type { ErrorClass } from './contract/meta';
export { validator as compileValidator, type Validate } from './binding/binders';
// The checking kit (docs/extensions.md, "Checking kit"): options from a valibot schema, method
// names, the app default + per-mount override, "did you mean", a field's 400; codes are keys of
// `WiringErrorCodes`, which a package augments with its own (documented in docs/errors.md).
export {
  badRequest,
  checkKnownKeys,
  checkMethod,
  checkMethods,
  checkOptions,
  closestName,
  installAppPolicy,
  isPlainObject,
  ROUTE_METHODS,
  type AppPolicySpec,
  type CheckOptionsConfig,
  type OptionsSchema,
  type PolicyRoute,
  type PolicyWiring,
} from './checks';
export type { WiringErrorCodes } from './contract/wiring-error';
export { toFetchRequest, type ForeignRequest, type ToFetchRequestOptions } from './foreign/to-request';
export { sendFetchResponse } from './foreign/send-response';
