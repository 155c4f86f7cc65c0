// The binders of a Standard Schema source (zod, ArkType …): the generic validation path beside
// valibot's compiled one. `~standard.validate` may answer a promise (async refinements): a sync
// result costs one `instanceof Promise` check, a promise is awaited by the runner.
import type { StandardSchemaV1 } from '../contract/standard-schema';
import type { RequestHead } from '../contract/exchange';
import { MalformedRequestError, NotFoundError, ValidationFailedError } from '../errors';
import { parseCookieHeader } from '../cookies/set-cookie';
import { parseQuery, toHeaderName } from '../http';
import { wiringError } from '../contract/wiring-error';
import { coercerFor, type FieldCoercion } from '../schema/coerce';
import type { SourceLabel } from '../schema/issues';
import { noShape, standardFields } from '../schema/standard';
import { standardReason } from '../schema/standard-issues';
import { Later } from './body';

/** Validates with a Standard Schema: the output, or a promise of it; issues throw `onIssues`'s error. */
export type StandardCheck = (input: unknown) => unknown;

/** The generic validation path: `validate(value)`, awaited only when the library answers a promise. */
export function standardCheck(
  schema: StandardSchemaV1,
  onIssues: (issues: readonly StandardSchemaV1.Issue[], input: unknown) => Error,
): StandardCheck {
  const props = schema['~standard'];
  const settle = (result: StandardSchemaV1.Result<unknown>, input: unknown): unknown => {
    if (result.issues) throw onIssues(result.issues, input);
    return result.value;
  };
  return (input) => {
    const result = props.validate(input);
    if (result instanceof Promise) return result.then((r) => settle(r, input));
    return settle(result, input);
  };
}

/** The check of a request source: 400 (`MalformedRequestError`) or 422 (`ValidationFailedError`). */
export function sourceCheck(
  schema: StandardSchemaV1,
  source: SourceLabel,
  rename?: ReadonlyMap<string, string>,
): StandardCheck {
  const Failure = source === 'json' || source === 'form' ? ValidationFailedError : MalformedRequestError;
  return standardCheck(schema, (issues, input) => new Failure(standardReason(source, issues, input, rename)));
}

interface Field {
  readonly key: string;
  readonly wire: string;
  readonly coercion: FieldCoercion;
}

function fieldsOf(schema: StandardSchemaV1, source: string, wireName: (key: string) => string): Field[] {
  const fields = standardFields(schema);
  if (!fields) throw noShape(`the ${source} schema`, source);
  return fields.map((f) => ({
    key: f.key,
    wire: wireName(f.key),
    coercion: { many: f.many, coerce: coercerFor(f.scalar) },
  }));
}

/** The query string into a Standard object schema (400 when invalid); the last repeat wins unless an array. */
export function standardQueryBinder(schema: StandardSchemaV1): (ex: { readonly query: string }) => unknown {
  const fields = fieldsOf(schema, 'params', (k) => k);
  const check = sourceCheck(schema, 'query');
  return (ex) => {
    const raw = ex.query.length === 0 ? undefined : parseQuery(ex.query);
    const input: Record<string, unknown> = {};
    if (raw) {
      for (const f of fields) {
        const values = raw.get(f.wire);
        if (values === undefined || values.length === 0) continue;
        input[f.key] = f.coercion.many
          ? values.map(f.coercion.coerce)
          : f.coercion.coerce(values[values.length - 1]!);
      }
    }
    return check(input);
  };
}

/** Request headers into a Standard object schema: `x_trace_id` / `xTraceId` read `x-trace-id`. */
export function standardHeadersBinder(
  schema: StandardSchemaV1,
  onIssues?: (
    issues: readonly StandardSchemaV1.Issue[],
    input: unknown,
    rename: ReadonlyMap<string, string>,
  ) => Error,
): (req: RequestHead) => unknown {
  const fields = fieldsOf(schema, 'headers', toHeaderName);
  const byKey = new Map(fields.map((f) => [f.key, f.wire]));
  const check = onIssues
    ? standardCheck(schema, (issues, input) => onIssues(issues, input, byKey))
    : sourceCheck(schema, 'header', byKey);
  return (req) => {
    const input: Record<string, unknown> = {};
    const headers = req.headers;
    for (const f of fields) {
      if (f.coercion.many) {
        const list = req.headersDistinct[f.wire];
        if (list !== undefined) input[f.key] = list.map(f.coercion.coerce);
        continue;
      }
      const value = headers[f.wire];
      if (value === undefined) continue;
      input[f.key] = f.coercion.coerce(Array.isArray(value) ? value.join(', ') : value);
    }
    return check(input);
  };
}

/** Cookies into a Standard object schema, by verbatim, case-sensitive name. */
export function standardCookiesBinder(
  schema: StandardSchemaV1,
  onIssues?: (issues: readonly StandardSchemaV1.Issue[], input: unknown) => Error,
): (req: RequestHead) => unknown {
  const fields = fieldsOf(schema, 'cookies', (k) => k);
  const check = onIssues ? standardCheck(schema, onIssues) : sourceCheck(schema, 'cookie');
  return (req) => {
    const jar = parseCookieHeader(req.headers.cookie);
    const input: Record<string, unknown> = {};
    for (const f of fields) {
      const value = jar[f.wire];
      if (value !== undefined) input[f.key] = f.coercion.coerce(value);
    }
    return check(input);
  };
}

/**
 * Path slots into a Standard object schema; any failure is a bare 404. Slots must be required
 * fields without defaults.
 */
export function standardPathBinder(
  schema: StandardSchemaV1,
  slots: readonly string[],
  where: string,
): (ex: { readonly params: readonly string[] }) => unknown {
  const all = standardFields(schema);
  if (!all) throw noShape(where, 'path');
  const byKey = new Map(all.map((f) => [f.key, f]));
  const fields = slots.map((slot) => {
    const field = byKey.get(slot);
    if (!field)
      throw wiringError(
        'API_WIRING_PATH_BINDING',
        where,
        `path slot "{${slot}}" is not a field of the path schema`,
        `add "${slot}" to the path object schema`,
      );
    if (field.hasDefault || !field.required)
      throw wiringError(
        'API_WIRING_PATH_BINDING',
        where,
        `path field "${slot}" has a default or is optional`,
        'path fields are always present; remove the default/optional',
      );
    return { key: slot, coerce: coercerFor(field.scalar) };
  });
  const check = standardCheck(schema, () => new NotFoundError());
  const n = fields.length;
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
      input[fields[i]!.key] = fields[i]!.coerce(decoded);
    }
    return check(input);
  };
}

/**
 * `later.map(fn)` where `fn` may answer a promise (an async Standard Schema): the returned `Later`
 * settles with the promise's value. A sync answer settles it at once, as `map` does.
 */
export function mapMaybeAsync<T>(later: Later<T>, fn: (value: T) => unknown): Later<unknown> {
  const out = new Later<unknown>();
  later.onSettled((ok, value) => {
    if (!ok) return out.fail(value);
    let mapped: unknown;
    try {
      mapped = fn(value as T);
    } catch (error) {
      return out.fail(error);
    }
    if (mapped instanceof Promise)
      mapped.then(
        (v: unknown) => out.resolve(v),
        (error: unknown) => out.fail(error),
      );
    else out.resolve(mapped);
  });
  return out;
}

/** Parses and validates a JSON body with a Standard Schema (422 when invalid). */
export function standardJsonDecoder(
  schema: StandardSchemaV1,
  parse: (text: string) => unknown,
): (text: string) => unknown {
  const check = sourceCheck(schema, 'json');
  return (body) => check(parse(body));
}
