import * as v from 'valibot';
import type { SchemaNode } from './introspect';
import { structInfo } from './struct';

/**
 * A union whose members are told apart by one literal field, read once at wiring: the compiled
 * serializer and the fast validator dispatch on it (a map lookup, never a member tried in turn).
 */
export interface Discriminator {
  /** The field that names the member: `type` for a union of tagged Structs, a variant's own key. */
  readonly key: string;
  /** Each member by the literal value of its `key`, in declaration order (the first wins a repeated value). */
  readonly members: ReadonlyMap<unknown, SchemaNode>;
  /**
   * The equivalent `v.variant(key, members)`: it accepts exactly what the union accepts, and
   * valibot explains a refusal by the member the value's `key` names (`Missing required field at
   * `$.name``) instead of by the union as a whole (`Expected Object, got object at `$``).
   */
  readonly variant: v.GenericSchema;
}

const OBJECTS = new Set(['object', 'strict_object', 'loose_object']);
const found = new WeakMap<object, Discriminator | null>();

function literalAt(option: SchemaNode, key: string): { readonly value: unknown } | undefined {
  if (!OBJECTS.has(option.type)) return undefined;
  const field = option.entries?.[key];
  return field?.type === 'literal' ? { value: field.literal } : undefined;
}

function detect(schema: SchemaNode): Discriminator | undefined {
  let key: string;
  if (schema.type === 'union') {
    // Only Structs declared tagged: an untagged union is not discriminated on the wire (and
    // @api/openapi refuses one of several Structs in a response at wiring).
    key = 'type';
    if (!schema.options?.every((option) => structInfo(option)?.tagged === true)) return undefined;
  } else if (schema.type === 'variant') {
    key = (schema as SchemaNode & { readonly key: string }).key;
  } else return undefined;
  const options = (schema.options ?? []) as readonly SchemaNode[];
  if (options.length === 0) return undefined;
  const members = new Map<unknown, SchemaNode>();
  for (const option of options) {
    const literal = literalAt(option, key);
    if (!literal) return undefined;
    if (!members.has(literal.value)) members.set(literal.value, option);
  }
  const variant =
    schema.type === 'variant'
      ? (schema as unknown as v.GenericSchema)
      : (v.variant(key, options as unknown as v.VariantOptions<string>) as unknown as v.GenericSchema);
  return { key, members, variant };
}

/**
 * The discriminator of a union of tagged Structs (`v.union([A, B])` where every member is
 * `Struct(name, entries, { tag: true })`: dispatched on `type`) or of a `v.variant(key, …)` whose
 * members are objects with a literal `key`; `undefined` for any other schema (untagged unions
 * included). Decided once per schema object.
 *
 * @param schema - any valibot schema
 * @example
 * const Created = Struct('Created', { id: v.string() }, { tag: true });
 * const Deleted = Struct('Deleted', { id: v.string() }, { tag: true });
 * discriminatorOf(v.union([Created, Deleted]))?.members.get('Deleted'); // Deleted
 */
export function discriminatorOf(schema: v.GenericSchema | SchemaNode): Discriminator | undefined {
  const node = schema as SchemaNode;
  if (node.type !== 'union' && node.type !== 'variant') return undefined;
  let known = found.get(node);
  if (known === undefined) {
    known = detect(node) ?? null;
    found.set(node, known);
  }
  return known ?? undefined;
}
