import type * as v from 'valibot';
import type { SchemaNode } from './introspect';
import { generateObjectValidator } from './fast-object';
import { discriminatorOf } from './tagged-union';

/** Returned by a fast validator when the value does not pass (the caller falls back to valibot for issues). */
export const FAIL: unique symbol = Symbol('fail');

/** Validates and returns the output valibot would produce, or `FAIL`. */
export type FastValidator = (input: unknown) => unknown;

interface Action {
  readonly kind: string;
  readonly type: string;
  readonly requirement?: unknown;
}
type Check = (value: never) => boolean;

function checksFor(pipe: readonly Action[] | undefined): Check[] | undefined {
  const checks: Check[] = [];
  for (const action of (pipe ?? []).slice(1)) {
    if (action.kind === 'metadata') continue;
    if (action.kind !== 'validation') return undefined; // a transformation: valibot only
    const r = action.requirement;
    switch (action.type) {
      case 'min_length':
        checks.push((x: { length: number }) => x.length >= (r as number));
        break;
      case 'max_length':
        checks.push((x: { length: number }) => x.length <= (r as number));
        break;
      case 'length':
        checks.push((x: { length: number }) => x.length === (r as number));
        break;
      case 'non_empty':
        checks.push((x: { length: number }) => x.length > 0);
        break;
      case 'min_value':
        checks.push((x: number) => x >= (r as number));
        break;
      case 'max_value':
        checks.push((x: number) => x <= (r as number));
        break;
      case 'integer':
        // Safe integers only: anything past 2^53 goes to valibot, and then to the safe-integer check.
        checks.push((x: number) => Number.isSafeInteger(x));
        break;
      case 'safe_integer':
        checks.push((x: number) => Number.isSafeInteger(x));
        break;
      case 'finite':
        checks.push((x: number) => Number.isFinite(x));
        break;
      case 'regex':
        checks.push((x: string) => {
          const re = r as RegExp;
          re.lastIndex = 0;
          return re.test(x);
        });
        break;
      default:
        return undefined;
    }
  }
  return checks;
}

function withChecks(base: (input: unknown) => boolean, checks: Check[]): FastValidator {
  if (checks.length === 0) return (input) => (base(input) ? input : FAIL);
  return (input) => {
    if (!base(input)) return FAIL;
    for (const check of checks) if (!check(input as never)) return FAIL;
    return input;
  };
}

function compile(schema: SchemaNode): FastValidator | undefined {
  const node = schema as SchemaNode & { readonly async?: boolean; readonly pipe?: readonly Action[] };
  if (node.async) return undefined;
  const checks = checksFor(node.pipe);
  if (!checks) return undefined;
  switch (node.type) {
    case 'string':
      return withChecks((x) => typeof x === 'string', checks);
    case 'number':
      return withChecks((x) => typeof x === 'number' && !Number.isNaN(x), checks);
    case 'boolean':
      return withChecks((x) => typeof x === 'boolean', checks);
    case 'literal': {
      const literal = node.literal;
      return withChecks((x) => x === literal, checks);
    }
    case 'picklist': {
      const options = new Set(node.options as readonly unknown[]);
      return withChecks((x) => options.has(x), checks);
    }
    case 'nullable':
    case 'optional':
    case 'nullish': {
      if (!node.wrapped) return undefined;
      const inner = compile(node.wrapped);
      if (!inner || checks.length > 0) return undefined;
      const hasDefault = node.default !== undefined;
      const fallback = node.default;
      const accepts = (x: unknown): boolean =>
        node.type === 'nullable'
          ? x === null
          : node.type === 'optional'
            ? x === undefined
            : x === null || x === undefined;
      return (input) => {
        if (accepts(input)) {
          if (hasDefault && (input === undefined || node.type !== 'optional')) {
            // valibot: optional → default for undefined; nullable → default for null; nullish → for both
            return typeof fallback === 'function' ? (fallback as () => unknown)() : fallback;
          }
          return input;
        }
        return inner(input);
      };
    }
    case 'array': {
      const item = node.item ? compile(node.item) : undefined;
      if (!item) return undefined;
      return (input) => {
        if (!Array.isArray(input)) return FAIL;
        const list = input as unknown[];
        let out: unknown[] | undefined;
        for (let i = 0; i < list.length; i++) {
          const value = list[i];
          const parsed = item(value);
          if (parsed === FAIL) return FAIL;
          if (parsed !== value) (out ??= list.slice(0, i))[i] = parsed;
          else if (out) out[i] = parsed;
        }
        const result: unknown[] = out ?? list.slice();
        for (const check of checks) if (!check(result as never)) return FAIL;
        return result;
      };
    }
    case 'object': {
      const entries = Object.entries(node.entries ?? {});
      const fields: [string, FastValidator, boolean][] = [];
      for (const [key, entry] of entries) {
        const field = compile(entry);
        if (!field) return undefined;
        const t = entry.type;
        fields.push([key, field, t === 'optional' || t === 'nullish' || t === 'exact_optional']);
      }
      if (checks.length > 0) return undefined;
      const generated = generateObjectValidator(node.entries ?? {}, compile, FAIL);
      if (generated) return generated;
      return (input) => {
        if (input === null || typeof input !== 'object' || Array.isArray(input)) return FAIL;
        const obj = input as Record<string, unknown>;
        const out: Record<string, unknown> = {};
        for (const [key, field, optional] of fields) {
          const present = key in obj;
          const value = present ? obj[key] : undefined;
          const parsed = field(value);
          if (parsed === FAIL) return FAIL;
          // valibot keeps an optional key absent when it was absent and has no default
          if (parsed !== undefined || present || !optional) out[key] = parsed;
        }
        return out;
      };
    }
    case 'union':
    case 'variant': {
      // A union of tagged Structs (or a variant on a literal key): the tag picks the one member
      // that can accept the value. Anything it refuses, valibot re-checks (all members, in order).
      const discriminator = discriminatorOf(node);
      if (!discriminator || checks.length > 0) return undefined;
      const byTag = new Map<unknown, FastValidator>();
      for (const [tag, member] of discriminator.members) {
        const validate = compile(member);
        if (!validate) return undefined;
        byTag.set(tag, validate);
      }
      const key = discriminator.key;
      return (input) => {
        if (input === null || typeof input !== 'object') return FAIL;
        const validate = byTag.get((input as Record<string, unknown>)[key]);
        return validate === undefined ? FAIL : validate(input);
      };
    }
    default:
      return undefined;
  }
}

/**
 * Compiles a fast validator for the common subset of valibot schemas (objects, arrays, strings,
 * numbers, booleans, literals, picklists, optional/nullable wrappers with defaults, unions of
 * tagged Structs and variants on a literal key, and the length, range, integer and regex checks).
 * It decides only the *valid* case — a `FAIL` means "ask valibot", which then produces the issues.
 * Returns undefined for anything outside the subset (transforms, other unions, custom checks),
 * where valibot runs alone.
 */
export function compileFastValidator(schema: v.GenericSchema): FastValidator | undefined {
  return compile(schema);
}
