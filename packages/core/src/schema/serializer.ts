import type * as v from 'valibot';
import { isOptional, node, unwrap, type SchemaNode } from './introspect';
import { generateStrictObjectSerializer, jsonString, jsonStringBody } from './generated-serializer';
import { discriminatorOf, type Discriminator } from './tagged-union';

/** Encodes a value to JSON text, emitting only what its schema declares. */
export type Serializer = (value: unknown) => string;

const stringify: Serializer = (value) => JSON.stringify(value) ?? 'null';

/**
 * A handler's value does not match its declared response schema (strict serializers only): the
 * response is a 500, logged with the JSON path of the mismatch. Never a partial or wrong-shaped body.
 */
export class ResponseShapeError extends Error {
  /** JSON path of the mismatch, e.g. `$.items[2].priceCents`. */
  path: string;
  constructor(
    readonly expected: string,
    readonly received: string,
  ) {
    super();
    this.path = '$';
  }
  override get message(): string {
    return (
      `the value at \`${this.path}\` does not match the declared ` +
      `response schema (expected ${this.expected}, got ${this.received})`
    );
  }
  /** Prepends a key as the error travels up through objects and arrays. */
  at(key: string | number): this {
    const tail = this.path.slice(1);
    this.path =
      typeof key === 'number'
        ? `$[${key}]${tail}`
        : /^[A-Za-z_$][\w$]*$/.test(key)
          ? `$.${key}${tail}`
          : `$[${JSON.stringify(key)}]${tail}`;
    return this;
  }
}

/** A value's JSON kind for shape messages: `null`, `array`, or its `typeof`. */
export function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}
function mismatch(expected: string, value: unknown): never {
  throw new ResponseShapeError(expected, kindOf(value));
}
/** What a value that is not the expected literal is, without quoting it (it may be user data). */
function otherThan(literal: unknown, value: unknown): string {
  const kind = kindOf(value);
  return kind === typeof literal ? `another ${kind}` : kind;
}

function nullable(inner: Serializer): Serializer {
  return (value) => (value === null || value === undefined ? 'null' : inner(value));
}

const number: Serializer = (value) =>
  typeof value === 'number' && Number.isFinite(value)
    ? '' + value
    : typeof value === 'number'
      ? 'null'
      : stringify(value);
const boolean: Serializer = (value) =>
  value === true ? 'true' : value === false ? 'false' : stringify(value);
const string: Serializer = (value) => (typeof value === 'string' ? jsonString(value) : stringify(value));

const strictNumber: Serializer = (value) =>
  typeof value === 'number' && Number.isFinite(value) ? '' + value : mismatch('a finite number', value);
const strictBoolean: Serializer = (value) =>
  value === true ? 'true' : value === false ? 'false' : mismatch('boolean', value);
const strictString: Serializer = (value) =>
  typeof value === 'string' ? jsonString(value) : mismatch('string', value);

/** A strict array of strings: each item's quotes join the constant text around it (one concatenation per item). */
const strictStringArray: Serializer = (value) => {
  if (!Array.isArray(value)) return mismatch('array', value);
  const n = value.length;
  if (n === 0) return '[]';
  let text = '["';
  for (let i = 0; i < n; i++) {
    const item: unknown = value[i];
    if (typeof item !== 'string') throw new ResponseShapeError('string', kindOf(item)).at(i);
    text += i === 0 ? jsonStringBody(item) : '","' + jsonStringBody(item);
  }
  return text + '"]';
};

function compileNode(schema: SchemaNode, seen: Map<SchemaNode, Serializer>, strict = false): Serializer {
  const cached = seen.get(schema);
  if (cached) return cached;
  const s = unwrap(schema);
  const wrappedNullable = s !== schema;
  let out: Serializer;
  switch (s.type) {
    case 'string':
    case 'picklist':
      out = s.type === 'string' ? (strict ? strictString : string) : stringify;
      break;
    case 'number':
      out = strict ? strictNumber : number;
      break;
    case 'boolean':
      out = strict ? strictBoolean : boolean;
      break;
    case 'literal': {
      // A tagged Struct's `type` and other constants: the text is known at wiring.
      const literal = s.literal;
      const text = typeof literal === 'bigint' ? undefined : JSON.stringify(literal);
      out =
        strict && text !== undefined
          ? (value) => {
              if (value === literal) return text;
              throw new ResponseShapeError(text, otherThan(literal, value));
            }
          : stringify;
      break;
    }
    case 'union':
    case 'variant': {
      const discriminator = discriminatorOf(s);
      out = discriminator ? compileDispatch(discriminator, seen, strict) : stringify;
      break;
    }
    case 'object':
    case 'strict_object':
    case 'loose_object': {
      // A forward reference lets recursive (lazy) structures compile once.
      let self: Serializer = stringify;
      seen.set(schema, (value) => self(value));
      self = compileObject(s.entries ?? {}, seen, strict);
      out = self;
      break;
    }
    case 'array': {
      if (strict && s.item !== undefined && s.item.type === 'string') {
        out = strictStringArray;
        break;
      }
      const item = s.item ? compileNode(s.item, seen, strict) : stringify;
      out = (value) => {
        if (!Array.isArray(value)) return strict ? mismatch('array', value) : stringify(value);
        if (value.length === 0) return '[]';
        let i = 0;
        try {
          let text = '[' + item(value[0]);
          for (i = 1; i < value.length; i++) text += ',' + item(value[i]);
          return text + ']';
        } catch (error) {
          throw error instanceof ResponseShapeError ? error.at(i) : error;
        }
      };
      break;
    }
    default:
      out = stringify;
  }
  if (wrappedNullable && out !== stringify) out = nullable(out);
  seen.set(schema, out);
  return out;
}

/**
 * A union of tagged Structs (or a variant on a literal key): one map lookup on the value's tag
 * picks the member's compiled serializer, decided at wiring. A value naming no member is a
 * `ResponseShapeError` at the tag's path (strict), or written as it is (lenient, as before).
 */
function compileDispatch(
  discriminator: Discriminator,
  seen: Map<SchemaNode, Serializer>,
  strict: boolean,
): Serializer {
  const { key } = discriminator;
  const byTag = new Map<unknown, Serializer>();
  for (const [tag, member] of discriminator.members) byTag.set(tag, compileNode(member, seen, strict));
  const expected = [...byTag.keys()].map((tag) => JSON.stringify(tag)).join(' | ');
  const sample = byTag.keys().next().value;
  return (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return strict ? mismatch('object', value) : stringify(value);
    const tag = (value as Record<string, unknown>)[key];
    const serialize = byTag.get(tag);
    if (serialize !== undefined) return serialize(value);
    if (!strict) return stringify(value);
    throw new ResponseShapeError(
      `${expected} (the union's members)`,
      tag === undefined ? 'nothing' : otherThan(sample, tag),
    ).at(key);
  };
}

function compileObject(
  entries: Record<string, SchemaNode>,
  seen: Map<SchemaNode, Serializer>,
  strict: boolean,
): Serializer {
  const keys = Object.keys(entries);
  if (strict) {
    const generated = generateStrictObjectSerializer({
      entries,
      nested: (schema) => compileNode(schema, seen, strict),
      notObject: (value) => mismatch('object', value),
      failure: (i, value, expected) => new ResponseShapeError(expected, kindOf(value)).at(keys[i]!),
      at: (error, i) => (error instanceof ResponseShapeError ? error.at(keys[i]!) : error),
    });
    if (generated) return generated;
  }
  const prefixes = keys.map((k) => JSON.stringify(k) + ':');
  const fields = keys.map((k) => compileNode(entries[k]!, seen, strict));
  const required = keys.map((k) => strict && !isOptional(entries[k]!));
  const n = keys.length;
  return (value) => {
    if (value === null || typeof value !== 'object')
      return strict ? mismatch('object', value) : stringify(value);
    const obj = value as Record<string, unknown>;
    let text = '{';
    let first = true;
    let i = 0;
    try {
      for (; i < n; i++) {
        const field = obj[keys[i]!];
        if (field === undefined) {
          if (required[i]) mismatch('a value (required field)', undefined);
          continue;
        }
        if (first) first = false;
        else text += ',';
        text += prefixes[i]! + fields[i]!(field);
      }
    } catch (error) {
      throw error instanceof ResponseShapeError ? error.at(keys[i]!) : error;
    }
    return text + '}';
  };
}

/**
 * Compiles a serializer for a schema once, at wiring: objects emit exactly their declared
 * fields in declaration order (never extra properties a handler's object carries); a union of
 * tagged Structs (`Struct(name, entries, { tag: true })`, or a `v.variant` on a literal key)
 * dispatches on the value's tag to its member's serializer, so `"type":"<Name>"` comes first;
 * other shapes (untagged unions included) fall back to `JSON.stringify`. `strict` (responses)
 * throws a `ResponseShapeError` naming the JSON path when a string, number, boolean, literal,
 * object or array field holds something else, a required field is missing, or a tag names no
 * member of its union. Only unions pay for the dispatch: every other shape compiles as before.
 *
 * @param schema - the declared schema (`undefined`: `JSON.stringify`)
 * @param options - `strict`: refuse a value that does not match (responses)
 * @example
 * const Created = Struct('Created', { id: v.string() }, { tag: true });
 * const Deleted = Struct('Deleted', { id: v.string() }, { tag: true });
 * const serialize = compileSerializer(v.union([Created, Deleted]), { strict: true });
 * serialize({ id: '1', type: 'Deleted', extra: true }); // '{"type":"Deleted","id":"1"}'
 */
export function compileSerializer(
  schema: v.GenericSchema | undefined,
  options: { readonly strict?: boolean } = {},
): Serializer {
  if (!schema) return stringify;
  return compileNode(node(schema), new Map(), options.strict === true);
}

const classSerializers = new WeakMap<object, Serializer>();

/** The compiled serializer of a schema declared on a class (an error's params or body), compiled once per class. */
export function classSerializer(cls: object, schema: v.GenericSchema): Serializer {
  let serialize = classSerializers.get(cls);
  if (serialize === undefined) {
    serialize = compileSerializer(schema);
    classSerializers.set(cls, serialize);
  }
  return serialize;
}
