import * as v from 'valibot';
import { structInfo } from '@api/core';
import {
  compileSerializer,
  describeValue,
  isStandardSchema,
  type StandardSchemaV1,
  toErrorReason,
  wiringError,
  type Serializer,
} from '@api/core/extension';
import { CloseCode, truncateReason } from '../socket/close-codes';
import { EXPECTED_BINARY, EXPECTED_TEXT, MALFORMED_JSON, Refusal, type Codec } from './refusals';
import { standardCodec } from './standard-framing';

export { Refusal, type Codec } from './refusals';

/**
 * How one direction of a socket is framed:
 *
 * - a tagged Struct (`Struct('Ping', {…}, { tag: true })`), a list of them, or a `v.union` /
 *   `v.variant('type', …)` of them: JSON objects in text frames, dispatched on their `type`;
 * - a Standard Schema (zod 4, ArkType 2, …) of objects with a literal `type`
 *   (`z.discriminatedUnion('type', [...])`, an ArkType union, one object): JSON objects in text
 *   frames, validated by the library (the generic path);
 * - `'string'`: text frames carrying plain strings;
 * - `'bytes'`: binary frames.
 *
 * Anything else (an untagged Struct, another schema, a mix of markers and Structs) is a
 * `WiringError` when the endpoint class is declared.
 */
export type Framing = 'string' | 'bytes' | TaggedSchema | readonly TaggedSchema[] | TaggedStandardSchema;

/** A schema whose values carry a string `type` discriminator (tagged Structs and unions of them). */
export type TaggedSchema = v.GenericSchema<{ readonly type: string }, { readonly type: string }>;

/** A Standard Schema (zod, ArkType …) whose messages carry a string `type` discriminator. */
export type TaggedStandardSchema = StandardSchemaV1<{ readonly type: string }, { readonly type: string }>;

/**
 * The type of an inbound message for a framing (what iterating the socket yields): a schema's
 * output (a Standard Schema's transforms included).
 */
export type InboundMessage<F> = F extends 'string'
  ? string
  : F extends 'bytes'
    ? Buffer
    : F extends readonly (infer S)[]
      ? S extends v.GenericSchema
        ? v.InferOutput<S>
        : never
      : F extends v.GenericSchema
        ? v.InferOutput<F>
        : F extends StandardSchemaV1
          ? StandardSchemaV1.InferOutput<F>
          : never;

/**
 * The type of an outbound message for a framing (what `send` accepts). A Standard Schema takes its
 * input type: the message is validated and written as the schema's output (transforms run).
 */
export type OutboundMessage<F> = F extends 'string'
  ? string
  : F extends 'bytes'
    ? Uint8Array
    : F extends readonly (infer S)[]
      ? S extends v.GenericSchema
        ? v.InferInput<S>
        : never
      : F extends v.GenericSchema
        ? v.InferInput<F>
        : F extends StandardSchemaV1
          ? StandardSchemaV1.InferInput<F>
          : never;

/**
 * What a client sends for the endpoint's `inbound` framing: as `InboundMessage` for tagged
 * Structs, a Standard Schema's input type (before its transforms).
 */
export type ClientSendMessage<F> = F extends v.GenericSchema | readonly unknown[] | 'string' | 'bytes'
  ? InboundMessage<F>
  : F extends StandardSchemaV1
    ? StandardSchemaV1.InferInput<F>
    : never;

/**
 * What a client receives for the endpoint's `outbound` framing: as `OutboundMessage` for tagged
 * Structs, a Standard Schema's output type (what the server writes).
 */
export type ClientReceiveMessage<F> = F extends v.GenericSchema | readonly unknown[] | 'string' | 'bytes'
  ? OutboundMessage<F>
  : F extends StandardSchemaV1
    ? StandardSchemaV1.InferOutput<F>
    : never;

interface Member {
  readonly schema: v.GenericSchema;
  readonly serialize: Serializer;
  readonly name: string;
}

function isSchema(value: unknown): value is v.GenericSchema {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'schema';
}

function tagOf(schema: v.GenericSchema): string | undefined {
  if (!structInfo(schema)?.tagged) return undefined;
  const type = (schema as unknown as { entries?: { type?: { literal?: unknown } } }).entries?.type;
  return typeof type?.literal === 'string' ? type.literal : undefined;
}

/** A framing declaration in words: a schema by its Struct name or kind, anything else by `describeValue`. */
function describeFraming(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value); // a declaration such as 'text', not data
  if (!isSchema(value)) return describeValue(value);
  const info = structInfo(value);
  return info ? `Struct ${info.name}` : `a v.${value.type} schema`;
}

const FIX =
  "use a tagged Struct (Struct('Name', { … }, { tag: true })), a list or v.union of tagged Structs, one Standard Schema of tagged objects (z.discriminatedUnion('type', [...])), 'string' or 'bytes'";

/**
 * Compiles a framing declaration into a codec, or throws a `WiringError` naming `where`.
 *
 * @param where - e.g. `ChatSocket inbound`, for error messages
 * @param framing - the declared framing
 * @param direction - `inbound` (the server receives: a Standard Schema's input JSON Schema names the
 *   tags) or `outbound` (the server sends: its output JSON Schema)
 */
export function compileFraming(
  where: string,
  framing: unknown,
  direction: 'inbound' | 'outbound' = 'outbound',
): Codec {
  if (framing === 'string') return STRING;
  if (framing === 'bytes') return BYTES;
  if (isStandardSchema(framing))
    return standardCodec(where, framing, direction === 'inbound' ? 'input' : 'output');
  let list: readonly unknown[];
  if (Array.isArray(framing)) list = framing;
  else if (isSchema(framing) && (framing.type === 'union' || framing.type === 'variant')) {
    const s = framing as unknown as { options: readonly unknown[]; key?: unknown };
    if (framing.type === 'variant' && s.key !== 'type')
      throw wiringError(
        'API_WIRING_WS_FRAMING',
        where,
        `v.variant(${JSON.stringify(s.key)}, …) discriminates on "${String(s.key)}"; tagged messages carry "type"`,
        "v.variant('type', [...]) or a list of tagged Structs",
      );
    list = s.options;
  } else if (isSchema(framing)) list = [framing];
  else throw wiringError('API_WIRING_WS_FRAMING', where, `${describeFraming(framing)} is not a framing`, FIX);
  if (list.length === 0) throw wiringError('API_WIRING_WS_FRAMING', where, 'an empty list of messages', FIX);
  const members = new Map<string, Member>();
  for (const item of list) {
    if (item === 'string' || item === 'bytes')
      throw wiringError(
        'API_WIRING_WS_FRAMING',
        where,
        `mixes ${JSON.stringify(item)} with JSON messages; a direction has one framing`,
        FIX,
      );
    if (isStandardSchema(item))
      throw wiringError(
        'API_WIRING_WS_FRAMING',
        where,
        'a list holding a Standard Schema; a list is of tagged Structs',
        "combine the messages in one schema (z.discriminatedUnion('type', [A, B]), A.or(B)) and pass it alone",
      );
    const tag = isSchema(item) ? tagOf(item) : undefined;
    if (tag === undefined) {
      const info = isSchema(item) ? structInfo(item) : undefined;
      throw info
        ? wiringError(
            'API_WIRING_WS_FRAMING',
            where,
            `Struct ${info.name} is not tagged, so its frames could not be told apart`,
            `declare it with Struct('${info.name}', { … }, { tag: true })`,
          )
        : wiringError('API_WIRING_WS_FRAMING', where, `${describeFraming(item)} is not a tagged Struct`, FIX);
    }
    if (members.has(tag))
      throw wiringError(
        'API_WIRING_DUPLICATE',
        where,
        `two messages are tagged "${tag}"`,
        'give each Struct its own name',
      );
    const schema = item as v.GenericSchema;
    members.set(tag, { schema, serialize: compileSerializer(schema), name: structInfo(schema)!.name });
  }
  return jsonCodec(where, members);
}

function jsonCodec(where: string, members: Map<string, Member>): Codec {
  const tags = [...members.keys()];
  const unknownType = new Refusal(
    CloseCode.policyViolation,
    truncateReason(`expected type ${tags.map((t) => JSON.stringify(t)).join(' | ')}`),
  );
  const schemas = new Map([...members].map(([tag, m]) => [tag, m.schema]));
  return {
    kind: 'json',
    mayDefer: false,
    binary: false,
    tags,
    members: schemas,
    decode(data, isBinary) {
      if (isBinary) return EXPECTED_TEXT;
      let parsed: unknown;
      try {
        parsed = JSON.parse(data.toString('utf8'));
      } catch {
        return MALFORMED_JSON;
      }
      const type =
        typeof parsed === 'object' && parsed !== null ? (parsed as { type?: unknown }).type : undefined;
      const member = typeof type === 'string' ? members.get(type) : undefined;
      if (!member) return unknownType;
      const result = v.safeParse(member.schema, parsed);
      if (result.success) return result.output;
      return new Refusal(
        CloseCode.policyViolation,
        truncateReason(toErrorReason('json', result.issues).reason),
      );
    },
    encode(message) {
      const type =
        typeof message === 'object' && message !== null ? (message as { type?: unknown }).type : undefined;
      const member = typeof type === 'string' ? members.get(type) : undefined;
      if (!member)
        throw new TypeError(
          `${where}: an outbound message needs a "type" of ${tags.map((t) => JSON.stringify(t)).join(' | ')}`,
        );
      const result = v.safeParse(member.schema, message);
      if (!result.success)
        throw new TypeError(
          `${where}: an outbound ${member.name} does not match its schema: ${toErrorReason('json', result.issues).reason}`,
        );
      return member.serialize(result.output);
    },
  };
}

const STRING: Codec = {
  kind: 'string',
  mayDefer: false,
  binary: false,
  tags: [],
  members: new Map(),
  decode: (data, isBinary) => (isBinary ? EXPECTED_TEXT : data.toString('utf8')),
  encode(message) {
    if (typeof message !== 'string')
      throw new TypeError(`a 'string' socket sends strings, got ${typeof message}`);
    return message;
  },
};

const BYTES: Codec = {
  kind: 'bytes',
  mayDefer: false,
  binary: true,
  tags: [],
  members: new Map(),
  decode: (data, isBinary) => (isBinary ? data : EXPECTED_BINARY),
  encode(message) {
    if (!(message instanceof Uint8Array))
      throw new TypeError(`a 'bytes' socket sends Uint8Array/Buffer values, got ${typeof message}`);
    return message;
  },
};
