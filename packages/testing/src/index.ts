// @api/testing — in-process test helpers for @api apps. Curated exports only.

export { TestClient } from './client/test-client';
export type { CookieJarOf, TestableApp, TestClientOptions } from './client/client-options';
export { StreamSession } from './client/stream-session';
export { ResponseHead, ResponseHeaders, TestResponse, type HeaderPairs } from './client/test-response';
export {
  withQuery,
  type BodyOptions,
  type QueryParams,
  type QueryValue,
  type RequestOptions,
  type RequestWithBodyOptions,
  type RequestWithoutBodyOptions,
} from './client/request-options';
export {
  buildMultipart,
  type FileUpload,
  type FormFields,
  type FormFiles,
  type HeaderInit,
  type MultipartBody,
} from './multipart/build-multipart';
export {
  isExpiredCookie,
  parseSetCookie,
  parseSetCookies,
  type ResponseCookie,
} from './cookies/parse-set-cookie';
export { parseSSE, SSEDecoder, type ServerSentEventRecord } from './stream/parse-sse';
export { parseNDJSON, NDJSONDecoder } from './stream/parse-ndjson';
export { FactoryHarness, type OpenableFactory } from './harness/factory-harness';
export type { WebSocketFraming, WebSocketReceive, WebSocketSend } from './websocket/framing';
export type { WebSocketSessionOptions } from './websocket/websocket-options';
export type { SendRawOptions, WebSocketClose, WebSocketSession } from './websocket/websocket-session';
export { WebSocketDenied } from './websocket/websocket-denied';

/** The package version. */
export const version = '0.1.0';
