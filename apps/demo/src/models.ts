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
