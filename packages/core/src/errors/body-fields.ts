// The fields of an error's object schema (a `StructHTTPError` body, `DataclassHTTPError` params, an
// adapter's body), read at definition: valibot's entries, or a Standard Schema's (zod 4, ArkType 2)
// input JSON Schema. What a field is matters to the definition rules (templates render strings, a
// status field is an int, a params field is an object).
import { isSchema } from '../contract/wiring-error';
import { objectEntries, unwrap, type SchemaNode } from '../schema/introspect';
import { isStandardSchema, standardFields } from '../schema/standard';

/** What a definition rule asks of one field. */
export type FieldKind = 'string' | 'int' | 'object' | 'other';

/** An object schema's field names, each with its kind; undefined when it is not an object schema. */
export type BodyFields = ReadonlyMap<string, FieldKind>;

function valibotKind(node: SchemaNode): FieldKind {
  const s = unwrap(node);
  if (s.type === 'string') return 'string';
  if (s.type === 'number' && (s.pipe ?? []).some((a) => a.type === 'integer')) return 'int';
  return objectEntries(node) ? 'object' : 'other';
}

function jsonKind(schema: Record<string, unknown>): FieldKind {
  const types =
    typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  const only = types.filter((t) => t !== 'null');
  if (only.length !== 1) return 'other';
  return only[0] === 'string'
    ? 'string'
    : only[0] === 'integer'
      ? 'int'
      : only[0] === 'object'
        ? 'object'
        : 'other';
}

/**
 * The fields of a valibot object schema (a Struct) or of a Standard object schema whose library
 * offers JSON Schema; undefined for anything else (the caller's WiringError says which).
 */
export function bodyFields(schema: unknown): BodyFields | undefined {
  if (isSchema(schema)) {
    const entries = objectEntries(schema);
    if (!entries) return undefined;
    return new Map(Object.entries(entries).map(([key, node]) => [key, valibotKind(node)]));
  }
  if (!isStandardSchema(schema)) return undefined;
  const fields = standardFields(schema);
  return fields && new Map(fields.map((f) => [f.key, jsonKind(f.schema)]));
}
