import type * as v from 'valibot';
import type { ResponseSpec } from '@api/core';
import {
  defineResponseKind,
  discriminatorOf,
  structInfo,
  wiringError,
  type ResponseCompileContext,
} from '@api/core/extension';
import { compileItemEncoder } from '../codec/item-codec';
import { compileStreamWriter } from '../response/stream-writer';
import {
  StreamResponse,
  type HeaderSchema,
  type HeadersOf,
  type StreamResponseInit,
} from '../response/stream-response';

const NDJSON = 'application/x-ndjson';

/** The schema's kind in words, for the wiring error (never its contents). */
function describeSchema(schema: v.GenericSchema): string {
  const node = schema as { type?: unknown; options?: readonly unknown[] };
  if (node.type === 'union' || node.type === 'variant') {
    const members = (node.options ?? []).map((o) => {
      const info = structInfo(o);
      return info
        ? `${info.name}${info.tagged ? '' : ' (untagged)'}`
        : String((o as { type?: unknown }).type);
    });
    return `v.${String(node.type)}([${members.join(', ')}])`;
  }
  return `v.${String(node.type)}()`;
}

/**
 * The spec's rule for an NDJSON item: a Struct, or a union of tagged Structs (a `v.variant` of
 * Structs on a literal key too), so every line is an object a client can tell apart. Anything
 * else — a number, a string, a plain `v.object`, an untagged union — is a `WiringError` naming the
 * operation.
 */
function checkItemSchema(schema: v.GenericSchema, ctx: ResponseCompileContext): void {
  if (structInfo(schema)) return;
  const discriminator = discriminatorOf(schema);
  if (discriminator && [...discriminator.members.values()].every((member) => structInfo(member))) return;
  throw wiringError(
    'API_WIRING_STREAMING_ITEM',
    ctx.where,
    `NDJSONStreamingResponse.of(${describeSchema(schema)}): an NDJSON item is a Struct or a union of tagged Structs, one JSON object per line`,
    "declare the item as Struct('Item', { … }), or v.union([A, B]) of Structs declared with { tag: true }",
  );
}

/**
 * A stream of JSON values, one per line (`application/x-ndjson`). Each item is validated
 * against the declared schema and written by its compiled serializer (declared fields only)
 * plus `\n`. A union of tagged Structs gives heterogeneous lines, each with `"type"` first.
 *
 * @example
 * ask = this.operation(
 *   { json: Question, returns: NDJSONStreamingResponse.of(Chunk) },
 *   ({ json }) => new NDJSONStreamingResponse({ stream: answer(json.text) }),
 * );
 */
export class NDJSONStreamingResponse<T, THeaders = undefined> extends StreamResponse<T, THeaders> {
  /**
   * @param init - `stream` (items, or a lifecycle generator yielding them), plus `statusCode`,
   *   `headers` (required when declared), `rawHeaders`, `cookies`, `location`, `links`
   */
  constructor(init: StreamResponseInit<T, THeaders>) {
    super(init);
  }

  /**
   * Declares an NDJSON response whose lines are `schema` values, with optional typed headers.
   * An item schema other than a Struct or a union of tagged Structs fails wiring (`WiringError`).
   *
   * @param schema - the item schema (a Struct, or `v.union` / `v.variant('type', …)` of tagged Structs)
   * @param options - `headers`: the typed response-headers schema
   */
  static of<TSchema extends v.GenericSchema, THeaders extends HeaderSchema | undefined = undefined>(
    schema: TSchema,
    options: { readonly headers?: THeaders } = {},
  ): ResponseSpec<NDJSONStreamingResponse<v.InferOutput<TSchema>, HeadersOf<THeaders>>> {
    return defineResponseKind({
      kind: 'ndjson',
      cls: NDJSONStreamingResponse,
      schema,
      headers: options.headers,
      status: undefined,
      contentType: NDJSON,
      compile: (ctx) => {
        checkItemSchema(schema, ctx);
        const encodeItem = compileItemEncoder(schema, 'NDJSON item');
        return compileStreamWriter(ctx, {
          name: 'NDJSONStreamingResponse',
          cls: NDJSONStreamingResponse,
          contentType: NDJSON,
          encode: (item) => encodeItem(item) + '\n',
        });
      },
    });
  }
}
