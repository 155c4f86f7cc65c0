// @api/core/extension — the wiring extension point: custom and upgrade routes, response writers,
// binding sources, mount options, contributors, lifecycle phases (before-close, drain) and the
// route catalogue. Every built-in package (auth, cors, streaming, ws, tasks, assets, openapi) plugs
// into core through this module only; so can a third-party plugin. Guide: docs/extensions.md.
export {
  defineExtension,
  mountOption,
  type AppIntercept,
  type AroundHook,
  type BeforeStep,
  type BodyEncoder,
  type BodyTransform,
  type ConnectionClose,
  type CustomRoute,
  type Exchange,
  type ExchangeRequest,
  type Extension,
  type FinalHead,
  type HeaderList,
  type LogFields,
  type Logger,
  type MountContext,
  type MountOptionValue,
  type ResponseBody,
  type RequestBody,
  type RequestHead,
  type ResponseTarget,
  type RouteCatalogue,
  type RouteContribution,
  type RouteContributor,
  type RouteInfo,
  type RouteKind,
  type RouteLookup,
  type SourceProvider,
  type SourceResolver,
  type StreamEncoder,
  type TakenOver,
  type Transport,
  type UpgradeRoute,
  type Wiring,
} from './types';
export {
  defineResponseKind,
  responseInfo,
  type CustomResponseCompiler,
  type CustomWriter,
  type ResponseCompileContext,
  type ResponseKindInfo,
  type ResponseSink,
  type ResponseSpec,
} from '../responses/response';
export { compileSerializer, type Serializer } from '../schema/serializer';
export { discriminatorOf, type Discriminator } from '../schema/tagged-union';
export { toErrorReason } from '../schema/issues';
export { parseTemplate } from '../routing/router';
export { structInfo, type StructInfo } from '../schema/struct';
export type { ObjectSchemaLike, OperationSpec, ExtensionSources } from '../routes/route-class';
export { nameRouteClass, routeClassName } from '../routes/route-name';
export type { MountOptions } from '../app/base-app';
export type { Middleware } from '../middleware/middleware';
export type { Limits } from '../app/limits';
export type { ErrorBodyAdapter, ProblemView, RenderedError } from '../errors';
export { WiringError } from '../errors/wiring-error';
export { formFieldKind, formPartInfo, type FormPartInfo, type FormPartKind } from '../binding/form';
export { toHeaderName } from '../http';
export { negotiateContentCoding } from '../http/accept-encoding';
export { isOptional, objectEntries, unwrap, type SchemaNode } from '../schema/introspect';
export type { ExceptionHandler } from '../app/exception-handler';
export type { ErrorClass } from '../meta/meta';
export { validator as compileValidator, type Validate } from '../binding/binders';
