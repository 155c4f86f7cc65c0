import * as v from 'valibot';
import {
  compileSerializer,
  compileValidator,
  discriminatorOf,
  isStandardSchema,
  standardReason,
  toErrorReason,
  type AnySchema,
  type ForeignSchema,
  type Serializer,
  type Validate,
} from '@api/core/extension';

/** Validates one stream item against its schema and returns its JSON text; throws a `TypeError` when it does not match. */
export type ItemEncoder = (item: unknown) => string;

function optionsOf(schema: v.GenericSchema): readonly v.GenericSchema[] | undefined {
  const s = schema as { type: string; options?: readonly v.GenericSchema[] };
  return s.type === 'union' || s.type === 'variant' ? s.options : undefined;
}

function mismatch(what: string, issues: readonly v.BaseIssue<unknown>[]): TypeError {
  // The reason names the path and the expected type, never the value (it may be user data).
  return new TypeError(`${what} does not match its schema: ${toErrorReason('json', issues).reason}`);
}

/**
 * Compiles, once at wiring, the encoder of a stream's items: each item is validated by core's
 * compiled validator, then written by core's compiled serializer (declared fields only, in
 * order). A union of tagged Structs (`Struct(name, entries, { tag: true })`) or a `v.variant` on a
 * literal key is core's: both dispatch on the item's tag (`"type":"<Name>"` comes first), and a
 * refusal is explained by the member the tag names. Any other union writes an item with the first
 * member that accepts it, so no undeclared field is ever sent.
 *
 * @param schema - the item schema
 * @param what - how errors name an item, e.g. `NDJSON item`
 * @example
 * const encode = compileItemEncoder(v.union([Created, Deleted]), 'NDJSON item');
 * encode({ type: 'Deleted', id: '1' }); // '{"type":"Deleted","id":"1"}'
 */
export function compileItemEncoder(schema: AnySchema, what: string): ItemEncoder {
  return isStandardSchema(schema)
    ? standardItemEncoder(schema, what)
    : valibotItemEncoder(schema as v.GenericSchema, what);
}

function valibotItemEncoder(schema: v.GenericSchema, what: string): ItemEncoder {
  const discriminator = discriminatorOf(schema);
  const options = optionsOf(schema);
  if (discriminator || !options) {
    // The variant form accepts what the union accepts; only its explanations differ (by member).
    const validate = compileValidator(discriminator ? discriminator.variant : schema);
    const serialize = compileSerializer(schema);
    return (item) => {
      const result = validate(item);
      if (!result.success) throw mismatch(what, result.issues);
      return serialize(item);
    };
  }
  const members: { readonly validate: Validate; readonly serialize: Serializer }[] = options.map(
    (option) => ({
      validate: compileValidator(option),
      serialize: compileSerializer(option),
    }),
  );
  return (item) => {
    for (const member of members) if (member.validate(item).success) return member.serialize(item);
    const result = v.safeParse(schema, item);
    throw mismatch(what, result.success ? [] : result.issues);
  };
}

/**
 * The encoder of a Standard Schema's items (zod, ArkType): validated by the generic path (sync
 * only: an item is written as it comes), written as the schema's output with `JSON.stringify`.
 */
function standardItemEncoder(schema: ForeignSchema, what: string): ItemEncoder {
  const props = schema['~standard'];
  return (item) => {
    const result = props.validate(item);
    if (result instanceof Promise) {
      // An async schema cannot check an item as it is written; its rejection is this TypeError's.
      result.catch(() => undefined);
      throw new TypeError(
        `${what} has a schema that validates asynchronously; stream items are checked synchronously`,
      );
    }
    if (result.issues)
      throw new TypeError(
        `${what} does not match its schema: ${standardReason('json', result.issues, item).reason}`,
      );
    return JSON.stringify(result.value) ?? 'null';
  };
}
