import * as v from 'valibot';
import { describeValue, wiringError } from '../contract/wiring-error';
import type { WiringErrorCode } from '../contract/wiring-codes';
import { closestName } from './closest-name';

const OPTIONAL: ReadonlySet<string> = new Set(['optional', 'exact_optional', 'nullish', 'undefinedable']);

/** An object schema whose keys are the options (`v.object`, `v.strictObject`, `v.looseObject`). */
export type OptionsSchema = v.GenericSchema<Record<string, unknown>, Record<string, unknown>> & {
  readonly entries: v.ObjectEntries;
};

/** How `checkOptions` words its errors. */
export interface CheckOptionsConfig<TKey extends string> {
  /** The fix for a wrong value, by option: what to write instead (e.g. `'e.g. maxAge: 600'`). */
  readonly fixes: { readonly [K in TKey]: string };
  /** The code of a wrong value (default `API_WIRING_INVALID_ARGUMENT`), per option where it differs. */
  readonly codes?: { readonly [K in TKey]?: WiringErrorCode };
  /** A note added to the fix of an unknown option, e.g. `'mount options go to websocket(…)'`. */
  readonly unknownNote?: string;
}

/**
 * Checks an options object against a valibot object schema and returns its output (defaults
 * filled in by `v.optional(schema, default)`). Each mistake is a coded `WiringError` at `where`:
 *
 * - not an object (a plain object, or `undefined` when every option is optional) →
 *   `API_WIRING_INVALID_ARGUMENT`;
 * - an unknown key → `API_WIRING_UNKNOWN_OPTION`, with the closest known key ("did you mean");
 * - a required key left out (`<key> is required`) or a wrong value → `config.codes[key]` or
 *   `API_WIRING_INVALID_ARGUMENT`, naming the key (its path), what it must be and what it got
 *   (a number or boolean as written, anything else by its kind through `describeValue`, never
 *   its contents), with `config.fixes[key]`.
 *
 * What a value must be is the schema's message (give each schema and action a message that
 * completes "<key> must be …", e.g. `v.number('a whole number of seconds')`); without one, valibot's
 * `expected` is used.
 *
 * @param where - Who is given the options, e.g. `new CORS(options)`.
 * @param schema - The options' object schema.
 * @param value - What the caller passed.
 * @param config - The fix of each option, codes and a note for unknown keys.
 * @example
 * const seconds = 'a whole number of seconds';
 * const Options = v.object({ maxAge: v.optional(v.pipe(v.number(seconds), v.integer(seconds)), 600) });
 * const { maxAge } = checkOptions('new Cache(options)', Options, options, { fixes: { maxAge: 'e.g. maxAge: 600' } });
 */
export function checkOptions<TSchema extends OptionsSchema>(
  where: string,
  schema: TSchema,
  value: unknown,
  config: CheckOptionsConfig<keyof TSchema['entries'] & string>,
): v.InferOutput<TSchema> {
  const keys = Object.keys(schema.entries);
  const required = keys.filter((key) => !OPTIONAL.has(schema.entries[key]!.type));
  const given = value === undefined && required.length === 0 ? {} : value;
  if (!isPlainObject(given))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `the options must be an object, got ${describeValue(given)}`,
      required.length === 0
        ? `pass { ${keys.join(', ')} } (each optional) or nothing for the defaults`
        : `pass { ${keys.join(', ')} }`,
    );
  checkKnownKeys(where, given, keys, config.unknownNote);
  const result = v.safeParse(schema, given, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = issuePath(issue);
  const key = (issue.path?.[0]?.key ?? keys[0]) as keyof TSchema['entries'] & string;
  const missing = issue.path?.at(-1)?.origin === 'key';
  throw wiringError(
    config.codes?.[key] ?? 'API_WIRING_INVALID_ARGUMENT',
    where,
    missing ? `${path} is required` : `${path} must be ${expectation(issue)}, got ${received(issue.input)}`,
    config.fixes[key],
  );
}

/**
 * Refuses keys of an options or spec object that are not `known` (a typo would otherwise be
 * ignored): `API_WIRING_UNKNOWN_OPTION`, naming the key, the closest known one and the list.
 *
 * @param where - Who is given the object.
 * @param given - The object (already known to be one).
 * @param known - The keys it may have.
 * @param note - Added to the fix in parentheses, e.g. where the other options go.
 * @example
 * checkKnownKeys('otel(options)', options, ['tracerProvider', 'propagator']);
 */
export function checkKnownKeys(where: string, given: object, known: readonly string[], note?: string): void {
  for (const key of Object.keys(given)) {
    if (known.includes(key)) continue;
    const guess = closestName(key, known);
    throw wiringError(
      'API_WIRING_UNKNOWN_OPTION',
      where,
      `unknown option "${key}"${guess === undefined ? '' : ` (did you mean "${guess}"?)`}`,
      `use only ${known.join(', ')}${note === undefined ? '' : ` (${note})`}`,
    );
  }
}

/** True for an object literal (or `Object.create(null)`): what an options argument is. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A number or boolean is shown (`got -1`); a string, object or function only by its kind. */
function received(value: unknown): string {
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : describeValue(value);
}

/** `levels.br`, `allowOrigins[0]`: the issue's path as the option would be written. */
function issuePath(issue: v.BaseIssue<unknown>): string {
  let out = '';
  for (const item of issue.path ?? []) {
    const key: unknown = item.key;
    out += typeof key === 'number' ? `[${key}]` : `${out === '' ? '' : '.'}${String(key)}`;
  }
  return out === '' ? 'the options' : out;
}

// valibot's own messages start with "Invalid " ("Invalid type: Expected number but received …")
// and quote the received value; a schema's own message is the expectation, written for people.
function expectation(issue: v.BaseIssue<unknown>): string {
  if (!issue.message.startsWith('Invalid ')) return issue.message;
  return issue.expected ?? issue.type.replace(/_/g, ' ');
}
