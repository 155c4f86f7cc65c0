import * as v from 'valibot';
import {
  compileSerializer,
  compileValidator,
  structInfo,
  toErrorReason,
  type Serializer,
  type Validate,
} from '@api/core/extension';

/** Validates one stream item against its schema and returns its JSON text; throws a `TypeError` when it does not match. */
export type ItemEncoder = (item: unknown) => string;

interface Member {
  readonly name: string;
  readonly validate: Validate;
  readonly serialize: Serializer;
}

function optionsOf(schema: v.GenericSchema): readonly v.GenericSchema[] | undefined {
  const s = schema as { type: string; options?: readonly v.GenericSchema[] };
  return s.type === 'union' || s.type === 'variant' ? s.options : undefined;
}

function mismatch(what: string, issues: readonly v.BaseIssue<unknown>[]): TypeError {
  // The reason names the path and the expected type, never the value (it may be user data).
  return new TypeError(`${what} does not match its schema: ${toErrorReason('json', issues).reason}`);
}

/**
 * Compiles, once at wiring, the encoder of a stream's items: each item is validated, then
 * written by core's compiled serializer (declared fields only, in order). A union of tagged
 * Structs (`Struct(name, entries, { tag: true })`) dispatches on the item's `type` and writes
 * it with its member's serializer (`"type":"<Name>"` first); any other union writes an item
 * with the first member it matches.
 *
 * @param schema - the item schema
 * @param what - how errors name an item, e.g. `NDJSON item`
 * @example
 * const encode = compileItemEncoder(v.union([Created, Deleted]), 'NDJSON item');
 * encode({ type: 'Deleted', id: '1' }); // '{"type":"Deleted","id":"1"}'
 */
export function compileItemEncoder(schema: v.GenericSchema, what: string): ItemEncoder {
  const options = optionsOf(schema);
  if (!options) {
    // Core's compiled validator: valibot's verdict, without valibot on the path of a valid item.
    const validate = compileValidator(schema);
    const serialize = compileSerializer(schema);
    return (item) => {
      const result = validate(item);
      if (!result.success) throw mismatch(what, result.issues);
      return serialize(item);
    };
  }
  const members: Member[] = options.map((option) => ({
    name: structInfo(option)?.name ?? '',
    validate: compileValidator(option),
    serialize: compileSerializer(option),
  }));
  const tagged = options.every((option) => structInfo(option)?.tagged === true);
  if (tagged) {
    // The tag is the Struct's declared name (not a `name` override): read it from the literal.
    const byTag = new Map<unknown, Member>();
    options.forEach((option, i) => {
      const literal = (option as unknown as { entries: { type: { literal: unknown } } }).entries.type.literal;
      byTag.set(literal, members[i]!);
    });
    const names = [...byTag.keys()].map(String).join(', ');
    return (item) => {
      const member =
        item !== null && typeof item === 'object' ? byTag.get((item as { type?: unknown }).type) : undefined;
      if (!member)
        throw new TypeError(`${what} does not match its schema: "type" names none of the union's members (${names})`);
      const result = member.validate(item);
      if (!result.success) throw mismatch(`${what} (${member.name})`, result.issues);
      return member.serialize(item);
    };
  }
  return (item) => {
    for (const member of members) if (member.validate(item).success) return member.serialize(item);
    const result = v.safeParse(schema, item);
    throw mismatch(what, result.success ? [] : result.issues);
  };
}
