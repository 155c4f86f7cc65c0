import type * as v from 'valibot';

/** An object schema as accepted by the `path`, `params`, `headers`, `cookies` and `form` sources. */
export type ObjectSchemaLike = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;
