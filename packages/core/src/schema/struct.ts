import * as v from 'valibot';
import { kStruct } from '../symbols';

/** Metadata a model carries into OpenAPI (`ModelMeta` in the spec). */
export interface StructMeta {
  /** Model description; docstrings are never published. */
  readonly description?: string;
  /** Overrides the key under `components.schemas` and every `$ref` to it. */
  readonly name?: string;
  /**
   * A tagged union member: the model gets a leading `type` field fixed to `name` (not the `name` override)
   * (`{"type":"ChatMessage",…}`), so unions of tagged Structs are discriminated on the wire,
   * in TypeScript and in OpenAPI.
   */
  readonly tag?: boolean;
}

/** What `Struct()` records about a model. */
export interface StructInfo {
  readonly name: string;
  readonly description: string | undefined;
  /** True for a tagged union member (`type` is its first field, fixed to `name`). */
  readonly tagged: boolean;
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
  meta?: StructMeta & { readonly tag?: false },
): StructSchema<TEntries>;
export function Struct<const TName extends string, const TEntries extends v.ObjectEntries>(
  name: TName,
  entries: TEntries,
  meta: StructMeta & { readonly tag: true },
): StructSchema<{ readonly type: v.LiteralSchema<TName, undefined> } & TEntries>;
export function Struct(name: string, entries: v.ObjectEntries, meta: StructMeta = {}): StructSchema {
  const tagged = meta.tag === true;
  const wireName = meta.name ?? name;
  const schema = v.object(tagged ? { type: v.literal(name), ...entries } : entries);
  const info: StructInfo = { name: wireName, description: meta.description, tagged };
  Object.defineProperty(schema, kStruct, { value: info, enumerable: false });
  return schema as StructSchema;
}

/** The `Struct()` metadata of a schema, or `undefined` for an anonymous schema. */
export function structInfo(schema: unknown): StructInfo | undefined {
  return (schema as { [kStruct]?: StructInfo } | null)?.[kStruct];
}
