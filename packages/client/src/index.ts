// @api/client — a typed fetch client for @api apps, typed from the route classes through
// `import type`. Curated exports only.
export { createClient, type ClientOptions, type Lazy } from './client';
export {
  route,
  type AnyUnauthorized,
  type Authenticated,
  type AuthMark,
  type MountPath,
  type RouteOptions,
  type RouteRef,
} from './routes/route';
export { ResponseError } from './call/errors';
export {
  SocketClosedError,
  type ClientSocket,
  type CloseInfo,
  type ConnectInput,
  type WebSocketFactory,
  type WebSocketLike,
} from './socket/socket';
export type { SSEEvent } from './streams/sse';
export type {
  Client,
  ClientCall,
  MountClient,
  OperationCall,
  OperationName,
  RouteClient,
  SocketClient,
} from './types/client';
export type {
  Answer,
  AnswerHeaders,
  DataOf,
  Failure,
  FailureOf,
  Success,
  Successes,
  Unexpected,
} from './types/answer';
export type { CallInput, CallOptions, FormIn, RawBody } from './types/input';
export type {
  AuthenticationRequiredProblem,
  ErrorBodyOf,
  ErrorReason,
  ErrorStatus,
  InternalServerErrorProblem,
  MalformedRequestProblem,
  NotFoundProblem,
  ParamsProblem,
  PayloadTooLargeProblem,
  Problem,
  UnsupportedMediaTypeProblem,
  ValidationFailedProblem,
} from './types/problems';
