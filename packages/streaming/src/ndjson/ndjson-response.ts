import type * as v from 'valibot';
import type { ResponseSpec } from '@api/core';
import {
  defineResponseKind,
  discriminatorOf,
  isStandardSchema,
  resolveRef,
  standardJsonSchema,
  structInfo,
  wiringError,
  type AnySchema,
  type ForeignSchema,
  type ResponseCompileContext,
  type SchemaReturn,
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
function checkItemSchema(schema: AnySchema, ctx: ResponseCompileContext): void {
  if (isStandardSchema(schema)) return checkStandardItem(schema, ctx);
  if (structInfo(schema)) return;
  const discriminator = discriminatorOf(schema as v.GenericSchema);
  if (discriminator && [...discriminator.members.values()].every((member) => structInfo(member))) return;
  throw wiringError(
    'API_WIRING_STREAMING_ITEM',
    ctx.where,
    `NDJSONStreamingResponse.of(${describeSchema(schema as v.GenericSchema)}): an NDJSON item is a Struct or a union of tagged Structs, one JSON object per line`,
    "declare the item as Struct('Item', { … }), or v.union([A, B]) of Structs declared with { tag: true }",
  );
}

/** A Standard Schema item (zod, ArkType) must be an object, or a union of objects, by its JSON Schema. */
function checkStandardItem(schema: ForeignSchema, ctx: ResponseCompileContext): void {
  let json: Record<string, unknown> | undefined;
  try {
    json = standardJsonSchema(schema, 'output', { unrepresentable: 'any' });
  } catch {
    // No JSON Schema for this item: the WiringError below says what the rule needs.
    json = undefined;
  }
  const isObject = (node: unknown): boolean => {
    const n = json && node ? resolveRef(node as Record<string, unknown>, json) : undefined;
    if (!n) return false;
    if (n.type === 'object') return true;
    const list = (n.anyOf ?? n.oneOf) as unknown[] | undefined;
    return Array.isArray(list) && list.length > 0 && list.every(isObject);
  };
  if (isObject(json)) return;
  throw wiringError(
    'API_WIRING_STREAMING_ITEM',
    ctx.where,
    `NDJSONStreamingResponse.of(a ${schema['~standard'].vendor} schema): an NDJSON item is one JSON object per line, ` +
      "and this schema's JSON Schema (`~standard.jsonSchema`) does not say it is an object (or a union of objects)",
    'declare the item as an object schema, e.g. z.object({ … }) or z.discriminatedUnion(…)',
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
  static of<TSchema extends AnySchema, THeaders extends HeaderSchema | undefined = undefined>(
    schema: TSchema,
    options: { readonly headers?: THeaders } = {},
  ): ResponseSpec<NDJSONStreamingResponse<SchemaReturn<TSchema>, HeadersOf<THeaders>>> {
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
