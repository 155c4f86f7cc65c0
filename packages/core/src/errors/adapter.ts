import type { AnySchema, SchemaReturn } from '../contract/standard-schema';
import { compileSerializer } from '../schema/serializer';
import { isAnySchema } from '../schema/standard';
import { wiringError } from '../contract/wiring-error';
import { bodyFields } from './body-fields';
import type { CompiledAdapter, ProblemView } from './base-http-error';

/** Replaces the Problem-family wire body app-wide (`ErrorBodyAdapter[B]`). */
export interface ErrorBodyAdapter<TSchema extends AnySchema = AnySchema> {
  /**
   * The body schema `B`: a Struct (its compiled serializer writes the body) or a Standard Schema
   * (zod 4, ArkType 2: the composed body is validated and its output written).
   */
  readonly schema: TSchema;
  /** Pure: builds the body from the error alone (a Standard Schema's input type). */
  compose(error: ProblemView): SchemaReturn<TSchema>;
  /** An int field the framework adds, fed the status; must not exist on `B`. */
  readonly statusField?: string;
}

/** Prepares an adapter at wiring: its serializer compiled once, its failures contained. */
export function compileAdapter(
  adapter: ErrorBodyAdapter,
  log: (message: string, error: unknown) => void,
  where = 'includeErrorAdapter',
): CompiledAdapter {
  if (typeof adapter !== 'object' || adapter === null || typeof adapter.compose !== 'function')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      'an adapter needs compose(error)',
      'pass { schema, compose(error) { … } }',
    );
  if (Object.getPrototypeOf(adapter) === Object.prototype)
    for (const key of Object.keys(adapter))
      if (key !== 'schema' && key !== 'compose' && key !== 'statusField')
        throw wiringError(
          'API_WIRING_UNKNOWN_OPTION',
          where,
          `unknown adapter key "${key}"`,
          'an adapter is { schema, compose(error), statusField? }',
        );
  if (!isAnySchema(adapter.schema))
    throw wiringError(
      'API_WIRING_NOT_A_SCHEMA',
      where,
      "the adapter's schema is neither a valibot schema nor a Standard Schema (zod 4, ArkType 2)",
      "pass schema: Struct('Body', { … }) or a z.object({ … })",
    );
  if (adapter.statusField !== undefined && typeof adapter.statusField !== 'string')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      'statusField must be a field name (a string)',
      "statusField: 'status'",
    );
  const entries = adapter.statusField === undefined ? undefined : bodyFields(adapter.schema);
  if (adapter.statusField !== undefined && entries?.has(adapter.statusField)) {
    throw wiringError(
      'API_WIRING_ERROR_FIELD',
      where,
      `statusField "${adapter.statusField}" already exists on the adapter's body schema`,
      'the framework adds it; remove it from the schema or pick another name',
    );
  }
  const serialize = compileSerializer(adapter.schema, { strict: true });
  let logged = false;
  const statusKey = adapter.statusField === undefined ? undefined : JSON.stringify(adapter.statusField);
  return {
    render(error) {
      try {
        const body = adapter.compose(error);
        let text = serialize(body);
        if (statusKey !== undefined)
          text =
            text === '{}'
              ? `{${statusKey}:${error.status}}`
              : `${text.slice(0, -1)},${statusKey}:${error.status}}`;
        return { status: error.status, contentType: 'application/json', body: text };
      } catch (failure) {
        // Logged once: a broken adapter would otherwise log on every error response.
        if (!logged) log(`error adapter failed for ${error.type}; sending Problem bodies instead`, failure);
        logged = true;
        return undefined;
      }
    },
  };
}
