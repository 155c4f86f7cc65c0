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
  /** Each name's JSON per direction (a model used by requests and responses may differ: a default). */
  readonly #uses = new Map<string, { input?: Component; output?: Component; owner?: object }>();
  /** Every `$ref` handed out, filled in by `components()` once each name's key is known. */
  readonly #refs: { readonly target: JsonSchema; readonly name: string; readonly io: Io }[] = [];

  /** The document's JSON Schema of `schema` for `io`: a `$ref` to its component, or inlined. */
  model(schema: ForeignSchema, where: string, io: Io): JsonSchema {
    const converted = this.#convert(schema, io, where);
    this.#addDefs(converted, io, where);
    const root = this.#rewrite(converted.root, io);
    const info = structInfo(schema);
    if (!info) return root;
    checkName(info.name, where);
    const use = this.#use(info.name);
    if (use.owner !== undefined && use.owner !== schema)
      throw conflict(info.name, where, (use.input ?? use.output)!.where);
    use.owner = schema;
    if (info.description !== undefined && root.description === undefined) root.description = info.description;
    this.#add(info.name, io, root, where);
    return this.#ref(info.name, io);
  }

  /** The fields of an object schema (input): name, required, and each field's JSON Schema. */
  fields(schema: ForeignSchema, where: string): { key: string; required: boolean; schema: JsonSchema }[] {
    const converted = this.#convert(schema, 'input', where);
    this.#addDefs(converted, 'input', where);
    const root = this.#rewrite(converted.root, 'input');
    const properties = (root.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set(Array.isArray(root.required) ? (root.required as string[]) : []);
    return Object.entries(properties).map(([key, field]) => ({
      key,
      required: required.has(key),
      schema: field,
    }));
  }

  /**
   * The components of every model, keyed by name; a model whose request (input) JSON Schema
   * differs from its response (output) one gets the input as `<Name>Input`. Fills every `$ref`.
   */
  components(): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    const keys = new Map<string, { input: string; output: string }>();
    for (const [name, use] of this.#uses) {
      if (use.input && use.output && use.input.text !== use.output.text) {
        const inputKey = `${name}Input`;
        if (this.#uses.has(inputKey))
          throw conflict(inputKey, use.input.where, this.#uses.get(inputKey)!.input?.where ?? '');
        out[name] = use.output.json;
        out[inputKey] = use.input.json;
        keys.set(name, { input: inputKey, output: name });
      } else {
        out[name] = (use.output ?? use.input)!.json;
        keys.set(name, { input: name, output: name });
      }
    }
    for (const ref of this.#refs) ref.target.$ref = REF_PREFIX + pointerToken(keys.get(ref.name)![ref.io]);
    return out;
  }

  #use(name: string): { input?: Component; output?: Component; owner?: object } {
    let use = this.#uses.get(name);
    if (!use) this.#uses.set(name, (use = {}));
    return use;
  }

  #ref(name: string, io: Io): JsonSchema {
    const target: JsonSchema = { $ref: '' };
    this.#refs.push({ target, name, io });
    return target;
  }

  /** Registers the `$defs` of a conversion (zod's `.meta({ id })` models) as components. */
  #addDefs(converted: Converted, io: Io, where: string): void {
    for (const [def, json] of Object.entries(converted.defs)) {
      checkName(def, where);
      this.#add(def, io, this.#rewrite(json, io), where);
    }
  }

  #add(name: string, io: Io, json: JsonSchema, where: string): void {
    const text = JSON.stringify(json);
    const use = this.#use(name);
    const prior = use[io];
    if (prior && prior.text !== text) throw conflict(name, where, prior.where);
    if (!prior) use[io] = { json, text, where };
  }

  /** A copy of `json` whose `#/$defs/X` references point at the components (filled at the end). */
  #rewrite(json: JsonSchema, io: Io): JsonSchema {
    const visit = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(visit);
      if (value === null || typeof value !== 'object') return value;
      const ref = (value as JsonSchema).$ref;
      if (typeof ref === 'string' && ref.startsWith(DEFS_PREFIX)) {
        const target = this.#ref(decodeURIComponent(ref.slice(DEFS_PREFIX.length)), io);
        for (const [key, item] of Object.entries(value)) if (key !== '$ref') target[key] = visit(item);
        return target;
      }
      const out: JsonSchema = {};
      for (const [key, item] of Object.entries(value)) out[key] = visit(item);
      return out;
    };
    return visit(json) as JsonSchema;
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

function checkName(name: string, where: string): void {
  if (!COMPONENT_NAME.test(name))
    throw wiringError(
      'API_WIRING_OPENAPI_NAME',
      where,
      `model name ${JSON.stringify(name)} cannot be a components.schemas key (letters, digits, ".", "-" and "_" only)`,
      `name it '${name.replace(/[^A-Za-z0-9._-]/g, '') || 'Model'}'`,
    );
}

function conflict(name: string, where: string, other: string): Error {
  return wiringError(
    'API_WIRING_OPENAPI_CONFLICT',
    where,
    `two different models are named "${name}" (the other is used by ${other})`,
    "give one of them another name (named('Other', …), or another .meta({ id }))",
  );
}

function split(json: Record<string, unknown>): Converted {
  const { $schema: _schema, $defs, ...root } = json;
  return { root, defs: ($defs ?? {}) as Record<string, JsonSchema> };
}
