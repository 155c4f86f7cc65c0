import type * as v from 'valibot';
import type { StandardObjectSchema } from './standard-schema';

/**
 * An object schema as accepted by the `path`, `params`, `headers`, `cookies` and `form` sources: a
 * valibot object schema (a `Struct`), or a Standard Schema of an object (`z.object`, ArkType `type({…})`).
 */
export type ObjectSchemaLike =
  | v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>
  | StandardObjectSchema;
