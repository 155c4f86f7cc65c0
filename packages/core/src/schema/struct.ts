import * as v from 'valibot';
import { kStruct } from '../symbols';

/** Metadata a model carries into OpenAPI (`ModelMeta` in the spec). */
export interface StructMeta {
  /** Model description; docstrings are never published. */
  readonly description?: string;
  /** Overrides the key under `components.schemas` and every `$ref` to it. */
  readonly name?: string;
}

/** What `Struct()` records about a model. */
export interface StructInfo {
  readonly name: string;
  readonly description: string | undefined;
}

/** A named valibot object schema. */
export type StructSchema<TEntries extends v.ObjectEntries = v.ObjectEntries> = v.ObjectSchema<
  TEntries,
  undefined
> & { readonly [kStruct]: StructInfo };

/**
 * Declares a named model: a valibot object schema whose name is its OpenAPI component key.
 *
 * @param name the component name (and `$ref` target)
 * @param entries the fields, as valibot schemas; keys are the wire names
 * @param meta optional `description` / `name` override
 * @example
 * const Widget = Struct('Widget', { id: v.string(), name: v.string() });
 */
export function Struct<const TEntries extends v.ObjectEntries>(
  name: string,
  entries: TEntries,
  meta: StructMeta = {},
): StructSchema<TEntries> {
  const schema = v.object(entries);
  const info: StructInfo = { name: meta.name ?? name, description: meta.description };
  Object.defineProperty(schema, kStruct, { value: info, enumerable: false });
  return schema as StructSchema<TEntries>;
}

/** The `Struct()` metadata of a schema, or `undefined` for an anonymous schema. */
export function structInfo(schema: unknown): StructInfo | undefined {
  return (schema as { [kStruct]?: StructInfo } | null)?.[kStruct];
}
