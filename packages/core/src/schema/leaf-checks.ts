// The leaves a generated serializer (or checked copy) checks inline: strings, finite numbers and
// booleans, nullable or not (wiring only: the code they give runs, not this file).
import { unwrap, type SchemaNode } from './introspect';

/** How a leaf field is checked and written; `x` is the variable holding it. */
export interface Leaf {
  /** Written between quotes that join the constant text around it (a string): one concatenation, not three. */
  readonly quoted?: boolean;
  /** True when `x` does not fit (the value is checked, never trusted). */
  readonly bad: (x: string) => string;
  /** The JSON text of a fitting `x`. */
  readonly text: (x: string) => string;
  /** What the field expects, for the error message. */
  readonly expected: string;
}

export function leafOf(schema: SchemaNode): Leaf | undefined {
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
