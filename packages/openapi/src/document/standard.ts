// Standard Schemas (zod 4, ArkType 2 …) in the document: their JSON Schema comes from the library's
// Standard JSON Schema interface (`~standard.jsonSchema`, draft 2020-12): `input` for request bodies
// and parameters, `output` for responses. A model named by `named()` (or by the library, e.g. zod's
// `.meta({ id })`, which it emits as `$defs`) becomes a component; anonymous ones are inlined. A
// model whose input and output differ (a default, a transform) gets a second component `<Name>Input`.
import {
  isStandardSchema,
  standardJsonSchema,
  structInfo,
  wiringError,
  type ForeignSchema,
} from '@api/core/extension';
import { pointerToken, type JsonSchema } from './json-schema';

export type Io = 'input' | 'output';

const REF_PREFIX = '#/components/schemas/';
const DEFS_PREFIX = '#/$defs/';
const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;

interface Converted {
  /** The schema itself, `$schema` and `$defs` removed. */
  readonly root: JsonSchema;
  readonly defs: Readonly<Record<string, JsonSchema>>;
}

interface Component {
  readonly json: JsonSchema;
  readonly text: string;
  readonly where: string;
}

export { isStandardSchema };

/** Converts and names the Standard Schemas of one document. */
export class StandardModels {
  readonly #converted = new Map<object, { input?: Converted | null; output?: Converted | null }>();
  readonly #components = new Map<string, Component>();

  /** The document's JSON Schema of `schema` for `io`: a `$ref` to its component, or inlined. */
  model(schema: ForeignSchema, where: string, io: Io): JsonSchema {
    const converted = this.#convert(schema, io, where);
    const names = this.#nameDefs(schema, converted, io, where);
    const root = rewrite(converted.root, names);
    const info = structInfo(schema);
    if (!info) return root;
    const key = this.#keyFor(schema, io, where, info.name, (c) => c.root);
    if (info.description !== undefined && root.description === undefined) root.description = info.description;
    this.#add(key, root, where);
    return { $ref: REF_PREFIX + pointerToken(key) };
  }

  /** The fields of an object schema (input): name, required, and each field's JSON Schema. */
  fields(schema: ForeignSchema, where: string): { key: string; required: boolean; schema: JsonSchema }[] {
    const converted = this.#convert(schema, 'input', where);
    const names = this.#nameDefs(schema, converted, 'input', where);
    const root = rewrite(converted.root, names);
    const properties = (root.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set(Array.isArray(root.required) ? (root.required as string[]) : []);
    return Object.entries(properties).map(([key, field]) => ({ key, required: required.has(key), schema: field }));
  }

  /** The components every model registered. */
  components(): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    for (const [key, component] of this.#components) out[key] = component.json;
    return out;
  }

  /** The component key of `name` for `io`: `<name>Input` when the input differs from the output. */
  #keyFor(
    schema: ForeignSchema,
    io: Io,
    where: string,
    name: string,
    pick: (c: Converted) => JsonSchema | undefined,
  ): string {
    if (!COMPONENT_NAME.test(name))
      throw wiringError(
        'API_WIRING_OPENAPI_NAME',
        where,
        `model name ${JSON.stringify(name)} cannot be a components.schemas key (letters, digits, ".", "-" and "_" only)`,
        `name it '${name.replace(/[^A-Za-z0-9._-]/g, '') || 'Model'}'`,
      );
    if (io === 'output') return name;
    const output = this.#tryConvert(schema, 'output');
    if (!output) return name;
    const input = this.#convert(schema, 'input', where);
    const a = pick(input);
    const b = pick(output);
    return b === undefined || JSON.stringify(a) === JSON.stringify(b) ? name : `${name}Input`;
  }

  /** Registers the `$defs` of a conversion as components; returns their keys by def name. */
  #nameDefs(schema: ForeignSchema, converted: Converted, io: Io, where: string): Map<string, string> {
    const names = new Map<string, string>();
    for (const def of Object.keys(converted.defs))
      names.set(def, this.#keyFor(schema, io, where, def, (c) => c.defs[def]));
    for (const [def, json] of Object.entries(converted.defs)) this.#add(names.get(def)!, rewrite(json, names), where);
    return names;
  }

  #add(key: string, json: JsonSchema, where: string): void {
    const text = JSON.stringify(json);
    const prior = this.#components.get(key);
    if (prior && prior.text !== text)
      throw wiringError(
        'API_WIRING_OPENAPI_CONFLICT',
        where,
        `two different models are named "${key}" (the other is used by ${prior.where})`,
        "give one of them another name (named('Other', …), or another .meta({ id }))",
      );
    if (!prior) this.#components.set(key, { json, text, where });
  }

  #tryConvert(schema: ForeignSchema, io: Io): Converted | undefined {
    let cached = this.#converted.get(schema);
    if (!cached) this.#converted.set(schema, (cached = {}));
    if (cached[io] !== undefined) return cached[io] ?? undefined;
    let json: Record<string, unknown> | undefined;
    try {
      json = standardJsonSchema(schema, io);
    } catch {
      // zod cannot express a transform's output; ask it for `{}` there instead (other libraries
      // ignore the option). A second refusal is the caller's WiringError.
      try {
        json = standardJsonSchema(schema, io, { unrepresentable: 'any' });
      } catch {
        json = undefined;
      }
    }
    const converted = json ? split(json) : undefined;
    cached[io] = converted ?? null;
    return converted;
  }

  #convert(schema: ForeignSchema, io: Io, where: string): Converted {
    const converted = this.#tryConvert(schema, io);
    if (converted) return converted;
    throw wiringError(
      'API_WIRING_OPENAPI_NO_JSON_SCHEMA',
      where,
      `a ${schema['~standard'].vendor} schema offers no JSON Schema (${io}) for the OpenAPI document: ` +
        'its library does not implement Standard JSON Schema (`~standard.jsonSchema`), or refused this schema',
      'use a library that implements it (zod 4, ArkType 2) or a valibot Struct for this model, ' +
        'or drop @api/openapi',
    );
  }
}

function split(json: Record<string, unknown>): Converted {
  const { $schema: _schema, $defs, ...root } = json;
  return { root, defs: ($defs ?? {}) as Record<string, JsonSchema> };
}

/** A copy of `json` whose `#/$defs/X` references point at the components. */
function rewrite(json: JsonSchema, names: ReadonlyMap<string, string>): JsonSchema {
  if (names.size === 0) return structuredClone(json);
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (value === null || typeof value !== 'object') return value;
    const out: JsonSchema = {};
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string' && item.startsWith(DEFS_PREFIX)) {
        const def = decodeURIComponent(item.slice(DEFS_PREFIX.length));
        out.$ref = REF_PREFIX + pointerToken(names.get(def) ?? def);
      } else out[key] = visit(item);
    }
    return out;
  };
  return visit(json) as JsonSchema;
}
