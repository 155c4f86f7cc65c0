// Media-type `examples` from the examples models carry (`v.examples([...])` in their pipes).
import * as v from 'valibot';
import { structInfo, toErrorReason, wiringError } from '@api/core/extension';
import { isOptional, type JsonSchema, type SchemaNode } from './json-schema';

/** An OpenAPI Example Object map: name → `{ value }`. */
export type ExampleMap = Record<string, { readonly value: unknown }>;

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
const OBJECTS = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest']);
/** Deep enough for real models; a recursive (lazy) one is never followed. */
const MAX_DEPTH = 16;

/** The `v.examples([...])` of this very node (its pipe), if any. */
function ownExamples(node: SchemaNode): readonly unknown[] | undefined {
  for (const item of node.pipe ?? []) {
    const examples = (item as { type: string; examples?: unknown }).examples;
    if (item.type === 'examples' && Array.isArray(examples) && examples.length > 0)
      return examples as unknown[];
  }
  return undefined;
}

/** A composed value, and whether any declared example went into it (literals alone do not count). */
interface Composed {
  readonly value: unknown;
  readonly declared: boolean;
}

/**
 * One example of a schema, composed from the examples its parts declare: a field's first example,
 * a literal's value, a nested model's own composition, one item for an array, the first member of
 * a union that composes. Undefined when a required field has none.
 */
function compose(node: SchemaNode, depth: number): Composed | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const own = ownExamples(node);
  if (own) return { value: own[0], declared: true };
  if (WRAPPERS.has(node.type) && node.wrapped) return compose(node.wrapped, depth + 1);
  if (node.type === 'literal') return { value: node.literal, declared: false };
  if (OBJECTS.has(node.type) && node.entries) {
    const value: Record<string, unknown> = {};
    let declared = false;
    for (const [key, field] of Object.entries(node.entries)) {
      const part = compose(field, depth + 1);
      if (part) {
        value[key] = part.value;
        declared ||= part.declared;
      } else if (!isOptional(field)) return undefined;
    }
    return { value, declared };
  }
  if (node.type === 'array' && node.item) {
    const item = compose(node.item, depth + 1);
    return item ? { value: [item.value], declared: item.declared } : undefined;
  }
  if ((node.type === 'union' || node.type === 'variant') && node.options) {
    for (const option of node.options as SchemaNode[]) {
      const found = compose(option, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The media type's `examples` for a body schema: the examples declared on the schema itself
 * (`v.pipe(Widget, v.examples([...]))`), else one example composed from its fields' examples
 * (a union gives one per member that composes, named after it). Undefined when the model
 * declares none. Every example is checked against the schema: one that does not match is a
 * `WiringError` (a document whose examples fail their own schema misleads every reader).
 *
 * @param schema the body schema
 * @param name what to name a single example (the model's component name), for the map key
 * @param where `Owner.operation`, for wiring errors
 */
export function examplesOf(
  schema: SchemaNode,
  name: string | undefined,
  where: string,
): ExampleMap | undefined {
  const found: [string, unknown][] = [];
  const label = name ?? 'example';
  const declared = ownExamples(schema);
  if (declared) declared.forEach((value, i) => found.push([i === 0 ? label : `${label}${i + 1}`, value]));
  else if ((schema.type === 'union' || schema.type === 'variant') && schema.options) {
    for (const option of schema.options as SchemaNode[]) {
      const member = compose(option, 0);
      if (member?.declared)
        found.push([structInfo(option)?.name ?? `${label}${found.length + 1}`, member.value]);
    }
  } else {
    const composed = compose(schema, 0);
    if (composed?.declared) found.push([label, composed.value]);
  }
  if (found.length === 0) return undefined;
  const out: ExampleMap = {};
  for (const [key, value] of found) {
    const result = v.safeParse(schema as unknown as v.GenericSchema, value);
    if (!result.success) {
      throw wiringError(
        'API_WIRING_OPENAPI_EXAMPLE',
        where,
        `the example "${key}" of ${name ?? 'its body'} does not match its schema (${toErrorReason('json', result.issues).reason})`,
        'correct the v.examples([...]) of the model or of the field it names',
      );
    }
    out[key] = { value };
  }
  return out;
}

/** Adds `examples` to a media type object when there are any. */
export function withExamples(media: JsonSchema, examples: ExampleMap | undefined): JsonSchema {
  if (examples) media.examples = examples;
  return media;
}
