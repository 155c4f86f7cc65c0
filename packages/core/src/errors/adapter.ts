import type * as v from 'valibot';
import { compileSerializer } from '../schema/serializer';
import { objectEntries } from '../schema/introspect';
import { WiringError } from './wiring-error';
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
): CompiledAdapter {
  const where = 'includeErrorAdapter';
  const entries = objectEntries(adapter.schema);
  if (adapter.statusField !== undefined && entries && adapter.statusField in entries) {
    throw new WiringError(
      `${where}: statusField "${adapter.statusField}" already exists on the adapter's body schema. Fix: the framework adds it; remove it from the schema or pick another name.`,
    );
  }
  const serialize = compileSerializer(adapter.schema);
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
        log(`error adapter failed for ${error.type}; sending the Problem body`, failure);
        return undefined;
      }
    },
  };
}
