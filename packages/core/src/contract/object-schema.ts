import type * as v from 'valibot';
import type { StandardObjectSchema } from './standard-schema';

/** A valibot object schema (a `Struct`, `v.object(...)`). */
export type ObjectSchemaLike = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;

/**
 * An object schema as accepted by the `path`, `params`, `headers`, `cookies` and `form` sources, typed
 * response headers and middleware headers: a valibot object schema (a `Struct`), or a Standard Schema
 * of an object (`z.object`, ArkType `type({…})`).
 */
export type AnyObjectSchema = ObjectSchemaLike | StandardObjectSchema;
