import type * as v from 'valibot';
import { compileSerializer } from '../schema/serializer';
import { objectEntries } from '../schema/introspect';
import { wiringError } from '../contract/wiring-error';
import type { CompiledAdapter, ProblemView } from './base-http-error';

/** Replaces the Problem-family wire body app-wide (`ErrorBodyAdapter[B]`). */
export interface ErrorBodyAdapter<TSchema extends v.GenericSchema = v.GenericSchema> {
  /** The body schema `B`; its compiled serializer writes the body. */
  readonly schema: TSchema;
  /** Pure: builds the body from the error alone. */
  compose(error: ProblemView): v.InferOutput<TSchema>;
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
  const schema = adapter.schema as { kind?: unknown } | undefined;
  if (typeof schema !== 'object' || schema === null || schema.kind !== 'schema')
    throw wiringError(
      'API_WIRING_NOT_A_SCHEMA',
      where,
      "the adapter's schema is not a valibot schema",
      "pass schema: Struct('Body', { … })",
    );
  if (adapter.statusField !== undefined && typeof adapter.statusField !== 'string')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      'statusField must be a field name (a string)',
      "statusField: 'status'",
    );
  const entries = objectEntries(adapter.schema);
  if (adapter.statusField !== undefined && entries && adapter.statusField in entries) {
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
