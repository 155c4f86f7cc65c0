import type * as v from 'valibot';

/** A schema node as seen at wiring; valibot schemas are plain objects with a `type` tag. */
export interface SchemaNode {
  readonly kind: 'schema';
  readonly type: string;
  readonly wrapped?: SchemaNode;
  readonly entries?: Record<string, SchemaNode>;
  readonly item?: SchemaNode;
  readonly items?: readonly SchemaNode[];
  readonly options?: readonly (SchemaNode | string | number)[];
  readonly literal?: unknown;
  readonly default?: unknown;
  readonly pipe?: readonly { kind: string; type: string }[];
}

export function node(schema: v.GenericSchema | v.GenericSchemaAsync): SchemaNode {
  return schema;
}

const WRAPPERS = new Set([
  'optional',
  'exact_optional',
  'nullish',
  'nullable',
  'undefinedable',
  'non_optional',
  'non_nullable',
  'non_nullish',
]);

/** Strips optional/nullable wrappers: the schema that describes a present value. */
export function unwrap(schema: SchemaNode): SchemaNode {
  let s = schema;
  while (WRAPPERS.has(s.type) && s.wrapped) s = s.wrapped;
  return s;
}

/** True when the field may be absent (optional wrapper anywhere on the outside). */
export function isOptional(schema: SchemaNode): boolean {
  let s = schema;
  while (WRAPPERS.has(s.type) && s.wrapped) {
    if (
      s.type === 'optional' ||
      s.type === 'exact_optional' ||
      s.type === 'nullish' ||
      s.type === 'undefinedable'
    )
      return true;
    s = s.wrapped;
  }
  return false;
}

/** True when the field carries a default value. */
export function hasDefault(schema: SchemaNode): boolean {
  let s = schema;
  while (WRAPPERS.has(s.type) && s.wrapped) {
    if (s.default !== undefined) return true;
    s = s.wrapped;
  }
  return false;
}

/** The primitive a string source should be coerced to, judged from the schema. */
export type Scalar = 'string' | 'number' | 'boolean' | 'bigint' | 'unknown';

export function scalarOf(schema: SchemaNode): Scalar {
  const s = unwrap(schema);
  switch (s.type) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'bigint':
      return 'bigint';
    case 'literal':
      return typeof s.literal === 'number' ? 'number' : typeof s.literal === 'boolean' ? 'boolean' : 'string';
    case 'picklist':
      return typeof s.options?.[0] === 'number' ? 'number' : 'string';
    case 'union': {
      const kinds = new Set((s.options as SchemaNode[] | undefined)?.map(scalarOf));
      return kinds.size === 1
        ? [...kinds][0]!
        : kinds.has('number') && !kinds.has('string')
          ? 'number'
          : 'unknown';
    }
    default:
      return 'unknown';
  }
}

/** True when a string source collects repeats into an array for this field. */
export function isArray(schema: SchemaNode): boolean {
  const t = unwrap(schema).type;
  return t === 'array' || t === 'tuple';
}

/** The item schema of an array field. */
export function arrayItem(schema: SchemaNode): SchemaNode | undefined {
  return unwrap(schema).item;
}

/** The entries of an object schema, or undefined when it is not an object schema. */
export function objectEntries(schema: v.GenericSchema | SchemaNode): Record<string, SchemaNode> | undefined {
  const s = unwrap(schema);
  return s.type === 'object' || s.type === 'strict_object' || s.type === 'loose_object'
    ? s.entries
    : undefined;
}
