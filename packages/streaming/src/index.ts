// @api/streaming — bytes, NDJSON and Server-Sent Events responses for @api. Curated exports only.
import './wiring-codes';

export { StreamingResponse, type ByteChunk } from './bytes/streaming-response';
export { NDJSONStreamingResponse } from './ndjson/ndjson-response';
export { SSEResponse, type SSEItem } from './sse/sse-response';
export { ServerSentEvent, type ServerSentEventInit } from './sse/server-sent-event';
export type { StreamSource } from './pump/stream-source';
export type { HeaderSchema, HeadersOf, StreamResponse, StreamResponseInit } from './response/stream-response';
