import type * as v from 'valibot';
import type { AnySchema, SchemaInput, StandardObjectSchema } from '../contract/standard-schema';
import { classSerializer } from '../schema/serializer';
import { isStandardSchema, namedInfo } from '../schema/standard';
import { structInfo } from '../schema/struct';
import { describeValue, isSchema, wiringError } from '../contract/wiring-error';
import { bodyFields } from './body-fields';
import { BaseHTTPError, checkStatus, type RenderedError } from './base-http-error';
import { renderTemplate, templateFields } from './templates';

const STRUCT_ERROR_KEYS: readonly string[] = [
  'status',
  'description',
  'consts',
  'templates',
  'statusField',
  'paramsField',
  'params',
];

/** Class options of a `StructHTTPError`. */
export interface StructHTTPErrorOptions<TBody extends v.ObjectEntries> {
  readonly status: number;
  /** The OpenAPI response description. */
  readonly description?: string;
  /** Field → pinned value. */
  readonly consts?: { readonly [K in keyof TBody]?: v.InferOutput<TBody[K]> };
  /** Field → `{param}` template rendered at raise time (`{{`/`}}` escape braces). */
  readonly templates?: { readonly [K in keyof TBody]?: string };
  /** An int field of `B` fed the class status. */
  readonly statusField?: keyof TBody & string;
  /** A Struct-typed field into which the raw params nest. */
  readonly paramsField?: keyof TBody & string;
  /** Extra raise-time params used by templates (beyond same-named body fields). */
  readonly params?: v.ObjectSchema<v.ObjectEntries, undefined>;
}

/** A `StructHTTPError` class produced by `StructHTTPError.define`. */
export interface StructHTTPErrorClass<
  TBody extends v.ObjectEntries,
  TParams,
  TStatus extends number = number,
> {
  new (params: TParams): StructHTTPError<v.InferOutput<v.ObjectSchema<TBody, undefined>>>;
  /** The status, as a literal type (an exception handler's `returns` ties it to the body). */
  readonly status: TStatus;
  readonly bodySchema: v.ObjectSchema<TBody, undefined>;
  readonly description: string | undefined;
  readonly consts: Readonly<Record<string, unknown>>;
  readonly statusField: string | undefined;
}

/**
 * Class options of a `StructHTTPError` whose body is a Standard Schema (zod 4, ArkType 2): the same
 * options over the schema's input type `TIn` (what the raise composes; the wire body is its output).
 */
export interface StandardStructHTTPErrorOptions<TIn> {
  readonly status: number;
  /** The OpenAPI response description. */
  readonly description?: string;
  /** Field → pinned value. */
  readonly consts?: { readonly [K in keyof TIn]?: TIn[K] };
  /** Field → `{param}` template rendered at raise time (`{{`/`}}` escape braces). */
  readonly templates?: { readonly [K in keyof TIn]?: string };
  /** An int field of the body fed the class status. */
  readonly statusField?: keyof TIn & string;
  /** An object field into which the raw params nest. */
  readonly paramsField?: keyof TIn & string;
  /** Extra raise-time params used by templates (an object schema: valibot or Standard). */
  readonly params?: AnySchema;
}

/** A `StructHTTPError` class whose body is a Standard Schema `S` (`StructHTTPError.define(zodBody, …)`). */
export interface StandardStructHTTPErrorClass<
  S extends StandardObjectSchema,
  TParams,
  TStatus extends number = number,
> {
  new (params: TParams): StructHTTPError<SchemaInput<S>>;
  /** The status, as a literal type (an exception handler's `returns` ties it to the body). */
  readonly status: TStatus;
  /** Validates the composed body and writes its output (the generic Standard path). */
  readonly bodySchema: S;
  readonly description: string | undefined;
  readonly consts: Readonly<Record<string, unknown>>;
  readonly statusField: string | undefined;
}

type StandardRaiseParams<TIn, TOptions> = (TOptions extends { params: infer P extends AnySchema }
  ? SchemaInput<P>
  : unknown) &
  Omit<TIn, Fed<TOptions> & string>;

type RaiseParams<TBody extends v.ObjectEntries, TOptions> = TOptions extends {
  params: v.ObjectSchema<infer P, undefined>;
}
  ? v.InferInput<v.ObjectSchema<P, undefined>> & RaiseFields<TBody, TOptions>
  : RaiseFields<TBody, TOptions>;
type Fed<TOptions> =
  | (TOptions extends { consts: infer C } ? keyof C : never)
  | (TOptions extends { templates: infer T } ? keyof T : never)
  | (TOptions extends { statusField: infer S } ? S : never)
  | (TOptions extends { paramsField: infer S } ? S : never);
type RaiseFields<TBody extends v.ObjectEntries, TOptions> = Omit<
  v.InferInput<v.ObjectSchema<TBody, undefined>>,
  Fed<TOptions> & string
>;

/**
 * An error rendered as your own body Struct `B` (for backporting an existing error format).
 * Every field of `B` has exactly one source; violations fail at definition.
 *
 * @example
 * const LegacyBody = Struct('LegacyBody', { code: v.string(), message: v.string(), httpStatus: v.number() });
 * class LegacyNotFound extends StructHTTPError.define(LegacyBody, {
 *   status: 404, consts: { code: 'E404' }, templates: { message: 'No {thing}' }, statusField: 'httpStatus',
 *   params: v.object({ thing: v.string() }),
 * }) {}
 * throw new LegacyNotFound({ thing: 'widget' });
 */
export abstract class StructHTTPError<TBody = unknown> extends BaseHTTPError {
  /** A Struct (compiled serializer) or a Standard object schema (validated, its output written). */
  static readonly bodySchema: v.ObjectSchema<v.ObjectEntries, undefined> | StandardObjectSchema;
  /** The body's field names, read from its schema at definition. */
  static readonly bodyFields: readonly string[] = [];
  static readonly description: string | undefined;
  static readonly consts: Readonly<Record<string, unknown>> = {};
  static readonly templates: Readonly<Record<string, string>> = {};
  static readonly statusField: string | undefined;
  static readonly paramsField: string | undefined;
  readonly #params: Record<string, unknown>;

  constructor(params: object) {
    super();
    if (typeof params !== 'object' || params === null)
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        `new ${new.target.name}(params)`,
        `expected the raise-time params object, got ${describeValue(params)}`,
        `e.g. new ${new.target.name}({ thing: 'widget' }), or {} when every field has its source`,
      );
    this.#params = { ...params };
    this.message = `${this.constructor.name} (${this.status})`;
  }

  /** The occurrence as type `B`, composed fresh (nothing passed in is mutated). */
  get body(): TBody {
    const cls = this.constructor as typeof StructHTTPError;
    const out: Record<string, unknown> = {};
    for (const key of cls.bodyFields) {
      if (key in cls.consts) out[key] = cls.consts[key];
      else if (key in cls.templates) out[key] = renderTemplate(cls.templates[key]!, this.#params);
      else if (key === cls.statusField) out[key] = this.status;
      else if (key === cls.paramsField) out[key] = { ...this.#params };
      else out[key] = this.#params[key];
    }
    return out as TBody;
  }

  /** The wire body as JSON text. */
  get responseBody(): string {
    const cls = this.constructor as typeof StructHTTPError;
    return classSerializer(cls, cls.bodySchema)(this.body);
  }

  render(): RenderedError {
    return { status: this.status, contentType: 'application/json', body: this.responseBody };
  }

  /**
   * Declares a `StructHTTPError` class; every rule of the spec is checked here. The body is a Struct
   * or a Standard object schema (zod 4, ArkType 2) whose library offers JSON Schema (its fields are
   * read from it).
   */
  static define<const TBody extends v.ObjectEntries, const TOptions extends StructHTTPErrorOptions<TBody>>(
    bodySchema: v.ObjectSchema<TBody, undefined>,
    options: TOptions,
  ): StructHTTPErrorClass<TBody, RaiseParams<TBody, TOptions>, TOptions['status']>;
  static define<
    const S extends StandardObjectSchema,
    const TOptions extends StandardStructHTTPErrorOptions<SchemaInput<S>>,
  >(
    bodySchema: S,
    options: TOptions,
  ): StandardStructHTTPErrorClass<S, StandardRaiseParams<SchemaInput<S>, TOptions>, TOptions['status']>;
  static define(bodySchema: unknown, options: LooseOptions): unknown {
    const name = structInfo(bodySchema)?.name ?? namedInfo(bodySchema)?.name;
    const where = `StructHTTPError.define(${name ?? 'body'})`;
    const std = isStandardSchema(bodySchema);
    const valibotObject =
      isSchema(bodySchema) && bodySchema.type === 'object' && 'entries' in bodySchema && !!bodySchema.entries;
    const fields = valibotObject || std ? bodyFields(bodySchema) : undefined;
    if (!fields) {
      throw wiringError(
        'API_WIRING_NOT_A_SCHEMA',
        where,
        std
          ? "B is a Standard Schema whose object fields cannot be read: core reads them from the library's " +
              'JSON Schema (`~standard.jsonSchema`, zod 4 and ArkType 2), which it does not offer or is not an object'
          : 'B must be a concrete Struct (an object schema), ' +
              `got ${isSchema(bodySchema) ? `a ${bodySchema.type} schema` : describeValue(bodySchema)}`,
        std
          ? 'pass an object schema (z.object({ … }), type({ … })) or a Struct'
          : 'pass a Struct (or a zod/ArkType object schema), not a generic or a non-object schema',
      );
    }
    if (typeof options !== 'object' || options === null)
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `expected an options object, got ${describeValue(options)}`,
        'pass { status, consts?, templates?, statusField?, paramsField?, params? }',
      );
    for (const key of Object.keys(options))
      if (!STRUCT_ERROR_KEYS.includes(key))
        throw wiringError(
          'API_WIRING_UNKNOWN_OPTION',
          where,
          `unknown option "${key}"`,
          `use only ${STRUCT_ERROR_KEYS.join(', ')}`,
        );
    checkStatus(where, options.status);
    if (options.description !== undefined && typeof options.description !== 'string')
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `"description" must be a string, got ${describeValue(options.description)}`,
        "description: 'What the error means', or leave it out",
      );
    for (const key of ['consts', 'templates'] as const) {
      const value: unknown = options[key];
      if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value)))
        throw wiringError(
          'API_WIRING_INVALID_ARGUMENT',
          where,
          `"${key}" must be an object of field → value, got ${describeValue(value)}`,
          `e.g. ${key}: { code: ${key === 'consts' ? "'E404'" : "'No {thing}'"} }`,
        );
    }
    if (options.params !== undefined && bodyFields(options.params) === undefined)
      throw wiringError(
        'API_WIRING_NOT_A_SCHEMA',
        where,
        `"params" must be an object schema, got ${describeValue(options.params)}`,
        'params: v.object({ thing: v.string() }) or z.object({ thing: z.string() })',
      );
    const fed = new Map<string, string>();
    const feed = (field: string, source: string): void => {
      if (!fields.has(field))
        throw wiringError(
          'API_WIRING_ERROR_FIELD',
          where,
          `${source} names unknown field "${field}"`,
          'use a field of the body Struct',
        );
      const prior = fed.get(field);
      if (prior)
        throw wiringError(
          'API_WIRING_DUPLICATE',
          where,
          `field "${field}" is fed twice (${prior} and ${source})`,
          'give each field exactly one source',
        );
      fed.set(field, source);
    };
    for (const field of Object.keys(options.consts ?? {})) feed(field, 'consts');
    for (const [field, template] of Object.entries(options.templates ?? {}) as [string, string][]) {
      feed(field, 'templates');
      if (typeof template !== 'string')
        throw wiringError(
          'API_WIRING_ERROR_TEMPLATE',
          where,
          `template of field "${field}" must be a string, got ${describeValue(template)}`,
          `e.g. templates: { ${field}: 'No {thing}' }`,
        );
      if (fields.get(field) !== 'string')
        throw wiringError(
          'API_WIRING_ERROR_TEMPLATE',
          where,
          `template on non-string field "${field}"`,
          `templates render strings; use consts or a param for "${field}"`,
        );
      templateFields(where, template);
    }
    if (options.statusField !== undefined) {
      feed(options.statusField, 'statusField');
      if (fields.get(options.statusField) !== 'int')
        throw wiringError(
          'API_WIRING_ERROR_FIELD',
          where,
          `statusField "${options.statusField}" is not an int field`,
          'declare it v.pipe(v.number(), v.integer()) (zod: z.int(), ArkType: number.integer)',
        );
    }
    if (options.paramsField !== undefined) {
      feed(options.paramsField, 'paramsField');
      if (fields.get(options.paramsField) !== 'object')
        throw wiringError(
          'API_WIRING_ERROR_FIELD',
          where,
          `paramsField "${options.paramsField}" is not a Struct-typed field`,
          'declare it as a Struct (or an object schema)',
        );
    }
    const keys = [...fields.keys()];
    abstract class Defined extends StructHTTPError {
      static override readonly status = options.status;
      static override readonly bodySchema = bodySchema as StandardObjectSchema;
      static override readonly bodyFields: readonly string[] = keys;
      static override readonly description = options.description;
      static override readonly consts = { ...(options.consts ?? {}) } as Record<string, unknown>;
      static override readonly templates = { ...(options.templates ?? {}) } as Record<string, string>;
      static override readonly statusField = options.statusField;
      static override readonly paramsField = options.paramsField;
    }
    return Defined;
  }
}

/** What `define`'s implementation reads of its options (each overload's options fit it). */
interface LooseOptions {
  readonly status: number;
  readonly description?: string | undefined;
  readonly consts?: object | undefined;
  readonly templates?: object | undefined;
  readonly statusField?: string | undefined;
  readonly paramsField?: string | undefined;
  readonly params?: unknown;
}
