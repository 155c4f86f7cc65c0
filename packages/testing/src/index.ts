// @api/testing — in-process test helpers for @api apps. Curated exports only.

export { TestClient, type CookieJarOf, type TestableApp, type TestClientOptions } from './client/test-client';
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

/** The package version. */
export const version = '0.1.0';
