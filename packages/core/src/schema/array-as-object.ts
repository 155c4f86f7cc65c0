import * as v from 'valibot';
import { unwrap, type SchemaNode } from './introspect';

type PathItem = { readonly key: string | number; readonly value: unknown };
/** Finds the first array given where an object or a record is declared; its path, or undefined. */
export type ArrayAsObjectFinder = (value: unknown) => PathItem[] | undefined;

/** The schema node fields this walk reads beyond `SchemaNode`. */
interface Node extends SchemaNode {
  readonly key?: SchemaNode;
  readonly value?: SchemaNode;
  readonly rest?: SchemaNode;
  readonly getter?: (input: unknown) => SchemaNode;
}

const OBJECTS: ReadonlySet<string> = new Set(['object', 'loose_object', 'strict_object', 'object_with_rest']);
const TUPLES: ReadonlySet<string> = new Set(['tuple', 'loose_tuple', 'strict_tuple', 'tuple_with_rest']);
const MEMBERS: ReadonlySet<string> = new Set(['union', 'variant']);

/**
 * Compiles, at wiring, a check that no array stands where a schema declares an object or a record.
 * Valibot's `object` and `record` accept any non-null object, arrays included: `["x"]` given to
 * `v.record(v.string(), v.string())` would bind as `{ "0": "x" }`, and `[]` given to a Struct of
 * optional fields as `{}`. An array is not a record: the binder answers 422 naming the field.
 * The check reads the value valibot accepted (the input: arrays are gone from its output); a union
 * follows the member valibot picked (its first that accepts). Undefined when the schema declares
 * no object or record (nothing to check).
 *
 * @param schema - The schema a binder validates against.
 * @example
 * const find = compileArrayAsObjectFinder(v.object({ labels: v.record(v.string(), v.string()) }));
 * find!({ labels: ['x'] }); // [{ key: 'labels', value: ['x'] }]
 */
export function compileArrayAsObjectFinder(
  schema: v.GenericSchema | SchemaNode,
): ArrayAsObjectFinder | undefined {
  return compile(schema, new Map());
}

function compile(
  schema: SchemaNode,
  seen: Map<SchemaNode, ArrayAsObjectFinder | undefined>,
): ArrayAsObjectFinder | undefined {
  const s = unwrap(schema) as Node;
  if (seen.has(s)) return seen.get(s);
  // A schema that refers to itself (through `v.lazy`) is checked by a finder built on first use.
  seen.set(s, (value) => finder?.(value));
  const finder = build(s, seen);
  seen.set(s, finder);
  return finder;
}

function build(
  s: Node,
  seen: Map<SchemaNode, ArrayAsObjectFinder | undefined>,
): ArrayAsObjectFinder | undefined {
  if (OBJECTS.has(s.type)) {
    const fields: [string, ArrayAsObjectFinder][] = [];
    for (const [key, field] of Object.entries(s.entries ?? {})) {
      const find = compile(field, seen);
      if (find) fields.push([key, find]);
    }
    const rest = s.type === 'object_with_rest' && s.rest ? compile(s.rest, seen) : undefined;
    const declared = new Set(Object.keys(s.entries ?? {}));
    return (value) => {
      if (Array.isArray(value)) return [];
      if (value === null || typeof value !== 'object') return undefined;
      const obj = value as Record<string, unknown>;
      for (const [key, find] of fields) {
        const path = find(obj[key]);
        if (path) return [{ key, value: obj[key] }, ...path];
      }
      if (rest) return entriesOf(obj, rest, declared);
      return undefined;
    };
  }
  if (s.type === 'record') {
    const item = s.value ? compile(s.value, seen) : undefined;
    return (value) => {
      if (Array.isArray(value)) return [];
      if (item === undefined || value === null || typeof value !== 'object') return undefined;
      return entriesOf(value as Record<string, unknown>, item, undefined);
    };
  }
  if (s.type === 'array' && s.item) {
    const item = compile(s.item, seen);
    if (!item) return undefined;
    return (value) => (Array.isArray(value) ? itemsOf(value, 0, value.length, item) : undefined);
  }
  if (TUPLES.has(s.type)) return tuple(s, seen);
  if (MEMBERS.has(s.type) || s.type === 'intersect') return members(s, seen);
  if (s.type === 'lazy' && s.getter) {
    const getter = s.getter;
    return (value) => compile(getter(value), seen)?.(value);
  }
  return undefined;
}

function tuple(
  s: Node,
  seen: Map<SchemaNode, ArrayAsObjectFinder | undefined>,
): ArrayAsObjectFinder | undefined {
  const items = (s.items ?? []).map((item) => compile(item, seen));
  const rest = s.type === 'tuple_with_rest' && s.rest ? compile(s.rest, seen) : undefined;
  if (!rest && items.every((item) => item === undefined)) return undefined;
  return (value) => {
    if (!Array.isArray(value)) return undefined;
    for (let i = 0; i < items.length && i < value.length; i++) {
      const path = items[i]?.(value[i]);
      if (path) return [{ key: i, value: value[i] }, ...path];
    }
    return rest ? itemsOf(value, items.length, value.length, rest) : undefined;
  };
}

/** A union or variant follows the member valibot picks; an intersection checks every member. */
function members(
  s: Node,
  seen: Map<SchemaNode, ArrayAsObjectFinder | undefined>,
): ArrayAsObjectFinder | undefined {
  const options = (s.options ?? []).filter((o): o is SchemaNode => typeof o === 'object');
  const finders = options.map((o) => compile(o, seen));
  if (finders.every((f) => f === undefined)) return undefined;
  if (s.type === 'intersect')
    return (value) => {
      for (const find of finders) {
        const path = find?.(value);
        if (path) return path;
      }
      return undefined;
    };
  return (value) => {
    for (let i = 0; i < options.length; i++)
      if (v.is(options[i] as v.GenericSchema, value)) return finders[i]?.(value);
    return undefined;
  };
}

function entriesOf(
  obj: Record<string, unknown>,
  find: ArrayAsObjectFinder,
  skip: ReadonlySet<string> | undefined,
): PathItem[] | undefined {
  for (const key in obj) {
    if (!Object.hasOwn(obj, key) || skip?.has(key)) continue;
    const path = find(obj[key]);
    if (path) return [{ key, value: obj[key] }, ...path];
  }
  return undefined;
}

function itemsOf(
  list: readonly unknown[],
  from: number,
  to: number,
  find: ArrayAsObjectFinder,
): PathItem[] | undefined {
  for (let i = from; i < to; i++) {
    const path = find(list[i]);
    if (path) return [{ key: i, value: list[i] }, ...path];
  }
  return undefined;
}

/**
 * The valibot-shaped issue for an array where an object or a record is declared, so the 400 or 422
 * reads like every other (`Expected Object, got array at …`).
 *
 * @param path - Where the array is, from `compileArrayAsObjectFinder`.
 * @param input - The array.
 */
export function arrayAsObjectIssue(path: PathItem[], input: unknown): v.BaseIssue<unknown> {
  return {
    kind: 'schema',
    type: 'object',
    input,
    expected: 'Object',
    received: 'Array',
    message: 'Invalid type: Expected Object but received Array',
    path: path.map((p) => ({ type: 'object', origin: 'value', input: {}, key: p.key, value: p.value })),
  } as unknown as v.BaseIssue<unknown>;
}
