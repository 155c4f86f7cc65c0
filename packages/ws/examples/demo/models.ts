// Ready to paste into apps/demo/src/models.ts: the WebSocket messages of the demo. Tagged Structs
// carry their wire `type` (the Struct's first argument); `name` is the OpenAPI component name.
import * as v from 'valibot';
import { Struct } from '@api/core';

/** `WS /websocket/{client_id}` path slot. */
export const ClientPath = Struct('ClientPath', {
  client_id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
});

/** Client → server on `/websocket/{client_id}`. */
export const PingRequest = Struct(
  'ping-request',
  { requestId: v.pipe(v.string(), v.maxLength(64)), message: v.pipe(v.string(), v.maxLength(1000)) },
  { tag: true, name: 'PingRequest' },
);

/** Server → client on `/websocket/{client_id}`. */
export const PingResponse = Struct(
  'ping-response',
  { requestId: v.string(), clientId: v.string(), userId: v.string(), message: v.string() },
  { tag: true, name: 'PingResponse' },
);

/** Client → server on `/chat`. */
export const SendMessage = Struct(
  'send-message',
  { text: v.pipe(v.string(), v.minLength(1), v.maxLength(2000)) },
  { tag: true, name: 'SendMessage' },
);

/** Server → every `/chat` client, through the chat `Channel`. */
export const ChatMessage = Struct(
  'chat-message',
  { text: v.string(), from: v.string() },
  { tag: true, name: 'ChatMessage' },
);
