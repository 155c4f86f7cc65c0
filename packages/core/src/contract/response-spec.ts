// What `returns:` holds: a response declaration and the run-time facts documents and writers
// read from it. Core's wrappers (responses/response.ts) and extension kinds both describe
// themselves through these.
import type * as v from 'valibot';
import type { AnySchema, StandardObjectSchema } from './standard-schema';
import { kResponseKind } from './symbols';

/**
 * A declared response shape: what `returns:` holds. Core's wrappers, a plain schema, and
 * extension-provided kinds (streams) all describe themselves through this one interface.
 */
export interface ResponseSpec<TValue = unknown> {
  readonly [kResponseKind]: ResponseKindFacts;
  /** Phantom: the value a handler returns for this declaration. */
  readonly __value?: TValue;
}

/**
 * Run-time description of a response declaration: what documents and writers read. An extension
 * kind also carries its writer compiler (`ResponseKindInfo` in `extension-kind.ts`).
 */
export interface ResponseKindFacts {
  /** `json` (JSONResponse family and plain schemas), `text`, `bytes`, `empty`, or an extension's own kind. */
  readonly kind: string;
  /** The wrapper class a returned value is an instance of (undefined: plain values). */
  readonly cls: (abstract new (...args: never[]) => object) | undefined;
  /** The body schema, if any. */
  readonly schema: AnySchema | undefined;
  /** The typed response headers schema, if any. */
  readonly headers: v.ObjectSchema<v.ObjectEntries, undefined> | StandardObjectSchema | undefined;
  /** A fixed status (Created → 201); undefined means the operation default or `statusCode`. */
  readonly status: number | undefined;
  /** Default media type; undefined means none is sent. */
  readonly contentType: string | undefined;
}

/** Wraps a kind's run-time description as a `returns:` entry. */
export function spec<T>(info: ResponseKindFacts): ResponseSpec<T> {
  return { [kResponseKind]: info };
}
