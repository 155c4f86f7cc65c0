import * as v from 'valibot';
import { toJsonSchemaDefs, type ConversionConfig } from '@valibot/to-json-schema';
import { formPartInfo, structInfo, wiringError, type StructInfo } from '@api/core/extension';
import { pointerToken, unwrap, type JsonSchema, type SchemaNode } from './json-schema';
import { isStandardSchema, StandardModels, type Io } from './standard';
import type { ForeignSchema } from '@api/core/extension';

type Valibot = Parameters<typeof toJsonSchemaDefs>[0][string];

const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;
const REF_PREFIX = '#/components/schemas/';
const DEFS_PREFIX = '#/$defs/';
interface FormPartMarker {
  readonly file: boolean;
  readonly value: SchemaNode | undefined;
}

/** Core's multipart part marker of a schema node (itself, not through wrappers), if any. */
function ownPart(node: SchemaNode): FormPartMarker | undefined {
  const info = formPartInfo(node);
  // formPartInfo looks through wrappers; only a marker on this very node counts here.
  return info && !node.wrapped ? info : undefined;
}

/** The `$ref` object of a component. */
export function componentRef(name: string): JsonSchema {
  return { $ref: REF_PREFIX + pointerToken(name) };
}

interface Model {
  readonly schema: SchemaNode;
  readonly info: StructInfo;
  readonly where: string;
}

/**
 * Collects every schema the document needs and converts them all in one pass of
 * `@valibot/to-json-schema` (target 2020-12): named Structs become `components.schemas` entries
 * referenced by `$ref`, everything else is inlined where it is used.
 */
export class SchemaRegistry {
  readonly #models = new Map<string, Model>();
  readonly #byObject = new Map<object, string>();
  readonly #roots: { readonly schema: SchemaNode; readonly target: JsonSchema }[] = [];
  /** One conversion per schema object (a path Struct's field serves every item operation). */
  readonly #inlined = new Map<object, JsonSchema>();
  /** Schema trees already walked (with and without the union check). */
  readonly #walked = [new WeakSet<object>(), new WeakSet<object>()] as const;
  /** Unions to document with a discriminator, by their converted shape (see `finish`). */
  readonly #discriminators = new Map<string, JsonSchema>();
  /** A `v.date()` somewhere: only then is the converter's (costly, per-node) override hook used. */
  #dates = false;
  /** Subtrees already scanned for dates (none found). */
  readonly #scanned = new WeakSet<object>();
  #finished = false;
  readonly #std = new StandardModels();

  /**
   * A schema that belongs in the document's models: its Structs (and nested ones) become
   * components; the returned object is filled when `finish()` runs.
   *
   * @param checkUnions reject untagged unions of several Structs (response bodies, stream items)
   */
  model(schema: SchemaNode, where: string, checkUnions = false, io?: Io): JsonSchema {
    // A Standard Schema (zod, ArkType): its library's own JSON Schema, input for requests, output for responses.
    if (isStandardSchema(schema))
      return this.#std.model(schema, where, io ?? (checkUnions ? 'output' : 'input'));
    const walked = this.#walked[checkUnions ? 1 : 0];
    if (!walked.has(schema)) {
      this.#walk(schema, where, checkUnions, new Set());
      walked.add(schema);
    }
    const name = this.#byObject.get(schema);
    if (name !== undefined) return componentRef(name);
    return this.inline(schema);
  }

  /** The fields of a Standard object schema (parameters, typed headers): name, required, JSON Schema. */
  standardFields(
    schema: ForeignSchema,
    where: string,
  ): { key: string; required: boolean; schema: JsonSchema }[] {
    return this.#std.fields(schema, where);
  }

  /** A schema converted in place (parameters): its Structs are not added to the components. */
  inline(schema: SchemaNode): JsonSchema {
    let target = this.#inlined.get(schema);
    if (!target) {
      if (!this.#dates && hasDate(schema, this.#scanned)) this.#dates = true;
      target = {};
      this.#inlined.set(schema, target);
      this.#roots.push({ schema, target });
    }
    return target;
  }

  /** The component name of a registered Struct, if it is one. */
  nameOf(schema: SchemaNode): string | undefined {
    if (isStandardSchema(schema)) return undefined;
    return this.#byObject.get(schema);
  }

  #register(schema: SchemaNode, info: StructInfo, where: string): void {
    if (this.#byObject.has(schema)) return;
    if (!COMPONENT_NAME.test(info.name)) {
      throw wiringError(
        'API_WIRING_OPENAPI_NAME',
        where,
        `model name ${JSON.stringify(info.name)} cannot be a components.schemas key (letters, digits, ".", "-" and "_" only)`,
        `rename the Struct, or give it { name: '${info.name.replace(/[^A-Za-z0-9._-]/g, '') || 'Model'}' }`,
      );
    }
    const prior = this.#models.get(info.name);
    if (prior && prior.schema !== schema) {
      throw wiringError(
        'API_WIRING_OPENAPI_CONFLICT',
        where,
        `two different models are named "${info.name}" (the other is used by ${prior.where})`,
        `give one of them another name: Struct('Other', …) or Struct('${info.name}', …, { name: 'Other' })`,
      );
    }
    this.#models.set(info.name, { schema, info, where });
    this.#byObject.set(schema, info.name);
  }

  #walk(node: SchemaNode, where: string, checkUnions: boolean, seen: Set<object>): void {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (node.type === 'date') this.#dates = true;
    const info = structInfo(node);
    if (info) this.#register(node, info, where);
    for (const item of node.pipe ?? []) {
      if (item.kind === 'schema' && item !== node) this.#walk(item, where, checkUnions, seen);
    }
    const part = ownPart(node);
    if (part?.value) this.#walk(part.value, where, checkUnions, seen);
    if (node.wrapped) this.#walk(node.wrapped, where, checkUnions, seen);
    if (node.entries)
      for (const entry of Object.values(node.entries)) this.#walk(entry, where, checkUnions, seen);
    if (node.item) this.#walk(node.item, where, checkUnions, seen);
    if (node.items) for (const item of node.items) this.#walk(item, where, checkUnions, seen);
    if (node.rest) this.#walk(node.rest, where, checkUnions, seen);
    if (node.type === 'record') {
      if (node.key && typeof node.key === 'object') this.#walk(node.key, where, checkUnions, seen);
      if (node.value) this.#walk(node.value, where, checkUnions, seen);
    }
    if (node.type === 'union' || node.type === 'variant' || node.type === 'intersect') {
      const options = (node.options ?? []) as SchemaNode[];
      if (checkUnions && node.type === 'union') {
        const structs = options.map((o) => structInfo(o)).filter((i): i is StructInfo => i !== undefined);
        const untagged = structs.filter((i) => !i.tagged);
        if (structs.length >= 2 && untagged.length > 0) {
          throw wiringError(
            'API_WIRING_OPENAPI_UNTAGGED_UNION',
            where,
            `returns an untagged union of Structs (${structs.map((i) => i.name).join(' | ')}); clients cannot tell the members apart`,
            `declare every member with Struct(name, entries, { tag: true }) so each carries a "type" discriminator (untagged: ${untagged.map((i) => i.name).join(', ')})`,
          );
        }
      }
      for (const option of options) this.#walk(option, where, checkUnions, seen);
      const found = discriminated(node, this.#byObject);
      if (found) this.#discriminators.set(found.signature, found.schema);
    }
    if (node.type === 'lazy' && typeof node.getter === 'function') {
      let inner: SchemaNode | undefined;
      try {
        inner = node.getter(undefined);
      } catch {
        inner = undefined;
      }
      if (inner) this.#walk(inner, where, checkUnions, seen);
    }
  }

  /** Converts everything registered; returns `components.schemas`. */
  finish(): Record<string, JsonSchema> {
    if (this.#finished) throw new Error('SchemaRegistry.finish() ran twice');
    this.#finished = true;
    const definitions: Record<string, Valibot> = {};
    // A form model documents its part markers as their value schemas (files as binary strings).
    for (const [name, model] of this.#models)
      definitions[name] = (hasParts(model.schema)
        ? prepareRoot(model.schema)
        : model.schema) as unknown as Valibot;
    // Each root is a fresh object: nothing else can reference it, so it is never turned into a $ref.
    const rootKeys: string[] = [];
    this.#roots.forEach((root, i) => {
      const key = `\u0000root${i}`;
      rootKeys.push(key);
      definitions[key] = prepareRoot(root.schema) as unknown as Valibot;
    });
    const converted = toJsonSchemaDefs(definitions, this.#config());
    const components: Record<string, JsonSchema> = {};
    for (const [key, value] of Object.entries(converted)) {
      if (key.startsWith('\u0000root')) continue;
      const schema = tidy(value as JsonSchema, this.#discriminators);
      const model = this.#models.get(key);
      if (model?.info.description !== undefined) schema.description = model.info.description;
      components[key] = schema;
    }
    this.#roots.forEach((root, i) => {
      Object.assign(root.target, tidy(converted[rootKeys[i]!] as JsonSchema, this.#discriminators));
    });
    for (const [key, schema] of Object.entries(this.#std.components())) {
      const model = this.#models.get(key);
      if (model)
        throw wiringError(
          'API_WIRING_OPENAPI_CONFLICT',
          model.where,
          `two different models are named "${key}": a Struct and a Standard Schema (zod, ArkType) model`,
          'give one of them another name',
        );
      components[key] = schema;
    }
    return components;
  }

  #config(): ConversionConfig {
    const config: ConversionConfig = {
      target: 'draft-2020-12',
      // Transforms document their input type; what the converter refuses becomes `{}`, never a crash.
      typeMode: 'input',
      errorMode: 'ignore',
    };
    if (!this.#dates) return config;
    return {
      ...config,
      overrideSchema: (context) =>
        (context.valibotSchema as unknown as SchemaNode).type === 'date'
          ? { type: 'string', format: 'date-time' }
          : undefined,
    };
  }
}

function hasDate(node: SchemaNode | undefined, seen: WeakSet<object>): boolean {
  if (!node || typeof node !== 'object' || seen.has(node)) return false;
  seen.add(node);
  if (node.type === 'date') return true;
  if (hasDate(node.wrapped, seen) || hasDate(node.item, seen) || hasDate(node.rest, seen)) return true;
  if (node.type === 'record' && hasDate(node.value, seen)) return true;
  for (const item of node.items ?? []) if (hasDate(item, seen)) return true;
  for (const option of node.options ?? []) if (hasDate(option as SchemaNode, seen)) return true;
  if (node.entries) for (const key in node.entries) if (hasDate(node.entries[key], seen)) return true;
  return false;
}

/**
 * A union whose members are all named models and carry a literal discriminator documents as
 * `anyOf` + `discriminator {propertyName, mapping}`. The converter emits such a union as
 * `anyOf` (union) or `oneOf` (variant) of the members' `$ref`s; `tidy` finds it by that shape.
 */
function discriminated(
  node: SchemaNode,
  byObject: Map<object, string>,
): { signature: string; schema: JsonSchema } | undefined {
  const options = (node.options ?? []) as SchemaNode[];
  if (options.length < 2) return undefined;
  const names = options.map((o) => byObject.get(o));
  if (names.some((n) => n === undefined)) return undefined;
  let key: string;
  if (node.type === 'variant') key = (node as unknown as { key: string }).key;
  else {
    if (!options.every((o) => structInfo(o)?.tagged)) return undefined;
    key = 'type';
  }
  const signature = `${node.type === 'variant' ? 'oneOf' : 'anyOf'}:${names.join('|')}`;
  const mapping: Record<string, string> = {};
  for (const [i, option] of options.entries()) {
    const field = option.entries?.[key];
    const literal = field ? unwrap(field).literal : undefined;
    if (typeof literal !== 'string') return { signature, schema: { propertyName: key } };
    mapping[literal] = REF_PREFIX + pointerToken(names[i]!);
  }
  return { signature, schema: { propertyName: key, mapping } };
}

/** A multipart file part documents as a binary string. */
const BINARY_PART = v.pipe(
  v.string(),
  v.metadata({ format: 'binary', contentMediaType: 'application/octet-stream' }),
) as unknown as SchemaNode;

/** True for an object schema with a multipart part marker among its fields. */
function hasParts(
  schema: SchemaNode,
): schema is SchemaNode & { readonly entries: Readonly<Record<string, SchemaNode>> } {
  return schema.entries !== undefined && Object.values(schema.entries).some((e) => partOf(e) !== undefined);
}

/** A shallow copy (a fresh identity); multipart part markers are replaced by their value schema. */
function prepareRoot(schema: SchemaNode): SchemaNode {
  if (hasParts(schema)) {
    const entries: Record<string, SchemaNode> = {};
    for (const [k, e] of Object.entries(schema.entries)) entries[k] = replacePart(e);
    return { ...schema, entries };
  }
  return { ...schema };
}

function partOf(schema: SchemaNode): FormPartMarker | undefined {
  return formPartInfo(schema);
}

function replacePart(schema: SchemaNode): SchemaNode {
  const part = ownPart(schema);
  if (part) return part.file ? BINARY_PART : (part.value ?? schema);
  if (schema.wrapped) return { ...schema, wrapped: replacePart(schema.wrapped) };
  return schema;
}

/**
 * Rewrites `$defs` refs to components, drops empty `required` lists and adds the discriminator
 * of tagged unions, in place.
 */
function tidy(schema: JsonSchema, discriminators: ReadonlyMap<string, JsonSchema>): JsonSchema {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const v of value) visit(v);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const obj = value as JsonSchema;
    if (typeof obj.$ref === 'string' && obj.$ref.startsWith(DEFS_PREFIX)) {
      obj.$ref = REF_PREFIX + obj.$ref.slice(DEFS_PREFIX.length);
    }
    if (Array.isArray(obj.required) && obj.required.length === 0) delete obj.required;
    for (const k in obj) {
      // `const`, `default`, `enum` and `examples` hold data, not schemas.
      if (k === 'const' || k === 'default' || k === 'enum' || k === 'examples') continue;
      const v = obj[k];
      if (v && typeof v === 'object') visit(v);
    }
    if (discriminators.size > 0) {
      const list = (obj.anyOf ?? obj.oneOf) as JsonSchema[] | undefined;
      if (list && list.every((s) => typeof s.$ref === 'string' && s.$ref.startsWith(REF_PREFIX))) {
        const kind = obj.anyOf ? 'anyOf' : 'oneOf';
        const names = list.map((s) =>
          (s.$ref as string).slice(REF_PREFIX.length).replaceAll('~1', '/').replaceAll('~0', '~'),
        );
        const discriminator = discriminators.get(`${kind}:${names.join('|')}`);
        if (discriminator) {
          delete obj.oneOf;
          obj.anyOf = list;
          obj.discriminator = discriminator;
        }
      }
    }
  };
  visit(schema);
  return schema;
}
