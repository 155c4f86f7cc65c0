import type * as v from 'valibot';
import { isOptional, node, unwrap, type SchemaNode } from './introspect';
import { leafOf } from './leaf-checks';
import { compileCheckedCopy, CHECKED_COPY } from './checked-copy';
import { kindOf, mismatch, otherThan, ResponseShapeError } from './response-shape-error';
import { discriminatorOf, type Discriminator } from './tagged-union';
import type { AnySchema } from '../contract/standard-schema';
import { isStandardSchema } from './standard';
import { standardSerializer } from './standard-serializer';

/** Encodes a value to JSON text, emitting only what its schema declares. */
export type Serializer = (value: unknown) => string;

const stringify: Serializer = (value) => JSON.stringify(value) ?? 'null';

/**
 * Generated code for strict object serializers (responses): one function per object schema whose
 * fields are all required, with constant-key reads, the checks of string, number, boolean and
 * literal fields inlined, and the text built as one concatenation. Same output and the same
 * `ResponseShapeError`s (through `fail`) as the closure version in `serializer.ts`, which still
 * serves every other shape. Keys enter the code only as `JSON.stringify` output.
 */

// One regex test is cheaper than JSON.stringify for the usual short string with nothing to escape.
// eslint-disable-next-line no-control-regex -- control characters are exactly what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
/** The JSON text of a string. */
export function jsonString(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : '"' + s + '"';
}

/** The JSON text of a string without its quotes (the caller's constant text holds them). */
export function jsonStringBody(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s).slice(1, -1) : s;
}

/** Builds the error for field `i` holding `value` (a missing value, or one of the wrong kind). */
export type FieldFailure = (i: number, value: unknown, expected: string) => Error;

/**
 * Generates the strict serializer of an object schema, or returns undefined (the closure version
 * serves it): an optional field, or a runtime without `Function`.
 *
 * @param entries - the object's fields
 * @param nested - the compiled serializer of a field that is not a leaf (objects, arrays, unions, literals)
 * @param notObject - the error for a value that is not an object
 * @param failure - the error for field `i`
 * @param at - adds field `i`'s key to the path of an error thrown by a nested serializer
 */
export function generateStrictObjectSerializer(p: {
  readonly entries: Readonly<Record<string, SchemaNode>>;
  readonly nested: (schema: SchemaNode) => (value: unknown) => string;
  readonly notObject: (value: unknown) => never;
  readonly failure: FieldFailure;
  readonly at: (error: unknown, i: number) => unknown;
}): ((value: unknown) => string) | undefined {
  const keys = Object.keys(p.entries);
  if (keys.length === 0 || keys.some((k) => isOptional(p.entries[k]!))) return undefined;
  const F: Array<(value: unknown) => string> = [];
  const E: string[] = [];
  const lines: string[] = ["if (value === null || typeof value !== 'object') return NOT_OBJECT(value);"];
  // The text as constant pieces and expressions; neighbouring constants are joined below.
  const parts: Array<{ readonly text: string } | { readonly code: string }> = [];
  keys.forEach((key, i) => {
    const x = `v${i}`;
    const k = JSON.stringify(key);
    lines.push(`const ${x} = value[${k}];`);
    lines.push(`if (${x} === undefined) throw FAIL(${i}, ${x}, 'a value (required field)');`);
    const leaf = leafOf(p.entries[key]!);
    if (leaf) {
      E.push(leaf.expected);
      lines.push(`if (${leaf.bad(x)}) throw FAIL(${i}, ${x}, E[${i}]);`);
      parts.push({ text: (i === 0 ? '{' : ',') + k + ':' });
      if (leaf.quoted) parts.push({ text: '"' }, { code: `Q(${x})` }, { text: '"' });
      else parts.push({ code: leaf.text(x) });
    } else {
      E.push('');
      F.push(p.nested(p.entries[key]!));
      lines.push(
        `let t${i}; try { t${i} = F[${F.length - 1}](${x}); } catch (error) { throw AT(error, ${i}); }`,
      );
      parts.push({ text: (i === 0 ? '{' : ',') + k + ':' }, { code: `t${i}` });
    }
  });
  parts.push({ text: '}' });
  lines.push(`return ${concatenation(parts)};`);
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a serializer per schema, built at wiring
    const make = new Function(
      'NOT_OBJECT',
      'FAIL',
      'AT',
      'F',
      'E',
      'S',
      'Q',
      `return function serialize(value) {\n${lines.join('\n')}\n};`,
    ) as (...tables: unknown[]) => (value: unknown) => string;
    return make(p.notObject, p.failure, p.at, F, E, jsonString, jsonStringBody);
  } catch {
    return undefined;
  }
}

/** The code of `parts` concatenated, neighbouring constants joined into one literal (fewer strings per call). */
function concatenation(parts: ReadonlyArray<{ readonly text: string } | { readonly code: string }>): string {
  const out: string[] = [];
  let text = '';
  for (const part of parts) {
    if ('text' in part) {
      text += part.text;
      continue;
    }
    if (text !== '') out.push(JSON.stringify(text));
    text = '';
    // The first piece is always constant text ('{'), so `+` concatenates strings from the start.
    out.push(`(${part.code})`);
  }
  if (text !== '') out.push(JSON.stringify(text));
  return out.join(' + ');
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
 * @param options - `strict`: refuse a value that does not match (responses); `checkedCopy`: build
 *   a strict serializer as one `JSON.stringify` of a checked copy where it can (default: on Bun, see
 *   checked-copy.ts)
 * @example
 * const Created = Struct('Created', { id: v.string() }, { tag: true });
 * const Deleted = Struct('Deleted', { id: v.string() }, { tag: true });
 * const serialize = compileSerializer(v.union([Created, Deleted]), { strict: true });
 * serialize({ id: '1', type: 'Deleted', extra: true }); // '{"type":"Deleted","id":"1"}'
 */
export function compileSerializer(
  schema: AnySchema | undefined,
  options: { readonly strict?: boolean; readonly checkedCopy?: boolean } = {},
): Serializer {
  if (!schema) return stringify;
  const strict = options.strict === true;
  if (isStandardSchema(schema)) return standardSerializer(schema, strict);
  const root = node(schema as v.GenericSchema);
  // Where the runtime writes `JSON.stringify` fastest (checked-copy.ts), the same checks build a copy.
  const copied = strict && (options.checkedCopy ?? CHECKED_COPY) ? compileCheckedCopy(root) : undefined;
  return copied ?? compileNode(root, new Map(), strict);
}

const classSerializers = new WeakMap<object, Serializer>();

/** The compiled serializer of a schema declared on a class (an error's params or body), compiled once per class. */
export function classSerializer(cls: object, schema: AnySchema): Serializer {
  let serialize = classSerializers.get(cls);
  if (serialize === undefined) {
    serialize = compileSerializer(schema);
    classSerializers.set(cls, serialize);
  }
  return serialize;
}
