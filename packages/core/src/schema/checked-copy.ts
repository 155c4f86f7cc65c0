// A strict serializer's other form: one `JSON.stringify` of a checked copy, where that is what the
// runtime writes fastest (JavaScriptCore: Bun). Same checks, same errors, same text.
import { kindOf, mismatch, otherThan, ResponseShapeError } from './response-shape-error';
import { isOptional, unwrap, type SchemaNode } from './introspect';
import { leafOf } from './leaf-checks';

/**
 * True where strict serializers write one `JSON.stringify` of a checked copy instead of a generated
 * concatenation: on JavaScriptCore (Bun). There the concatenation is a rope that the `Response`
 * (or `Buffer.byteLength`) then flattens, while `JSON.stringify` writes flat text at once: measured
 * in-process (bench/src/fetch-micro.mjs) at ×0.88 the CPU of a `GET /info` and ×0.90 of a
 * `POST /movies` on Bun; on V8 (Node, Deno, workerd) the concatenation is as fast or faster, so it
 * stays. Decided once, here: the serializers' only per-runtime seam.
 */
export const CHECKED_COPY: boolean = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';

/** Returns a checked copy of a value (throws the `ResponseShapeError` a strict serializer throws). */
type Copy = (value: unknown) => unknown;

/**
 * The strict serializer of a schema as `JSON.stringify(copy(value))`, or undefined when some part
 * of the shape has no checked copy (the generated concatenation serves it): objects whose fields
 * are all required, each a string, finite number, boolean, literal, array of strings, or such an
 * object or array of them (nullable or not), and no `__proto__` field (an object literal would set
 * the prototype instead). Index keys come first in both `Object.keys` and a literal: same order.
 */
export function compileCheckedCopy(schema: SchemaNode): ((value: unknown) => string) | undefined {
  const copy = copyOf(schema, new Set());
  if (copy === undefined) return undefined;
  return (value) => JSON.stringify(copy(value));
}

function copyOf(schema: SchemaNode, open: Set<SchemaNode>): Copy | undefined {
  const s = unwrap(schema);
  let copy: Copy | undefined;
  switch (s.type) {
    case 'literal': {
      const literal = s.literal;
      if (typeof literal !== 'string' && typeof literal !== 'number' && typeof literal !== 'boolean')
        return undefined;
      const text = JSON.stringify(literal);
      copy = (value) => {
        if (value === literal) return value;
        throw new ResponseShapeError(text, otherThan(literal, value));
      };
      break;
    }
    case 'array': {
      if (s.item === undefined) return undefined;
      if (unwrap(s.item) === s.item && s.item.type === 'string') {
        copy = stringArrayCopy;
        break;
      }
      const item = copyOf(s.item, open);
      copy = item && arrayCopy(item);
      break;
    }
    case 'object':
    case 'strict_object':
    case 'loose_object':
      // A recursive (lazy) shape: the concatenation serves it.
      if (open.has(s)) return undefined;
      copy = objectCopy(s.entries ?? {}, open.add(s));
      open.delete(s);
      break;
    default:
      return undefined;
  }
  if (copy === undefined || s === schema) return copy;
  const inner = copy;
  return (value) => (value === null || value === undefined ? null : inner(value));
}

/** An array of strings, checked item by item, is its own copy (`JSON.stringify` writes only its items). */
const stringArrayCopy: Copy = (value) => {
  if (!Array.isArray(value)) return mismatch('array', value);
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (typeof item !== 'string') throw new ResponseShapeError('string', kindOf(item)).at(i);
  }
  // An own `toJSON` would be called by JSON.stringify: the items alone are copied then.
  return (value as { toJSON?: unknown }).toJSON === undefined
    ? (value as unknown)
    : Array.from(value as string[]);
};

/** An array of checked copies; a mismatch names its index. */
function arrayCopy(item: Copy): Copy {
  return (value) => {
    if (!Array.isArray(value)) return mismatch('array', value);
    const n = value.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      try {
        out[i] = item(value[i]);
      } catch (error) {
        throw error instanceof ResponseShapeError ? error.at(i) : error;
      }
    }
    return out;
  };
}

/** The generated copy of an object: constant-key reads, inline leaf checks, one object literal. */
function objectCopy(entries: Readonly<Record<string, SchemaNode>>, open: Set<SchemaNode>): Copy | undefined {
  const keys = Object.keys(entries);
  if (keys.length === 0 || keys.some((k) => k === '__proto__' || isOptional(entries[k]!))) return undefined;
  const F: Copy[] = [];
  const E: string[] = [];
  const lines: string[] = ["if (value === null || typeof value !== 'object') return NOT_OBJECT(value);"];
  const fields: string[] = [];
  for (let i = 0; i < keys.length; i++) {
    const k = JSON.stringify(keys[i]);
    const x = `v${i}`;
    lines.push(`const ${x} = value[${k}];`);
    lines.push(`if (${x} === undefined) throw FAIL(${i}, ${x}, 'a value (required field)');`);
    const leaf = leafOf(entries[keys[i]!]!);
    if (leaf) {
      E.push(leaf.expected);
      lines.push(`if (${leaf.bad(x)}) throw FAIL(${i}, ${x}, E[${i}]);`);
      fields.push(`${k}: ${x}`);
      continue;
    }
    E.push('');
    const nested = copyOf(entries[keys[i]!]!, open);
    if (nested === undefined) return undefined;
    F.push(nested);
    lines.push(
      `let t${i}; try { t${i} = F[${F.length - 1}](${x}); } catch (error) { throw AT(error, ${i}); }`,
    );
    fields.push(`${k}: t${i}`);
  }
  lines.push(`return { ${fields.join(', ')} };`);
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a copy per schema, built at wiring
    const make = new Function(
      'NOT_OBJECT',
      'FAIL',
      'AT',
      'F',
      'E',
      `return function copy(value) {\n${lines.join('\n')}\n};`,
    ) as (...tables: unknown[]) => Copy;
    return make(
      (value: unknown) => mismatch('object', value),
      (i: number, value: unknown, expected: string) =>
        new ResponseShapeError(expected, kindOf(value)).at(keys[i]!),
      (error: unknown, i: number) => (error instanceof ResponseShapeError ? error.at(keys[i]!) : error),
      F,
      E,
    );
  } catch {
    // A runtime without `Function` (a locked-down Worker): the closure serializer serves it.
    return undefined;
  }
}
