// The fields of a path schema at type level, for the compile-time path rules (slots must be
// fields; an exact path takes no field beyond its slots; no optional or defaulted field): valibot's
// `entries`, or a Standard Schema's (zod 4, ArkType 2) input type, whose keys are the fields a
// matched path feeds. Both kinds answer the same questions, so every rule reads the same for both.
import type * as v from 'valibot';
import type { StandardSchemaV1 } from '../contract/standard-schema';

/** Names of the `{slots}` in a path template. */
export type PathSlots<TPath extends string> = TPath extends `${string}{${infer Slot}}${infer Rest}`
  ? Slot | PathSlots<Rest>
  : never;

/** The value type a Standard Schema accepts: what the slots feed it. */
type StandardInput<P extends StandardSchemaV1> = StandardSchemaV1.InferInput<P>;
/**
 * `I` without its index signatures (a `z.looseObject`'s `[k: string]: unknown` names no field),
 * optional keys kept optional. Only a type with one pays for this mapped type.
 */
type Declared<I> = string extends keyof I
  ? { [K in keyof I as string extends K ? never : number extends K ? never : K]: I[K] }
  : I;

/** The field names of a path schema: valibot's `entries`, or a Standard Schema's input keys. */
export type PathFields<P> = P extends { readonly entries: infer E }
  ? keyof E & string
  : P extends StandardSchemaV1
    ? keyof Declared<StandardInput<P>> & string
    : never;

type OptionalKinds =
  | v.OptionalSchema<v.GenericSchema, unknown>
  | v.ExactOptionalSchema<v.GenericSchema, unknown>
  | v.NullishSchema<v.GenericSchema, unknown>
  | v.UndefinedableSchema<v.GenericSchema, unknown>;

/** Keys a value of `T` may leave out (declared `?`). */
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

/**
 * Path fields declared optional or with a default (a matched path always carries its values):
 * valibot's optional kinds, or a Standard Schema's optional input keys (zod `.optional()`,
 * `.nullish()`, `.default()`; ArkType `'key?'`, `'string = "x"'`).
 */
export type DefaultedPathFields<P> = P extends { readonly entries: infer E }
  ? { [K in keyof E]: E[K] extends OptionalKinds ? K : never }[keyof E]
  : P extends StandardSchemaV1
    ? OptionalKeys<Declared<StandardInput<P>>> & string
    : never;
