import type * as v from 'valibot';
import { node, unwrap, type SchemaNode } from './introspect';

/** Encodes a value to JSON text, emitting only what its schema declares. */
export type Serializer = (value: unknown) => string;

const stringify: Serializer = (value) => JSON.stringify(value) ?? 'null';

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
const string: Serializer = (value) => (typeof value === 'string' ? JSON.stringify(value) : stringify(value));

function compileNode(schema: SchemaNode, seen: Map<SchemaNode, Serializer>): Serializer {
  const cached = seen.get(schema);
  if (cached) return cached;
  const s = unwrap(schema);
  const wrappedNullable = s !== schema;
  let out: Serializer;
  switch (s.type) {
    case 'string':
    case 'picklist':
      out = s.type === 'string' ? string : stringify;
      break;
    case 'number':
      out = number;
      break;
    case 'boolean':
      out = boolean;
      break;
    case 'object':
    case 'strict_object':
    case 'loose_object': {
      // A forward reference lets recursive (lazy) structures compile once.
      let self: Serializer = stringify;
      seen.set(schema, (value) => self(value));
      self = compileObject(s.entries ?? {}, seen);
      out = self;
      break;
    }
    case 'array': {
      const item = s.item ? compileNode(s.item, seen) : stringify;
      out = (value) => {
        if (!Array.isArray(value)) return stringify(value);
        if (value.length === 0) return '[]';
        let text = '[' + item(value[0]);
        for (let i = 1; i < value.length; i++) text += ',' + item(value[i]);
        return text + ']';
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

function compileObject(entries: Record<string, SchemaNode>, seen: Map<SchemaNode, Serializer>): Serializer {
  const keys = Object.keys(entries);
  const prefixes = keys.map((k) => JSON.stringify(k) + ':');
  const fields = keys.map((k) => compileNode(entries[k]!, seen));
  const n = keys.length;
  return (value) => {
    if (value === null || typeof value !== 'object') return stringify(value);
    const obj = value as Record<string, unknown>;
    let text = '{';
    let first = true;
    for (let i = 0; i < n; i++) {
      const field = obj[keys[i]!];
      if (field === undefined) continue;
      if (first) first = false;
      else text += ',';
      text += prefixes[i]! + fields[i]!(field);
    }
    return text + '}';
  };
}

/**
 * Compiles a serializer for a schema once, at wiring: objects emit exactly their declared
 * fields in declaration order (never extra properties a handler's object carries); other
 * shapes fall back to `JSON.stringify`.
 */
export function compileSerializer(schema: v.GenericSchema | undefined): Serializer {
  if (!schema) return stringify;
  return compileNode(node(schema), new Map());
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
