// Argument checks of the response wrappers. `of` declarations run once, at module load or wiring,
// and check everything; constructors run per request and only do typeof/instanceof checks.
import { isStandardSchema, standardFields } from '../schema/standard';
import { describeValue, isObjectSchema, isSchema, wiringError } from '../contract/wiring-error';

/** Checks a declaration's `(schema, options)`: a valibot schema, an options object with known keys. */
export function checkOf(factory: string, schema: unknown, options: unknown, keys: readonly string[]): void {
  if (schema !== NO_SCHEMA && !isSchema(schema) && !isStandardSchema(schema))
    throw wiringError(
      'API_WIRING_NOT_A_SCHEMA',
      factory,
      `the body schema must be a valibot schema or a Standard Schema (zod, ArkType), got ${describeValue(schema)}`,
      `pass a Struct, a v.* schema or a zod/ArkType schema, e.g. ${factory}(Widget)`,
    );
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      factory,
      `options must be an object, got ${describeValue(options)}`,
      `pass { ${keys.join(', ')} } or nothing`,
    );
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o))
    if (!keys.includes(key))
      throw wiringError(
        'API_WIRING_UNKNOWN_OPTION',
        factory,
        `unknown option "${key}"`,
        `use only ${keys.join(', ')}`,
      );
  if (
    o.headers !== undefined &&
    !isObjectSchema(o.headers) &&
    !(isStandardSchema(o.headers) && standardFields(o.headers))
  )
    throw wiringError(
      'API_WIRING_NOT_A_SCHEMA',
      factory,
      'headers must be an object schema of the typed ' + `response headers, got ${describeValue(o.headers)}`,
      "headers: Struct('Headers', { xTraceId: v.string() })",
    );
  if (o.contentType !== undefined && (typeof o.contentType !== 'string' || o.contentType === ''))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      factory,
      `contentType must be a media type string, got ${describeValue(o.contentType)}`,
      "e.g. contentType: 'image/png'",
    );
}

/** Marks a declaration that takes no body schema (`NoContent.of`, `BytesResponse.of`). */
export const NO_SCHEMA: unique symbol = Symbol('no schema');

/** Checks an extension's response kind declaration (`defineResponseKind`). */
export function checkResponseKind(info: unknown): void {
  const where = 'defineResponseKind';
  if (typeof info !== 'object' || info === null)
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      'expected { kind, cls, schema, headers, status, ' +
        `contentType, compile }, got ${describeValue(info)}`,
      'see the CsvRows example in docs/extensions.md',
    );
  const i = info as Record<string, unknown>;
  const fail = (field: string, expected: string, fix: string): never => {
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      `${where}(${typeof i.kind === 'string' ? i.kind : '?'})`,
      `"${field}" must be ${expected}, got ${describeValue(i[field])}`,
      fix,
    );
  };
  if (typeof i.kind !== 'string' || i.kind === '') fail('kind', 'a non-empty string', "kind: 'csv'");
  if (typeof i.compile !== 'function')
    fail('compile', 'a function (ctx) => writer', 'compile: (ctx) => (value, sink) => { … }');
  if (i.cls !== undefined && typeof i.cls !== 'function')
    fail('cls', 'the class a returned value is an instance of, or undefined', 'cls: Csv');
  if (i.schema !== undefined && !isSchema(i.schema) && !isStandardSchema(i.schema))
    fail('schema', 'a valibot or Standard Schema, or undefined', 'schema: Struct(…), or undefined');
  if (i.headers !== undefined && !isObjectSchema(i.headers))
    fail('headers', 'an object schema or undefined', "headers: Struct('Headers', { … }), or undefined");
  const status = i.status;
  if (
    status !== undefined &&
    !(typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599)
  )
    fail(
      'status',
      'an integer from 100 to 599 or undefined',
      'status: 200, or undefined for the operation default',
    );
  if (i.contentType !== undefined && typeof i.contentType !== 'string')
    fail('contentType', 'a media type string or undefined', "contentType: 'text/csv'");
}
