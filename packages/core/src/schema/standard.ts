// Standard Schema v1 (zod 4, ArkType 2, …) beside valibot's compiled path: detection, names, the
// generic validation path and the object shape read from the library's JSON Schema. valibot also
// implements `~standard`, so valibot is detected first (`isSchema`) and keeps its compiled path.
import type { StandardSchemaV1 } from '../contract/standard-schema';
import { isSchema, wiringError } from '../contract/wiring-error';
import type { Scalar } from './introspect';

/**
 * A Standard Schema that is not valibot's (valibot schemas carry `kind: 'schema'`): a type guard
 * whose false branch still holds valibot schemas.
 */
export type ForeignSchema = StandardSchemaV1 & { readonly kind?: undefined };

/** True for a Standard Schema v1 that is not a valibot schema (valibot keeps its compiled path). */
export function isStandardSchema(value: unknown): value is ForeignSchema {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  if (isSchema(value)) return false;
  const props = (value as { '~standard'?: { version?: unknown; validate?: unknown } })['~standard'];
  return (
    typeof props === 'object' && props !== null && props.version === 1 && typeof props.validate === 'function'
  );
}

/** True for a schema a route takes: valibot or another Standard Schema v1. */
export function isAnySchema(value: unknown): boolean {
  return isSchema(value) || isStandardSchema(value);
}

/** What `named()` records (the shape of `StructInfo`, never tagged). */
export interface NamedInfo {
  readonly name: string;
  readonly description: string | undefined;
  readonly tagged: boolean;
}

const names = new WeakMap<object, NamedInfo>();

/** Metadata of `named()`: the model's description in OpenAPI. */
export interface NamedMeta {
  readonly description?: string;
}

/**
 * Names a Standard Schema model (zod, ArkType …) as `Struct(name, …)` names a valibot one: the name is
 * its OpenAPI component key (and `$ref` target). Returns the same schema, with its own type.
 *
 * @example
 * const Widget = named('Widget', z.object({ id: z.string(), name: z.string() }));
 */
export function named<S extends StandardSchemaV1>(name: string, schema: S, meta: NamedMeta = {}): S {
  const where = `named(${typeof name === 'string' ? JSON.stringify(name) : '…'})`;
  if (typeof name !== 'string' || name.length === 0)
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      'the name must be a non-empty string',
      "named('Widget', z.object({ … }))",
    );
  if (!isStandardSchema(schema))
    throw wiringError(
      'API_WIRING_NOT_A_SCHEMA',
      where,
      'the schema is not a Standard Schema v1 (zod 4, ArkType 2, …); a valibot model is named by Struct()',
      "named('Widget', z.object({ … })) or Struct('Widget', { … })",
    );
  if (meta === null || typeof meta !== 'object' || Object.keys(meta).some((k) => k !== 'description'))
    throw wiringError(
      'API_WIRING_UNKNOWN_OPTION',
      where,
      'meta takes only description',
      "named('Widget', schema, { description: 'A widget' })",
    );
  names.set(schema, { name, description: meta.description, tagged: false });
  return schema;
}

/** The `named()` name of a Standard Schema, or `undefined`. */
export function namedInfo(schema: unknown): NamedInfo | undefined {
  return schema !== null && (typeof schema === 'object' || typeof schema === 'function')
    ? names.get(schema)
    : undefined;
}

/** The JSON Schema (2020-12) of a Standard Schema's input or output, or undefined when it offers none. */
export function standardJsonSchema(
  schema: StandardSchemaV1,
  io: 'input' | 'output',
  libraryOptions?: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const converter = schema['~standard'].jsonSchema;
  if (converter === undefined || typeof converter[io] !== 'function') return undefined;
  return converter[io](
    libraryOptions ? { target: 'draft-2020-12', libraryOptions } : { target: 'draft-2020-12' },
  );
}

type Json = Record<string, unknown>;

/** Follows a local `#/$defs/Name` reference (zod's `.meta({ id })` models) to its schema. */
export function resolveRef(node: Json, root: Json): Json {
  let n = node;
  for (let i = 0; i < 8 && typeof n.$ref === 'string'; i++) {
    const m = /^#\/\$defs\/(.+)$/.exec(n.$ref);
    const defs = root.$defs as Record<string, Json> | undefined;
    const next = m ? defs?.[decodeURIComponent(m[1]!)] : undefined;
    if (!next) break;
    n = next;
  }
  return n;
}

/** One field of a Standard object schema, read from its input JSON Schema. */
export interface StandardField {
  readonly key: string;
  readonly required: boolean;
  readonly hasDefault: boolean;
  /** Repeats collect into an array. */
  readonly many: boolean;
  /** What a text value is coerced to before the schema sees it. */
  readonly scalar: Scalar;
  /** The field's JSON Schema (input). */
  readonly schema: Json;
}

function typesOf(node: Json, root: Json): string[] {
  const n = resolveRef(node, root);
  if (typeof n.type === 'string') return [n.type];
  if (Array.isArray(n.type)) return n.type as string[];
  if ('const' in n) return [n.const === null ? 'null' : typeof n.const];
  if (Array.isArray(n.enum))
    return [...new Set((n.enum as unknown[]).map((x) => (x === null ? 'null' : typeof x)))];
  const list = (n.anyOf ?? n.oneOf) as Json[] | undefined;
  if (Array.isArray(list)) return [...new Set(list.flatMap((m) => typesOf(m, root)))];
  return [];
}

function scalarOfJson(node: Json, root: Json): Scalar {
  const types = typesOf(node, root).filter((t) => t !== 'null');
  if (types.length !== 1) return types.includes('number') && !types.includes('string') ? 'number' : 'unknown';
  const t = types[0]!;
  return t === 'integer' || t === 'number'
    ? 'number'
    : t === 'boolean'
      ? 'boolean'
      : t === 'string'
        ? 'string'
        : 'unknown';
}

/**
 * The fields of a Standard object schema, from its input JSON Schema; undefined when the library
 * offers no JSON Schema or the schema is not an object (the caller's WiringError says which).
 */
export function standardFields(schema: StandardSchemaV1): StandardField[] | undefined {
  let root: Json | undefined;
  try {
    root = standardJsonSchema(schema, 'input');
  } catch {
    // A library that cannot express this schema as JSON Schema: the caller reports "no shape".
    return undefined;
  }
  if (!root) return undefined;
  const top = resolveRef(root, root);
  if (top.type !== 'object' || typeof top.properties !== 'object' || top.properties === null)
    return undefined;
  const required = new Set(Array.isArray(top.required) ? (top.required as string[]) : []);
  return Object.entries(top.properties as Record<string, Json>).map(([key, raw]) => {
    const field = resolveRef(raw, root);
    const isArray = typesOf(field, root).includes('array');
    const item = isArray ? resolveRef((field.items as Json | undefined) ?? {}, root) : undefined;
    return {
      key,
      required: required.has(key),
      hasDefault: 'default' in field,
      many: isArray,
      scalar: item ? scalarOfJson(item, root) : scalarOfJson(field, root),
      schema: field,
    };
  });
}

/** The WiringError for a Standard Schema whose fields core cannot read (no JSON Schema, or not an object). */
export function noShape(where: string, source: string): Error {
  return wiringError(
    'API_WIRING_NOT_A_SCHEMA',
    where,
    `the ${source} schema is a Standard Schema whose object fields cannot be read: core reads them from the ` +
      "library's JSON Schema (`~standard.jsonSchema`, zod 4 and ArkType 2), which this schema does not offer " +
      'or is not an object',
    `declare ${source} as an object schema (z.object({ … }), type({ … })) of a library that ` +
      'implements Standard JSON Schema, or as a Struct',
  );
}
