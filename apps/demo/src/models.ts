import * as v from 'valibot';
import { Struct } from '@api/core';

/** The fields needed to create (or fully replace) a widget. */
export const WidgetIn = Struct(
  'WidgetIn',
  {
    name: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description('Human-readable widget name')),
    priceCents: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Price in cents')),
  },
  { description: 'The fields needed to create a widget.' },
);

/** A partial update: only the fields sent change. */
export const WidgetPatch = Struct('WidgetPatch', {
  name: v.optional(WidgetIn.entries.name),
  priceCents: v.optional(WidgetIn.entries.priceCents),
});

/** A stored widget. */
export const Widget = Struct(
  'Widget',
  { id: v.string(), ...WidgetIn.entries },
  { description: 'A widget in the catalogue.' },
);
export type Widget = v.InferOutput<typeof Widget>;

/** Path of an item route; slots are snake_case. */
export const WidgetPath = Struct('WidgetPath', { widget_id: v.pipe(v.string(), v.minLength(1)) });

/** Paging for the collection. */
export const Page = Struct('Page', {
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 20),
  offset: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
});

/** The answer of DELETE /widgets/{widget_id}. */
export const Deleted = Struct('Deleted', { id: v.string(), deleted: v.literal(true) });

/** GET /healthz. */
export const Health = Struct('Health', { status: v.string() });

/** The multipart body of POST /form-raw-headers. */
export const BlobHeaders = Struct('BlobHeaders', {
  content_type: v.optional(v.string()),
  x_checksum: v.optional(v.string()),
});

/** What POST /form-raw-headers reports about the request and its `blob` part. */
export const FormReport = Struct('FormReport', {
  requestHeaderNames: v.array(v.string()),
  partHeaderNames: v.array(v.string()),
  partChecksumValues: v.array(v.string()),
  partContentType: v.nullable(v.string()),
  partTypedHeaders: Struct('PartTypedHeaders', {
    contentType: v.nullable(v.string()),
    xChecksum: v.nullable(v.string()),
  }),
});

/** POST /session body. */
export const SessionIn = Struct('SessionIn', { token: v.pipe(v.string(), v.minLength(1)) });

/** A caller. */
export const User = Struct('User', { id: v.string(), name: v.string(), maySeeSpotlight: v.boolean() });
export type User = v.InferOutput<typeof User>;

// ------------------------------------------------------------------ streaming (POST /questions, GET /notifications)

/** The body of POST /questions. */
export const Question = Struct('Question', { text: v.pipe(v.string(), v.minLength(1), v.maxLength(2000)) });

/** One NDJSON line of the answer to a question. */
export const AnswerChunk = Struct(
  'AnswerChunk',
  { text: v.string() },
  { description: 'A piece of the answer.' },
);

/** The data of a GET /notifications event. */
export const Notification = Struct('Notification', { message: v.string() });

/** GET /notifications reads `Last-Event-ID` (sent by a reconnecting EventSource) as an ordinary header. */
export const NotificationHeaders = Struct('NotificationHeaders', {
  last_event_id: v.optional(v.pipe(v.string(), v.maxLength(20))),
});

// ------------------------------------------------------------------ background queue

/** A change to a widget, handled in the background after the response. */
export const WidgetEvent = Struct(
  'WidgetEvent',
  {
    action: v.picklist(['created', 'updated', 'deleted']),
    widgetId: v.pipe(v.string(), v.minLength(1)),
  },
  { description: 'A widget change, processed by the background queue.' },
);
export type WidgetEvent = v.InferOutput<typeof WidgetEvent>;

/** A request to rebuild one widget's search entry (enqueued by POST /widgets/{widget_id}/reindex). */
export const ReindexRequested = Struct('ReindexRequested', { widgetId: v.pipe(v.string(), v.minLength(1)) });

/** The 202 body of POST /widgets/{widget_id}/reindex. */
export const ReindexAccepted = Struct('ReindexAccepted', { widgetId: v.string(), queued: v.literal(true) });

// ------------------------------------------------------------------ WebSockets
// Tagged Structs carry their wire `type` (the Struct's first argument); `name` is the OpenAPI component name.

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
