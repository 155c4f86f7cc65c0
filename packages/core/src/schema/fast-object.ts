import type { SchemaNode } from './introspect';

/**
 * Generated code for the object validators of `fast-validate.ts`: one function per object schema
 * with its fields read by constant keys (monomorphic loads), the checks of leaf fields (strings,
 * numbers, booleans, literals, picklists and arrays of them) inlined, and the output built as one
 * object literal when no field may be absent. Same semantics as the closure version it replaces:
 * it decides the valid case only and answers `FAIL` for anything else.
 *
 * Keys and literal values enter the code only through `JSON.stringify` (a string literal); any
 * other requirement (a RegExp, a Set, a non-finite number) is passed in the `R` table. A schema
 * with a `__proto__` key is not generated (an object literal would set the prototype).
 */

interface Action {
  readonly kind: string;
  readonly type: string;
  readonly requirement?: unknown;
}

/** A compiled field validator, or undefined when the closure compiler cannot take the schema. */
type Compile = (schema: SchemaNode) => ((input: unknown) => unknown) | undefined;

/** Accumulates the tables the generated code reads. */
class Tables {
  readonly F: Array<(input: unknown) => unknown> = [];
  readonly R: unknown[] = [];
  ref(value: unknown): string {
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    this.R.push(value);
    return `R[${this.R.length - 1}]`;
  }
}

/** Boolean expressions ("passes") for a pipe's validation actions on `x`; undefined when unsupported. */
function checkExprs(pipe: readonly Action[] | undefined, x: string, t: Tables): string[] | undefined {
  const out: string[] = [];
  for (const action of (pipe ?? []).slice(1)) {
    if (action.kind === 'metadata') continue;
    if (action.kind !== 'validation') return undefined;
    const r = action.requirement;
    switch (action.type) {
      case 'min_length':
        out.push(`${x}.length >= ${t.ref(r)}`);
        break;
      case 'max_length':
        out.push(`${x}.length <= ${t.ref(r)}`);
        break;
      case 'length':
        out.push(`${x}.length === ${t.ref(r)}`);
        break;
      case 'non_empty':
        out.push(`${x}.length > 0`);
        break;
      case 'min_value':
        out.push(`${x} >= ${t.ref(r)}`);
        break;
      case 'max_value':
        out.push(`${x} <= ${t.ref(r)}`);
        break;
      case 'integer':
      case 'safe_integer':
        // Safe integers only: anything past 2^53 goes to valibot, and then to the safe-integer check.
        out.push(`Number.isSafeInteger(${x})`);
        break;
      case 'finite':
        out.push(`Number.isFinite(${x})`);
        break;
      case 'regex': {
        const re = t.ref(r);
        out.push(`(${re}.lastIndex = 0, ${re}.test(${x}))`);
        break;
      }
      default:
        return undefined;
    }
  }
  return out;
}

/** The "passes" expression of a scalar schema on `x`, or undefined when it is not one we inline. */
function scalarExpr(schema: SchemaNode, x: string, t: Tables): string | undefined {
  const node = schema as SchemaNode & { readonly async?: boolean; readonly pipe?: readonly Action[] };
  if (node.async) return undefined;
  let base: string;
  switch (node.type) {
    case 'string':
      base = `typeof ${x} === 'string'`;
      break;
    case 'number':
      base = `typeof ${x} === 'number' && !Number.isNaN(${x})`;
      break;
    case 'boolean':
      base = `typeof ${x} === 'boolean'`;
      break;
    case 'literal': {
      const literal = node.literal;
      const inline =
        typeof literal === 'string' ||
        typeof literal === 'boolean' ||
        (typeof literal === 'number' && Number.isFinite(literal));
      base = `${x} === ${inline ? JSON.stringify(literal) : t.ref(literal)}`;
      break;
    }
    case 'picklist':
      base = `${t.ref(new Set(node.options as readonly unknown[]))}.has(${x})`;
      break;
    default:
      return undefined;
  }
  const checks = checkExprs(node.pipe, x, t);
  if (checks === undefined) return undefined;
  return [base, ...checks].map((c) => `(${c})`).join(' && ');
}

/** A leaf: a scalar, or an array of scalars (copied on output, as valibot does). */
interface Leaf {
  /** Statements that `return FAIL` when `x` does not pass. */
  readonly statements: string[];
  readonly isArray: boolean;
}

function leaf(schema: SchemaNode, x: string, t: Tables): Leaf | undefined {
  const scalar = scalarExpr(schema, x, t);
  if (scalar !== undefined) return { statements: [`if (!(${scalar})) return FAIL;`], isArray: false };
  const node = schema as SchemaNode & { readonly async?: boolean; readonly pipe?: readonly Action[] };
  if (node.type !== 'array' || node.async || !node.item) return undefined;
  const item = scalarExpr(node.item, 'e', t);
  const checks = checkExprs(node.pipe, x, t);
  if (item === undefined || checks === undefined) return undefined;
  const statements = [
    `if (!Array.isArray(${x})) return FAIL;`,
    `for (let j = 0; j < ${x}.length; j++) { const e = ${x}[j]; if (!(${item})) return FAIL; }`,
  ];
  if (checks.length > 0) statements.push(`if (!(${checks.map((c) => `(${c})`).join(' && ')})) return FAIL;`);
  return { statements, isArray: true };
}

/** An optional wrapper without a default around a leaf: the key may be absent. */
function optionalLeaf(schema: SchemaNode): SchemaNode | undefined {
  const node = schema as SchemaNode & { readonly pipe?: readonly Action[] };
  if (node.type !== 'optional' || node.default !== undefined || !node.wrapped) return undefined;
  if ((node.pipe ?? []).length > 0) return undefined;
  return node.wrapped;
}

/**
 * Generates the validator of an object schema, or returns undefined (the caller keeps its closure
 * version): a `__proto__` key, a field neither inlinable nor compilable, or no `Function` (a
 * runtime that forbids code generation).
 */
export function generateObjectValidator(
  entries: Readonly<Record<string, SchemaNode>>,
  compile: Compile,
  fail: symbol,
): ((input: unknown) => unknown) | undefined {
  const keys = Object.keys(entries);
  if (keys.includes('__proto__')) return undefined;
  const t = new Tables();
  const lines: string[] = [];
  const outputs: string[] = [];
  const literal: string[] = [];
  let maybeAbsent = false;
  let unsupported = false;
  keys.forEach((key, i) => {
    const k = JSON.stringify(key);
    const entry = entries[key]!;
    const v = `v${i}`;
    const optional = optionalLeaf(entry);
    const inlined = leaf(optional ?? entry, v, t);
    if (inlined !== undefined) {
      const value = inlined.isArray ? `${v}.slice()` : v;
      if (optional !== undefined) {
        maybeAbsent = true;
        lines.push(`const h${i} = ${k} in input;`, `const ${v} = h${i} ? input[${k}] : undefined;`);
        lines.push(`if (${v} !== undefined) { ${inlined.statements.join(' ')} }`);
        outputs.push(`if (${v} !== undefined) out[${k}] = ${value}; else if (h${i}) out[${k}] = undefined;`);
      } else {
        lines.push(`const ${v} = input[${k}];`, ...inlined.statements);
        outputs.push(`out[${k}] = ${value};`);
        literal.push(`${k}: ${value}`);
      }
      return;
    }
    const field = compile(entry);
    if (field === undefined) {
      unsupported = true;
      return;
    }
    t.F.push(field);
    const f = `F[${t.F.length - 1}]`;
    if (entry.type === 'optional' || entry.type === 'nullish') {
      maybeAbsent = true;
      lines.push(`const h${i} = ${k} in input;`, `const ${v} = ${f}(h${i} ? input[${k}] : undefined);`);
      outputs.push(`if (${v} !== undefined || h${i}) out[${k}] = ${v};`);
    } else {
      lines.push(`const ${v} = ${f}(input[${k}]);`);
      outputs.push(`out[${k}] = ${v};`);
      literal.push(`${k}: ${v}`);
    }
    lines.push(`if (${v} === FAIL) return FAIL;`);
  });
  if (unsupported) return undefined;
  // One object literal when every key is always present (a fixed shape); else keys in schema order.
  const body = maybeAbsent
    ? ['const out = {};', ...outputs, 'return out;']
    : [`return { ${literal.join(', ')} };`];
  const source = [
    "if (input === null || typeof input !== 'object' || Array.isArray(input)) return FAIL;",
    ...lines,
    ...body,
  ].join('\n');
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a validator per schema, built at wiring
    const make = new Function('FAIL', 'F', 'R', `return function validate(input) {\n${source}\n};`) as (
      fail: symbol,
      f: unknown[],
      r: unknown[],
    ) => (input: unknown) => unknown;
    return make(fail, t.F, t.R);
  } catch {
    return undefined;
  }
}
