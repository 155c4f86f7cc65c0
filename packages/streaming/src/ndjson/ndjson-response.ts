import type * as v from 'valibot';
import type { ResponseSpec } from '@api/core';
import { defineResponseKind } from '@api/core/extension';
import { compileItemEncoder } from '../codec/item-codec';
import { compileStreamWriter } from '../response/stream-writer';
import {
  StreamResponse,
  type HeaderSchema,
  type HeadersOf,
  type StreamResponseInit,
} from '../response/stream-response';

const NDJSON = 'application/x-ndjson';

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
