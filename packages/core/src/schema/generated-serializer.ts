import { isOptional, unwrap, type SchemaNode } from './introspect';

/**
 * Generated code for strict object serializers (responses): one function per object schema whose
 * fields are all required, with constant-key reads, the checks of string, number, boolean and
 * literal fields inlined, and the text built as one concatenation. Same output and the same
 * `ResponseShapeError`s (through `fail`) as the closure version in `serializer.ts`, which still
 * serves every other shape. Keys enter the code only as `JSON.stringify` output.
 */

/** How a leaf field is checked and written; `x` is the variable holding it. */
interface Leaf {
  /** Written between quotes that join the constant text around it (a string): one concatenation, not three. */
  readonly quoted?: boolean;
  /** True when `x` does not fit (the value is checked, never trusted). */
  readonly bad: (x: string) => string;
  /** The JSON text of a fitting `x`. */
  readonly text: (x: string) => string;
  /** What the field expects, for the error message. */
  readonly expected: string;
}

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

function leafOf(schema: SchemaNode): Leaf | undefined {
  const s = unwrap(schema);
  const nullable = s !== schema;
  let leaf: Leaf;
  switch (s.type) {
    case 'string':
      leaf = {
        bad: (x) => `typeof ${x} !== 'string'`,
        text: (x) => `S(${x})`,
        quoted: true,
        expected: 'string',
      };
      break;
    case 'number':
      leaf = {
        bad: (x) => `typeof ${x} !== 'number' || !Number.isFinite(${x})`,
        text: (x) => `('' + ${x})`,
        expected: 'a finite number',
      };
      break;
    case 'boolean':
      leaf = {
        bad: (x) => `(${x} !== true && ${x} !== false)`,
        text: (x) => `(${x} ? 'true' : 'false')`,
        expected: 'boolean',
      };
      break;
    default:
      return undefined;
  }
  if (!nullable) return leaf;
  return {
    // null has no quotes: a nullable string writes its own.
    bad: (x) => `${x} !== null && (${leaf.bad(x)})`,
    text: (x) => `(${x} === null ? 'null' : ${leaf.text(x)})`,
    expected: leaf.expected,
  };
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
