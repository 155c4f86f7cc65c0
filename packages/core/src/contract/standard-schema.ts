// The Standard Schema v1 interface (https://standardschema.dev, @standard-schema/spec 1.1.0, MIT),
// copied rather than depended on: types only, nothing of it runs. zod 4, ArkType 2 and valibot 1
// implement it. Plus the helper types every package infers a schema's values with, valibot or not.
import type * as v from 'valibot';

/** A Standard Schema v1 (zod 4, ArkType 2, …): `~standard.validate` and the inferred types. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace StandardSchemaV1 {
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
      options?: Options,
    ) => Result<Output> | Promise<Result<Output>>;
    readonly types?: Types<Input, Output> | undefined;
    /** The Standard JSON Schema converter (zod 4, ArkType 2), when the library offers one. */
    readonly jsonSchema?: JsonSchemaConverter | undefined;
  }
  interface Options {
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  type Result<Output> = SuccessResult<Output> | FailureResult;
  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  interface PathSegment {
    readonly key: PropertyKey;
  }
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  type InferInput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['input'];
  type InferOutput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['output'];
  /** The Standard JSON Schema v1 converter (`~standard.jsonSchema`). */
  interface JsonSchemaConverter {
    readonly input: (options: JsonSchemaOptions) => Record<string, unknown>;
    readonly output: (options: JsonSchemaOptions) => Record<string, unknown>;
  }
  interface JsonSchemaOptions {
    readonly target: 'draft-2020-12' | 'draft-07' | 'openapi-3.0' | (string & {});
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
}

/** Any schema a route takes: a valibot schema (the compiled path) or a Standard Schema v1 (zod, ArkType). */
export type AnySchema = v.GenericSchema | StandardSchemaV1;

/** A Standard Schema of an object (`z.object`, ArkType `type({...})`): path, query, headers, cookies, form. */
export type StandardObjectSchema = StandardSchemaV1<object, object>;

/**
 * The value a schema produces (after its transforms): what a handler receives from a binding source.
 * valibot's `InferOutput` for valibot, `StandardSchemaV1.InferOutput` for any other Standard Schema.
 */
export type SchemaOutput<S> = S extends v.GenericSchema
  ? v.InferOutput<S>
  : S extends StandardSchemaV1
    ? StandardSchemaV1.InferOutput<S>
    : never;

/** The value a schema accepts (before its transforms): what a client sends. */
export type SchemaInput<S> = S extends v.GenericSchema
  ? v.InferInput<S>
  : S extends StandardSchemaV1
    ? StandardSchemaV1.InferInput<S>
    : never;

/**
 * What a handler returns for a `returns:` schema. valibot: its output type (the compiled serializer
 * writes it as it is). A Standard Schema: its input type — core validates the value with the schema and
 * writes the schema's output (`JSON.stringify`), so a transform runs on the way out.
 */
export type SchemaReturn<S> = S extends v.GenericSchema
  ? v.InferOutput<S>
  : S extends StandardSchemaV1
    ? StandardSchemaV1.InferInput<S>
    : never;
