import * as v from 'valibot';

/**
 * A direction's framing, as the endpoint declares it: a schema (tagged Struct or a union of
 * them) or a list of schemas for JSON objects in text frames, `'string'` for plain text frames,
 * `'bytes'` for binary frames.
 */
export type WebSocketFraming = 'string' | 'bytes' | v.GenericSchema | readonly v.GenericSchema[];

/**
 * What a session sends for an endpoint's `inbound` framing: a schema's input type for JSON
 * framings, `string` for `'string'`, `Uint8Array` for `'bytes'`.
 *
 * @example
 * type Sent = WebSocketSend<typeof Ping>; // { type: 'Ping'; text: string }
 */
export type WebSocketSend<TFraming> = TFraming extends 'string'
  ? string
  : TFraming extends 'bytes'
    ? Uint8Array
    : TFraming extends readonly (infer TSchema)[]
      ? TSchema extends v.GenericSchema
        ? v.InferInput<TSchema>
        : never
      : TFraming extends v.GenericSchema
        ? v.InferInput<TFraming>
        : never;

/**
 * What a session receives for an endpoint's `outbound` framing: a schema's output type for JSON
 * framings (each message is validated on arrival), `string` for `'string'`, `Buffer` for `'bytes'`.
 *
 * @example
 * type Received = WebSocketReceive<typeof Pong>; // { type: 'Pong'; text: string }
 */
export type WebSocketReceive<TFraming> = TFraming extends 'string'
  ? string
  : TFraming extends 'bytes'
    ? Buffer
    : TFraming extends readonly (infer TSchema)[]
      ? TSchema extends v.GenericSchema
        ? v.InferOutput<TSchema>
        : never
      : TFraming extends v.GenericSchema
        ? v.InferOutput<TFraming>
        : never;

/** True for a synchronous valibot schema (what a JSON framing is made of). */
export function isSchema(value: unknown): value is v.GenericSchema {
  if (typeof value !== 'object' || value === null) return false;
  const schema = value as { kind?: unknown; async?: unknown; '~run'?: unknown };
  return schema.kind === 'schema' && schema.async === false && typeof schema['~run'] === 'function';
}

/** True for a framing `client.websocket` understands. */
export function isFraming(value: unknown): value is WebSocketFraming {
  if (value === 'string' || value === 'bytes') return true;
  if (Array.isArray(value)) return value.length > 0 && value.every(isSchema);
  return isSchema(value);
}

/** Decodes one received frame per the outbound framing; throws a readable `TypeError` when it does not fit. */
export type FrameDecoder = (data: Buffer, isBinary: boolean) => unknown;

/**
 * Compiles the outbound framing into a decoder: text frames as strings for `'string'`, binary
 * frames as `Buffer`s for `'bytes'`, JSON text frames validated against the schema(s) otherwise.
 *
 * @param framing - The endpoint's `outbound` framing.
 */
export function frameDecoder(framing: WebSocketFraming): FrameDecoder {
  if (framing === 'string')
    return (data, isBinary) => {
      if (isBinary) throw new TypeError('expected a text frame, got a binary one');
      return data.toString('utf8');
    };
  if (framing === 'bytes')
    return (data, isBinary) => {
      if (!isBinary) throw new TypeError('expected a binary frame, got a text one');
      return data;
    };
  const list: readonly v.GenericSchema[] = isSchema(framing) ? [framing] : framing;
  const schema: v.GenericSchema = list.length === 1 && list[0] ? list[0] : v.union([...list]);
  return (data, isBinary) => {
    if (isBinary) throw new TypeError('expected a JSON text frame, got a binary one');
    const text = data.toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new TypeError(`a received text frame is not JSON: ${JSON.stringify(text.slice(0, 200))}`, {
        cause: error,
      });
    }
    const result = v.safeParse(schema, value);
    if (!result.success)
      throw new TypeError(
        `a received message does not match the outbound framing: ${v.summarize(result.issues)}`,
      );
    return result.output;
  };
}

/**
 * Encodes a message for the inbound framing: JSON for schema framings, the string itself for
 * `'string'` (a text frame), the bytes for `'bytes'` (a binary frame).
 *
 * @param framing - The endpoint's `inbound` framing.
 * @param message - The message.
 */
export function encodeFrame(
  framing: WebSocketFraming,
  message: unknown,
): { data: string | Uint8Array; binary: boolean } {
  if (framing === 'bytes') {
    if (!(message instanceof Uint8Array))
      throw new TypeError(`send: the inbound framing is 'bytes', so a message is a Uint8Array`);
    return { data: message, binary: true };
  }
  if (framing === 'string') {
    if (typeof message !== 'string')
      throw new TypeError(`send: the inbound framing is 'string', so a message is a string`);
    return { data: message, binary: false };
  }
  return { data: JSON.stringify(message), binary: false };
}
