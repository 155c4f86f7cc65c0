// The JSON-RPC 2.0 messages of MCP's Streamable HTTP transport, the protocol revisions spoken, and
// the HTTP errors the endpoint answers with (Problems, like every refusal of the app).
import * as v from 'valibot';
import { HTTPError } from '@api/core';

/**
 * Revisions of MCP this endpoint speaks, newest first: `2025-11-25` is what
 * `@modelcontextprotocol/sdk` 1.32 calls latest; `2025-03-26` introduced Streamable HTTP.
 */
export const PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];

/** One JSON-RPC message (batches were removed from MCP in 2025-06-18). */
export const Message = v.looseObject(
  {
    jsonrpc: v.literal('2.0', 'jsonrpc must be "2.0"'),
    id: v.optional(v.union([v.string(), v.number()], 'id must be a string or a number')),
    method: v.optional(v.string('method must be a string')),
    params: v.optional(v.record(v.string(), v.unknown(), 'params must be an object')),
  },
  'a JSON-RPC message object',
);
export type Message = v.InferOutput<typeof Message>;

/** JSON-RPC error codes used. */
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;

export const rpcResult = (id: string | number, result: unknown): object => ({ jsonrpc: '2.0', id, result });
export const rpcError = (id: string | number, code: number, message: string): object => ({
  jsonrpc: '2.0',
  id,
  error: { code, message },
});

/** 404: the session id is unknown, closed, expired, or was opened with another credential. */
export class McpSessionNotFoundError extends HTTPError.define({
  type: 'mcp-session-not-found',
  title: 'MCP session not found; initialize a new one',
  status: 404,
}) {}

/** 403: a browser page of an origin not allowed (the DNS-rebinding rule of MCP's HTTP transport). */
export class OriginNotAllowedError extends HTTPError.define({
  type: 'origin-not-allowed',
  title: 'Origin not allowed',
  status: 403,
}) {}

/** 503: `maxSessions` sessions are open and in use. */
export class TooManySessionsError extends HTTPError.define({
  type: 'mcp-too-many-sessions',
  title: 'Too many MCP sessions are open; try again later',
  status: 503,
}) {}
