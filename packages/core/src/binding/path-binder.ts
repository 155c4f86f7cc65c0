// Path slots: the binder of `{slot}` values (decoded, coerced, validated; any failure a bare 404).
import type * as v from 'valibot';
import { NotFoundError } from '../errors';
import { wiringError } from '../contract/wiring-error';
import type { AnySchema } from '../contract/standard-schema';
import { fieldCoercion } from '../schema/coerce';
import { hasDefault, isOptional, objectEntries } from '../schema/introspect';
import { isStandardSchema } from '../schema/standard';
import { validator, type Binder } from './binders';
import { standardPathBinder } from './standard-binders';

/** Binds path slots; any failure (decoding or conversion) is a bare 404. */
export function pathBinder(schema: AnySchema, slots: readonly string[], where: string): Binder {
  if (isStandardSchema(schema)) return standardPathBinder(schema, slots, where);
  const entries = objectEntries(schema as v.GenericSchema);
  if (!entries)
    throw wiringError(
      'API_WIRING_NOT_A_SCHEMA',
      where,
      'the path source is not an object schema',
      'declare path as a Struct whose fields name the slots',
    );
  const fields = slots.map((slot) => {
    const field = entries[slot];
    if (!field)
      throw wiringError(
        'API_WIRING_PATH_BINDING',
        where,
        `path slot "{${slot}}" is not a field of the path schema`,
        `add "${slot}" to the path Struct`,
      );
    if (hasDefault(field) || isOptional(field))
      throw wiringError(
        'API_WIRING_PATH_BINDING',
        where,
        `path field "${slot}" has a default or is optional`,
        'path fields are always present; remove the default/optional',
      );
    return { key: slot, coercion: fieldCoercion(field) };
  });
  const validate = validator(schema as v.GenericSchema);
  const n = fields.length;
  // Kept inline (standardPathBinder has the same loop): one shared helper costs ~6% instructions on a
  // path route (measured: 63.3k → 67.0k on GET /items/42), its `{}` seeing every route's keys.
  return (ex) => {
    const input: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const raw = ex.params[i]!;
      let decoded: string;
      if (raw.includes('%')) {
        try {
          decoded = decodeURIComponent(raw);
        } catch {
          throw new NotFoundError();
        }
      } else decoded = raw;
      input[fields[i]!.key] = fields[i]!.coercion.coerce(decoded);
    }
    const result = validate(input);
    if (!result.success) throw new NotFoundError();
    return result.output;
  };
}
