// JSON messages from a Standard Schema (zod, ArkType …) beside the tagged Structs' compiled path:
// one schema for a direction (a `z.discriminatedUnion('type', …)`, an ArkType union, one object),
// whose `type` tags are read once, at declaration, from the library's JSON Schema. Frames are
// validated by the generic path (`~standard.validate`, which may answer a promise) and messages are
// written as the schema's output with `JSON.stringify`. Refusals name paths, never values.
import {
  resolveRef,
  standardJsonSchema,
  standardReason,
  wiringError,
  type ForeignSchema,
  type StandardSchemaV1,
} from '@api/core/extension';
import { CloseCode, truncateReason } from '../socket/close-codes';
import { EXPECTED_TEXT, MALFORMED_JSON, Refusal, type Codec } from './refusals';

type Json = Record<string, unknown>;

/** The literal of a member's `type` property (`const`, or an `enum` of one string), or undefined. */
function tagOfMember(node: Json, root: Json): string | undefined {
  const member = resolveRef(node, root);
  const properties = member.properties as Record<string, Json> | undefined;
  const type = properties?.type ? resolveRef(properties.type, root) : undefined;
  if (!type) return undefined;
  if (typeof type.const === 'string') return type.const;
  const values = type.enum;
  return Array.isArray(values) && values.length === 1 && typeof values[0] === 'string'
    ? values[0]
    : undefined;
}

/** The members of a union (`anyOf` / `oneOf`, nested ones flattened), or the schema itself. */
function membersOf(node: Json, root: Json): Json[] {
  const n = resolveRef(node, root);
  const list = (n.anyOf ?? n.oneOf) as Json[] | undefined;
  return Array.isArray(list) ? list.flatMap((m) => membersOf(m, root)) : [n];
}

const FIX =
  "declare each message as an object with a literal \"type\" (z.object({ type: z.literal('Ping'), … }), type({ type: \"'Ping'\", … })) and combine them in one schema (z.discriminatedUnion('type', [...]), A.or(B)), of a library that offers Standard JSON Schema (zod 4, ArkType 2)";

/**
 * The `type` tags a Standard Schema's messages carry, read from its JSON Schema (input for what
 * is received, output for what is sent); a `WiringError` naming `where` when they cannot be read.
 */
function readTags(where: string, schema: ForeignSchema, io: 'input' | 'output'): string[] {
  let root: Json | undefined;
  try {
    root = standardJsonSchema(schema, io);
  } catch {
    // Only the tags are read: a field JSON Schema cannot express (a zod transform or date) may be
    // left open (zod's `unrepresentable: 'any'`; other libraries ignore the option).
    try {
      root = standardJsonSchema(schema, io, { unrepresentable: 'any' });
    } catch {
      // The library cannot express this schema at all: the tags cannot be read (said below).
      root = undefined;
    }
  }
  if (!root)
    throw wiringError(
      'API_WIRING_WS_FRAMING',
      where,
      'a Standard Schema whose message types cannot be read: @api/ws reads each message\'s "type" from the library\'s JSON Schema (`~standard.jsonSchema`), which this schema does not offer',
      FIX,
    );
  const tags: string[] = [];
  for (const member of membersOf(root, root)) {
    const tag = tagOfMember(member, root);
    if (tag === undefined)
      throw wiringError(
        'API_WIRING_WS_FRAMING',
        where,
        'a Standard Schema with a message whose "type" is not one literal string, so its frames could not be told apart',
        FIX,
      );
    if (tags.includes(tag))
      throw wiringError(
        'API_WIRING_DUPLICATE',
        where,
        `two messages are tagged "${tag}"`,
        'give each message its own "type"',
      );
    tags.push(tag);
  }
  return tags;
}

/** What `validate` may answer, settled into the message or the refusal the socket closes with. */
function settleInbound(result: StandardSchemaV1.Result<unknown>, input: unknown): unknown {
  if (!result.issues) return result.value;
  return new Refusal(
    CloseCode.policyViolation,
    truncateReason(standardReason('json', result.issues, input).reason),
  );
}

// A schema whose validation throws or rejects: the server's fault, never the message's (1011).
const VALIDATION_FAILED = new Refusal(CloseCode.internalError, 'message validation failed');

/**
 * Compiles a Standard Schema framing into a codec (kind `json`, like tagged Structs): inbound
 * frames are parsed, dispatched on a known `type` (else 1008 `expected type …`), validated (1008
 * with the first issue's path); `decode` answers a promise only when the library does (an async
 * refinement). Outbound messages are validated synchronously and written as the schema's output.
 *
 * @param where - e.g. `WebSocketEndpoint("/chat") inbound`
 * @param schema - the direction's Standard Schema
 * @param io - `input` for a direction the server receives, `output` for one it sends
 */
export function standardCodec(where: string, schema: ForeignSchema, io: 'input' | 'output'): Codec {
  const tags = readTags(where, schema, io);
  const known = new Set(tags);
  const quoted = tags.map((t) => JSON.stringify(t)).join(' | ');
  const unknownType = new Refusal(CloseCode.policyViolation, truncateReason(`expected type ${quoted}`));
  const props = schema['~standard'];
  const typeOf = (value: unknown): unknown =>
    typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  return {
    kind: 'json',
    mayDefer: true,
    binary: false,
    tags,
    // Every tag maps to the one schema: a Channel fits a socket whose outbound is the same schema.
    members: new Map(tags.map((tag) => [tag, schema])),
    decode(data, isBinary) {
      if (isBinary) return EXPECTED_TEXT;
      let parsed: unknown;
      try {
        parsed = JSON.parse(data.toString('utf8'));
      } catch {
        return MALFORMED_JSON;
      }
      const type = typeOf(parsed);
      if (typeof type !== 'string' || !known.has(type)) return unknownType;
      let result: ReturnType<typeof props.validate>;
      try {
        result = props.validate(parsed);
      } catch {
        // The schema's own code threw: answered as a 1011 close (the handler never sees the frame).
        return VALIDATION_FAILED;
      }
      if (result instanceof Promise)
        return result.then(
          (r) => settleInbound(r, parsed),
          () => VALIDATION_FAILED,
        );
      return settleInbound(result, parsed);
    },
    encode(message) {
      const type = typeOf(message);
      if (typeof type !== 'string' || !known.has(type))
        throw new TypeError(`${where}: an outbound message needs a "type" of ${quoted}`);
      const result = props.validate(message);
      if (result instanceof Promise) {
        // An async schema cannot check a message as it is sent; its rejection is this TypeError's.
        result.catch(() => undefined);
        throw new TypeError(
          `${where}: the outbound schema validates asynchronously; sent messages are checked synchronously`,
        );
      }
      if (result.issues)
        throw new TypeError(
          `${where}: an outbound ${type} does not match its schema: ${standardReason('json', result.issues, message).reason}`,
        );
      return JSON.stringify(result.value);
    },
  };
}
