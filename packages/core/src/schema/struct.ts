import * as v from 'valibot';
import { describeValue, wiringError, type WiringErrorCode } from '../contract/wiring-error';
import { kStruct } from '../contract/symbols';
import { namedInfo } from './standard';

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
  checkStruct(name, entries, meta);
  const tagged = meta.tag === true;
  const wireName = meta.name ?? name;
  const schema = v.object(tagged ? { type: v.literal(name), ...entries } : entries);
  const info: StructInfo = { name: wireName, description: meta.description, tagged };
  Object.defineProperty(schema, kStruct, { value: info, enumerable: false });
  return schema as StructSchema;
}

/** The `Struct()` (or `named()`) metadata of a schema, or `undefined` for an anonymous schema. */
export function structInfo(schema: unknown): StructInfo | undefined {
  return (schema as { [kStruct]?: StructInfo } | null)?.[kStruct] ?? namedInfo(schema);
}

const META_KEYS = new Set(['description', 'name', 'tag']);

/** Wrong arguments are WiringErrors at declaration, naming the model, the argument and the fix. */
function checkStruct(name: unknown, entries: unknown, meta: unknown): void {
  const where = `Struct(${typeof name === 'string' ? JSON.stringify(name) : '…'})`;
  const fail = (
    problem: string,
    fix: string,
    code: WiringErrorCode = 'API_WIRING_INVALID_ARGUMENT',
  ): never => {
    throw wiringError(code, where, problem, fix);
  };
  if (typeof name !== 'string' || name.length === 0)
    fail(
      `the name must be a non-empty string, got ${describeValue(name)}`,
      "Struct('Widget', { id: v.string() })",
    );
  if (entries === null || typeof entries !== 'object' || Array.isArray(entries))
    fail(
      `the entries must be an object of valibot schemas, got ${describeValue(entries)}`,
      'Struct(name, { id: v.string() })',
    );
  for (const [key, schema] of Object.entries(entries as object)) {
    const kind = (schema as { kind?: unknown } | null)?.kind;
    if (kind !== 'schema')
      fail(
        `field "${key}" is not a valibot schema (got ${describeValue(schema)})`,
        `${key}: v.string() (or another valibot schema)`,
        'API_WIRING_NOT_A_SCHEMA',
      );
  }
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta))
    fail(
      `meta must be an object, got ${describeValue(meta)}`,
      "{ description: '…' }, { name: 'Other' } or { tag: true }",
    );
  const m = meta as Record<string, unknown>;
  for (const key of Object.keys(m)) {
    if (!META_KEYS.has(key))
      fail(`unknown meta "${key}"`, 'use description, name or tag', 'API_WIRING_UNKNOWN_OPTION');
  }
  if (m.description !== undefined && typeof m.description !== 'string')
    fail(`meta.description must be a string, got ${describeValue(m.description)}`, "description: 'A widget'");
  if (m.name !== undefined && (typeof m.name !== 'string' || m.name.length === 0))
    fail(`meta.name must be a non-empty string, got ${describeValue(m.name)}`, "name: 'OtherName'");
  if (m.tag !== undefined && typeof m.tag !== 'boolean')
    fail(`meta.tag must be a boolean, got ${describeValue(m.tag)}`, 'tag: true');
  if (m.tag === true && Object.hasOwn(entries as object, 'type'))
    fail(
      'a tagged Struct gets its "type" field from its name; the entries declare "type" too',
      'remove "type" from the entries, or drop tag: true',
    );
}
